package dev.cutover.app.demo;

import dev.cutover.engine.Statements;
import java.time.Instant;
import java.util.Optional;

/**
 * What the demo world holds and where its live job stands, for {@code cutover demo status} and the
 * console.
 *
 * <pre>{@code
 * DemoStatus status = DemoStatus.read(database, DemoWorld.in("trading"));
 * status.state().map(DemoState::watermark);
 * }</pre>
 *
 * @param world the world's database
 * @param state the world's state; empty when it is not seeded
 * @param volumes rows and hours in each table; zero when not seeded
 * @param edges the live edges read from the data; empty when not seeded
 * @param writerActive whether a live job holds the world now
 */
public record DemoStatus(DemoWorld world, Optional<DemoState> state, Volumes volumes, Optional<LiveEdges> edges,
    boolean writerActive) {

  /** Row counts, and hours with rows for the two PnL tables. */
  public record Volumes(long trades, long marks, long fxRates, long v1Rows, long v1Hours, long v2Rows, long v2Hours,
      long alerts) {

    static final Volumes NONE = new Volumes(0, 0, 0, 0, 0, 0, 0, 0);
  }

  public static DemoStatus read(Statements statements, DemoWorld world) {
    Sql sql = new Sql(statements);
    Optional<DemoState> state = new StateStore(sql, world).read();
    if (state.isEmpty()) {
      return new DemoStatus(world, state, Volumes.NONE, Optional.empty(), false);
    }
    long[] v1 = rowsAndHours(sql, world.pnlV1());
    long[] v2 = rowsAndHours(sql, world.pnlV2());
    Volumes volumes = new Volumes(count(sql, world.trades()), count(sql, world.marks()), count(sql, world.fxRates()),
        v1[0], v1[1], v2[0], v2[1], state.get().viewFed() ? 0 : count(sql, world.alerts()));
    return new DemoStatus(world, state, volumes, Optional.of(LiveEdges.read(statements, world)),
        LiveJob.isHeld(state.get(), Instant.now()));
  }

  /**
   * The boundary from which the live job writes v2, as any process deployed it, or empty before {@code
   * deploy-v2} or on a world not seeded. One read of the world's state.
   */
  public static Optional<Instant> v2From(Statements statements, DemoWorld world) {
    return new StateStore(new Sql(statements), world).read().flatMap(DemoState::v2From);
  }

  public boolean seeded() {
    return state.isPresent();
  }

  private static long count(Sql sql, TableName table) {
    return sql.queryLong("count the rows of " + table, "SELECT count() FROM " + table.sql());
  }

  /** Rows from the table, hours from its active parts (an hour is a partition). */
  private static long[] rowsAndHours(Sql sql, TableName table) {
    long rows = count(sql, table);
    long hours = sql.queryLong("count the hours of " + table, "SELECT uniqExact(partition_id) FROM system.parts "
        + "WHERE database = ? AND table = ? AND active AND rows > 0", table.database().name(), table.table().name());
    return new long[] {rows, hours};
  }
}
