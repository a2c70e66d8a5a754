package dev.cutover.bench;

import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.SeedOptions;
import dev.cutover.app.demo.SeedProgress;
import dev.cutover.app.demo.SeedResult;
import dev.cutover.app.demo.Seeder;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Section 9: what a bounded bug costs to repair. A second demo world whose fee bug shipped ten days
 * before its live edge; the time of a backfill of those ten days alone, against the bounded repair of
 * the whole six months (the ten days recomputed, the rest carried from v1) through to its
 * reconciliation; then v2 against a full recompute of all six months, hour by hour.
 */
final class BoundedBench {

  private static final String DATABASE = "trading_bounded";
  private static final int BUG_DAYS = 10;

  private final Session session;
  private final Engine engine;
  private final BenchSql sql;
  private final Report report;
  private final double scale;

  BoundedBench(Session session, Engine engine, BenchSql sql, Report report, double scale) {
    this.session = session;
    this.engine = engine;
    this.sql = sql;
    this.report = report;
    this.scale = scale;
  }

  void run() throws Exception {
    report.section("9. A bounded repair of " + BUG_DAYS + " affected days in six months, end to end, against a "
        + "backfill of those days alone");
    DemoWorld world = DemoWorld.in(DATABASE);
    Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS);
    SeedResult seeded = new Seeder(session.statements(), world).seed(new SeedOptions(SeedOptions.DEFAULT_SEED, scale,
        SeedOptions.DEFAULT_HISTORY_DAYS, end, BUG_DAYS), SeedProgress.NONE);
    TableSpec spec = DemoSpec.load(DATABASE);
    try {
      // Without the spec's rest between batches: it would lengthen the ten days' backfill by more than the link,
      // and flatter the ratio; in batches of a day, as section 1, which the spec's smaller ones would flatter too.
      BackfillSettings settings = engine.plans().defaults(spec).withRestPercent(0)
          .withBatchHours(Benchmarks.SPEED_BATCH_HOURS);
      Plan whole = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), settings);
      HourPartition boundary = whole.boundary();
      HourPartition bugFrom = HourPartition.of(seeded.state().bugFrom());
      HourRange affected = new HourRange(bugFrom, boundary);

      Plan days = engine.plans().plan(spec, Optional.of(bugFrom), Optional.of(boundary), Optional.of(boundary), settings);
      // Both are timed as `backfill --acknowledge …` runs: one preflight, then the run (see Benchmarks#dependents).
      List<dev.cutover.engine.api.AcknowledgedDependent> acknowledged = Benchmarks.dependents(engine, days);
      long t0 = System.nanoTime();
      RunRecord alone = engine.backfills().start(Benchmarks.cleared(engine, days, acknowledged),
          BackfillEvent.Listener.NONE).await();
      double daysSeconds = seconds(t0);
      check(alone);
      report.row("backfill of the " + BUG_DAYS + " affected days alone (" + days.hours().size() + " hours recomputed)",
          daysSeconds, days.hours().size(), 0, 1);
      engine.repairs().abandon(spec, spec.targetTable().name(), "benchmark: the bounded repair is measured next");
      sql.execute("drop v2", "DROP TABLE IF EXISTS " + spec.qualified(spec.targetTable()) + " SYNC");

      Plan bounded = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary),
          Optional.of(affected), settings);
      acknowledged = Benchmarks.dependents(engine, bounded);
      t0 = System.nanoTime();
      RunRecord run = engine.backfills().start(Benchmarks.cleared(engine, bounded, acknowledged),
          BackfillEvent.Listener.NONE).await();
      double backfilled = seconds(t0);
      check(run);
      Reconciliation verdict = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
      double total = seconds(t0);
      report.row(String.format("bounded repair: backfill of %d hours (%d recomputed, %d carried from v1), %.2f s",
          bounded.hours().size(), bounded.computed().size(), bounded.carried().size(), backfilled), backfilled,
          bounded.hours().size(), 0, backfilled / daysSeconds);
      report.row("bounded repair end to end: backfill and reconciliation (" + verdict.verdict().name().toLowerCase()
          + ")", total, bounded.hours().size(), 0, total / daysSeconds);
      report.line(String.format("The bounded repair, end to end to its verdict, is %.2f× the backfill of the affected "
          + "days alone (target ≤ 1.5×); the verdict is %s.", total / daysSeconds, verdict.verdict().name().toLowerCase()));
      compareWithFullRecompute(spec, bounded.range(), seeded);
    } finally {
      sql.execute("drop the bounded world", "DROP DATABASE IF EXISTS " + DATABASE + " SYNC");
    }
  }

  /** v2 against the corrected transform of every hour, computed from scratch into a table of its own. */
  private void compareWithFullRecompute(TableSpec spec, HourRange range, SeedResult seeded) {
    String full = spec.qualified(dev.cutover.engine.api.Identifier.of("pnl_full"));
    sql.execute("drop full", "DROP TABLE IF EXISTS " + full + " SYNC");
    sql.execute("create full", "CREATE TABLE " + full + " AS " + spec.qualified(spec.liveTable()));
    Benchmarks.computeByDay(sql, spec, range, full, "");
    String sums = "SELECT toStartOfHour(hour) AS h, count() AS n, sum(cityHash64(hour, book, instrument, currency, "
        + "quantity, notional_usd, fees_usd, pnl_usd, trade_count)) AS c FROM %s WHERE hour >= toDateTime(?, 'UTC') "
        + "AND hour < toDateTime(?, 'UTC') GROUP BY h";
    List<Object> values = List.of(range.from().epochSecond(), range.to().epochSecond(), range.from().epochSecond(),
        range.to().epochSecond());
    String differing = "SELECT %s FROM (" + sums.formatted(spec.qualified(spec.targetTable())) + ") AS a FULL OUTER JOIN ("
        + sums.formatted(full) + ") AS b ON a.h = b.h WHERE a.n != b.n OR a.c != b.c";
    long apart = sql.queryLong("count differing hours", differing.formatted("count()"), values.toArray());
    long incidentApart = seeded.state().incidentHour().map(i -> sql.queryLong("is the incident hour among them",
        differing.formatted("countIf(toUnixTimestamp(if(a.n = 0, b.h, a.h)) = " + i.getEpochSecond() + ")"),
        values.toArray())).orElse(0L);
    long hours = sql.queryLong("hours", "SELECT uniqExact(toStartOfHour(hour)) FROM " + full);
    report.line(String.format("v2 against a full recompute of all %,d hours (%,d with rows), hour by hour (rows and "
        + "checksum): %d hour(s) differ%s.", range.hours(), hours, apart, apart == 0 ? ""
            : apart == incidentApart ? ", the demo's incident hour (a retried append in v1, before the bug), which the "
                + "bounded repair carries as v1 holds it and a full recompute corrects"
            : ", " + incidentApart + " of them the incident hour"));
    sql.execute("drop full", "DROP TABLE IF EXISTS " + full + " SYNC");
  }

  private static void check(RunRecord run) {
    if (run.state() != RunState.SUCCEEDED) {
      throw new IllegalStateException("the backfill " + run.state().name().toLowerCase() + ": " + run.message());
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
