package dev.cutover.engine.reconcile;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.Procedure;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A small trading world with decimal measures, repaired up to its reconciliation: trades of six
 * books every hour, and an hourly table {@code fees_v1} whose live job added each book's fees,
 * rounded to cents, to its PnL instead of subtracting them. The fix changes two measures, {@code pnl}
 * ({@code Decimal(18, 4)}) by exactly {@code -(v1.fees + v2.fees)} and {@code fees} by the rounding,
 * and leaves {@code trade_count} and {@code notional} identical.
 *
 * <p>Two incidents of v1 are not explained by the fix: in the {@link #incident} hour the live job
 * dropped the fees altogether, for the six books and for {@link #BULK_BOOKS} more that traded once
 * in that hour; one of them, {@code alpha}, paid a fee of 18.56 on 1,234.56, so its PnL differs by
 * exactly -18.56 (which a binary subtraction prints as -18.559999999999945). The same happened in
 * the {@link #acknowledged} hour, for the six books only, and an operator accepted it.
 */
final class FeeWorld {

  static final int BULK_BOOKS = 700;
  static final int BOOKS = 6;

  final Database db;
  final Sql sql;
  final Engine engine;
  final TableSpec spec;
  final HourPartition first;
  final HourPartition liveEdge;
  final HourPartition incident;
  final HourPartition acknowledged;
  HourPartition boundary;

  private FeeWorld(Database db, int days) {
    this.db = db;
    this.sql = new Sql(db.dataSource());
    this.engine = new Engine(db);
    this.liveEdge = HourPartition.containing(Instant.now()).plusHours(-1);
    this.first = liveEdge.plusHours(-(days * 24L) + 1);
    this.incident = first.plusHours(days * 24L / 3);
    this.acknowledged = first.plusHours(days * 24L / 2);
    this.spec = SpecLoader.parse(specYaml(db.server().database()), "fees.yaml");
  }

  /**
   * A world of {@code days} days up to the hour before the current one, backfilled into v2 below the
   * boundary and written live into v2 from it on, with the acknowledged hour accepted.
   */
  static FeeWorld repaired(Database db, int days) throws InterruptedException {
    FeeWorld w = new FeeWorld(db, days);
    w.seed();
    Plan plan = w.engine.plans().plan(w.spec, Optional.empty(), Optional.empty(), Optional.empty(), w.engine.plans().defaults(w.spec));
    w.boundary = plan.boundary();
    RunState state = Procedure.backfill(w.engine, plan).state();
    if (state != RunState.SUCCEEDED) {
      throw new IllegalStateException("The backfill of the fee world ended " + state);
    }
    w.sql.execute("write v2 live", "INSERT INTO fees_v2 " + window(TRANSFORM_V2), w.boundary.epochSecond(),
        w.liveEdge.plusHours(1).epochSecond());
    w.engine.reconciliations().acknowledge(w.spec, w.acknowledged, List.of(), "The live job dropped the fees of this hour on a "
        + "restart; v2 is right.");
    return w;
  }

  Reconciliation reconcile(int keyLimit) {
    return engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, keyLimit);
  }

  private void seed() {
    sql.execute("create trades", "CREATE TABLE trades (ts DateTime('UTC'), book String, gross Decimal(18, 2), "
        + "fee Decimal(18, 4)) ENGINE = MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (ts, book)");
    for (String v : List.of("fees_v1", "fees_v2")) {
      sql.execute("create " + v, "CREATE TABLE " + v + " (hour DateTime('UTC'), book String, trade_count UInt64, "
          + "notional Decimal(18, 2), fees Decimal(18, 4), pnl Decimal(18, 4)) ENGINE = MergeTree "
          + "PARTITION BY toStartOfHour(hour) ORDER BY (hour, book)");
    }
    sql.execute("create the consumer view", "CREATE VIEW fees AS SELECT * FROM fees_v1");
    long hours = (liveEdge.plusHours(1).epochSecond() - first.epochSecond()) / 3600;
    // Two trades per book and hour: gross 100.00 to 1,099.99, fees 0.0001 to 9.9999.
    sql.execute("generate trades", "INSERT INTO trades SELECT toDateTime(? + intDiv(number, ?) * 3600 + "
        + "cityHash64(number, 7) % 3600, 'UTC'), concat('desk-', toString(number % ?)), toDecimal64(100 + "
        + "(cityHash64(number, 1) % 100000) / 100, 2), toDecimal64((1 + cityHash64(number, 2) % 99999) / 10000, 4) "
        + "FROM numbers(?)", first.epochSecond(), 2 * BOOKS, BOOKS, hours * 2 * BOOKS);
    sql.execute("generate the incident's books", "INSERT INTO trades SELECT toDateTime(? + number, 'UTC'), "
        + "concat('bulk-', leftPad(toString(number), 4, '0')), toDecimal64(500 + number, 2), toDecimal64((1 + "
        + "number) / 100, 4) FROM numbers(?)", incident.epochSecond(), BULK_BOOKS);
    sql.execute("the known trade", "INSERT INTO trades VALUES (toDateTime(?, 'UTC'), 'alpha', 1234.56, 18.56)",
        incident.epochSecond() + 1800);
    String v1 = TRANSFORM_V1.replace("{incidents}", incident.epochSecond() + ", " + acknowledged.epochSecond());
    sql.execute("write v1", "INSERT INTO fees_v1 " + window(v1) + " SETTINGS max_partitions_per_insert_block = 10000",
        first.epochSecond(), liveEdge.plusHours(1).epochSecond());
  }

  private static final String TRANSFORM_V2 = """
      SELECT toStartOfHour(ts) AS hour, book, toUInt64(count()) AS trade_count, toDecimal64(sum(gross), 2) AS notional,
        toDecimal64(sum(fee), 4) AS fees, toDecimal64(sum(gross) - sum(fee), 4) AS pnl
      FROM {trades} WHERE ts >= {window_start:DateTime} AND ts < {window_end:DateTime} GROUP BY hour, book""";

  /** v1's bug: fees rounded to cents and added to PnL; in the incident hours, left out of PnL altogether. */
  private static final String TRANSFORM_V1 = """
      SELECT toStartOfHour(ts) AS hour, book, toUInt64(count()) AS trade_count, toDecimal64(sum(gross), 2) AS notional,
        toDecimal64(round(sum(fee), 2), 4) AS fees,
        toDecimal64(sum(gross) + if(toUnixTimestamp(hour) IN ({incidents}), 0, round(sum(fee), 2)), 4) AS pnl
      FROM {trades} WHERE ts >= {window_start:DateTime} AND ts < {window_end:DateTime} GROUP BY hour, book""";

  private static String window(String transform) {
    return transform.replace("{trades}", "trades").replace("{window_start:DateTime}", "toDateTime(?, 'UTC')")
        .replace("{window_end:DateTime}", "toDateTime(?, 'UTC')");
  }

  private static String specYaml(String database) {
    return """
        spec: 1
        name: fees
        database: %s
        tables:
          live: fees_v1
          target: fees_v2
          consumer_view: fees
        time_column: hour
        keys: [book]
        measures: [trade_count, notional, fees, pnl]
        sources:
          - table: trades
            time_column: ts
        transform: |
          %s
        expected_differences:
          - name: fees-subtracted
            where: v2.fees != 0
            delta:
              pnl: -(v1.fees + v2.fees)
            check: abs(v2.fees - v1.fees) <= 0.005
            why: v1 added the fees, rounded to cents, to PnL instead of subtracting them
        throttle:
          concurrency: 2
          batch_hours: 24
        boundary:
          safety_margin_hours: 3
        reconciliation:
          minimum_overlap_hours: 3
        retention:
          consumers:
            - name: dashboards
              cache_lifetime: 12h
          safety_margin: 6h
        """.formatted(database, TRANSFORM_V2.replace("\n", "\n  "));
  }
}
