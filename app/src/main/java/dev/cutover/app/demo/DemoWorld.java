package dev.cutover.app.demo;

import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.api.Identifier;
import java.util.Map;

/**
 * The tables of one demo world, all in one Atomic database ({@value #DEFAULT_DATABASE} unless a test
 * or an operator chooses another).
 *
 * <pre>{@code
 * DemoWorld world = DemoWorld.in("trading");
 * world.pnlV1().sql();   // `trading`.`pnl_v1`
 * }</pre>
 */
public record DemoWorld(Identifier database, java.util.Optional<ShardOf> shard) {

  public static final String DEFAULT_DATABASE = DemoSpec.DEFAULT_DATABASE;

  /** The expression that shards the world by book over a cluster, as its Distributed tables do. */
  public static final String SHARDING_KEY = "sipHash64(book)";

  /** One shard's part of a world sharded by book: shard {@code number} (from 1) of {@code count}. */
  public record ShardOf(int number, int count) {
    /** The condition on {@code book} that holds for the rows of this shard, as a Distributed table routes them. */
    public String condition() {
      return SHARDING_KEY + " % " + count + " = " + (number - 1);
    }
  }

  public DemoWorld {
    database = Identifier.simple("demo database", database.name());
    shard = java.util.Objects.requireNonNull(shard, "shard");
  }

  public DemoWorld(Identifier database) {
    this(database, java.util.Optional.empty());
  }

  /** This world's part on shard {@code number} of {@code count}: only the trades of its books. */
  public DemoWorld onShard(int number, int count) {
    return new DemoWorld(database, java.util.Optional.of(new ShardOf(number, count)));
  }

  /** The Distributed table over one of this world's tables, on a cluster: {@code <name>_all}. */
  public TableName distributed(TableName local) {
    return table(local.table().name() + "_all");
  }

  public static DemoWorld in(String database) {
    return new DemoWorld(Identifier.simple("demo database", database));
  }

  public TableName instruments() {
    return table("instruments");
  }

  public TableName trades() {
    return table("trades");
  }

  /**
   * The fees charged on trades, as a feed of their own: in the world whose v1 materialized views feed, the fee of
   * every fee-paying trade arrives here, in an insert of its own, and a view of its own folds it into v1.
   */
  public TableName fees() {
    return table("fees");
  }

  public TableName marks() {
    return table("marks");
  }

  public TableName fxRates() {
    return table("fx_rates");
  }

  public TableName pnlV1() {
    return table("pnl_v1");
  }

  public TableName pnlV2() {
    return table("pnl_v2");
  }

  /** The consumer view over v1. */
  public TableName pnl() {
    return table("pnl");
  }

  public TableName alerts() {
    return table("pnl_alerts");
  }

  public TableName alertsView() {
    return table("pnl_alerts_mv");
  }

  public TableName state() {
    return table("demo_state");
  }

  public TableName writes() {
    return table("demo_writes");
  }

  /** The target table a version writes. */
  public TableName target(PnlVersion version) {
    return version == PnlVersion.V1 ? pnlV1() : pnlV2();
  }

  /** The live job's private staging table for a version. */
  public TableName liveStaging(PnlVersion version) {
    return table("pnl_" + version.label() + "_live_staging");
  }

  /** The sources by the names the SQL templates use: {@code {trades}}, {@code {marks}}, … */
  public Map<String, TableName> sources() {
    return Map.of("trades", trades(), "fees", fees(), "marks", marks(), "fx_rates", fxRates(), "instruments",
        instruments());
  }

  private TableName table(String name) {
    return TableName.of(database, name);
  }

  /** Whether this world's v1 is fed by a materialized view (seeded with {@code --live mv}); false when it is not seeded. */
  public boolean viewFed(dev.cutover.engine.Statements statements) {
    return DemoSpec.viewFed(statements, database.name());
  }

  @Override
  public String toString() {
    return database.name();
  }
}
