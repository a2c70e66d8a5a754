package dev.cutover.bench;

import dev.cutover.engine.ClearedPlan;
import dev.cutover.engine.Engine;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.Statement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.BenchProbes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Section 1: Cutover's backfill of the whole reprocessing window against its floor, the corrected transform
 * {@code INSERT … SELECT} straight into an empty, identically partitioned table, one statement per day, as many days
 * at once as the backfill has batches at once. Pairs of floor and backfill at concurrency 1, 2 and 4, unthrottled in
 * batches of a day, then the backfill at the spec's own defaults against the concurrency-1 floor; in each pair the
 * side that runs first alternates ({@link PairSeries}), and each concurrency's median ratio stands, with its min and
 * max.
 */
final class ThroughputBench {

  /**
   * The max_threads of every statement of the section but the spec's defaults, the backfill's and the floor's alike:
   * by default Cutover's own for a spec that leaves it out, half the server's threads over the batches at once (1 on
   * two cores at concurrency 1 and 2).
   */
  static final int THREADS = Integer.getInteger("bench.maxThreads", 1);

  /** The concurrencies of the unthrottled pairs, each a series of its own. */
  private static final List<Integer> CONCURRENCIES = List.of(1, 2, 4);

  private static final String FLOOR_TABLE = "pnl_floor";

  private final Engine engine;
  private final TableSpec spec;
  private final BenchSql sql;
  private final Report report;

  ThroughputBench(Engine engine, TableSpec spec, BenchSql sql, Report report) {
    this.engine = engine;
    this.spec = spec;
    this.sql = sql;
    this.report = report;
  }

  void run() throws Exception {
    BackfillSettings unthrottled = Benchmarks.unthrottled().withMaxThreads(THREADS);
    BackfillSettings defaults = engine.plans().defaults(spec);
    int rounds = Integer.getInteger("bench.rounds", PairSeries.HEADLINE_PAIRS);
    report.section("1. Backfill throughput (six months, batches of " + unthrottled.batchHours() + " hours, no "
        + "throttling, max_threads " + THREADS + " for every statement, the floor's too; then the spec's defaults)");
    HourRange range = plan(unthrottled).range();
    long floorRows = oneStatement(range);

    // Rounds of pairs, each round one pair per concurrency, so that every concurrency meets the machine of every
    // part of the run; within a series the side that runs first alternates from pair to pair. Each side starts just
    // after the other's last table (4,388 parts) is dropped: on a file system without a journal, ext4 makes every new
    // file skip the inodes freed in the last minutes, so a run that follows a drop creates its files slower than one
    // that does not (runs of 2026-12-01, in docs/BENCHMARKS.md's history); every side pays that once.
    Map<Integer, PairSeries> unthrottledPairs = new LinkedHashMap<>();
    for (int round = 1; round <= rounds; round++) {
      for (int concurrency : CONCURRENCIES) {
        PairSeries series = unthrottledPairs.computeIfAbsent(concurrency, c -> new PairSeries("floor", "backfill"));
        series.print(series.run(() -> floor(range, concurrency, floorRows, "concurrency " + concurrency),
            () -> backfill(unthrottled.withConcurrency(concurrency), "concurrency " + concurrency)), report);
      }
    }
    // What the operator gets without a flag: the spec's throttle and batches, against the floor of one day at a time.
    PairSeries defaultPairs = new PairSeries("floor", "backfill");
    String described = describe(defaults);
    for (int round = 1; round <= rounds; round++) {
      defaultPairs.print(defaultPairs.run(() -> floor(range, defaults.concurrency(), floorRows, "the spec's defaults"),
          () -> backfill(defaults, "the spec's defaults: batches of " + defaults.batchHours() + " hours, rest "
              + defaults.restPercent() + "%")), report);
    }
    dropBoth();

    report.line("Ratio = the backfill's time, its one preflight included, / the per-day floor of its pair, which runs "
        + "as many days at once as the backfill runs batches: N workers take the days from one queue, each on a "
        + "connection of its own (concurrency 1 against one day at a time, 2 against two, 4 against four). In each "
        + "pair the side that runs first alternates, pair 1 the floor, pair 2 the backfill, and so on; each side "
        + "starts just after the other's last table was dropped. No warm-up pair: the one-statement floor is the "
        + "section's first statement after seeding, on a file system no drop had touched yet, is in no ratio, and its "
        + "table is dropped before the first pair, so every timed side starts after a drop. The spec's defaults: "
        + described + ", against the floor at concurrency " + defaults.concurrency() + " and max_threads " + THREADS
        + ". The median of each series' pairs stands, with their min and max:");
    report.table(PairSeries.COLUMNS.toArray(String[]::new));
    unthrottledPairs.forEach((concurrency, series) -> report.cells(series.cells("backfill / floor, concurrency "
        + concurrency + ", no throttling").toArray(String[]::new)));
    report.cells(defaultPairs.cells("backfill / floor, the spec's defaults").toArray(String[]::new));
    report.line("Target: ≤ 1.2× at concurrency 1 and 2, without throttling; the spec's defaults rest and take smaller "
        + "batches for the live job's sake (section 2), and have no target here.");
  }

  /** A plan of the whole reprocessing window, boundary at the default (live edge minus the margin). */
  private Plan plan(BackfillSettings settings) {
    return engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), settings);
  }

  /**
   * The whole range as one statement, for reference: the section's first statement, its table left in place for the
   * first pair's first side to drop. Answers the rows it wrote, which every per-day floor writes too.
   */
  private long oneStatement(HourRange range) {
    dropBoth();
    sql.execute("create floor", "CREATE TABLE " + floorTable() + " AS " + spec.qualified(spec.liveTable()));
    Statement whole = BenchProbes.transform(spec, range.from(), range.to());
    long t0 = System.nanoTime();
    sql.execute("floor, one statement", whole.prefixed("INSERT INTO " + floorTable() + " SELECT * FROM (")
        .suffixed(") SETTINGS max_partitions_per_insert_block = 100000, max_threads = " + THREADS));
    double took = Benchmarks.seconds(t0);
    long rows = sql.queryLong("count", "SELECT count() FROM " + floorTable());
    report.row("floor: one INSERT … SELECT of the whole range (the first statement after seeding)", took, range.hours(),
        rows, 0);
    return rows;
  }

  /**
   * The per-day floor on {@code connections} connections at once into a fresh, empty copy of v1's structure, created
   * just after the last side's tables are dropped, and left in place: the next side drops it. {@code forWhom} names
   * the backfill it is the floor of, in its row.
   */
  private PairSeries.Timed floor(HourRange range, int connections, long rows, String forWhom)
      throws InterruptedException {
    dropBoth();
    sql.execute("create floor", "CREATE TABLE " + floorTable() + " AS " + spec.qualified(spec.liveTable()));
    long t0 = System.nanoTime();
    DayInserts.run(sql, spec, range, floorTable(), " SETTINGS max_threads = " + THREADS, connections);
    double took = Benchmarks.seconds(t0);
    String what = "floor for " + forWhom + ": one INSERT … SELECT per day" + (connections == 1 ? ""
        : ", " + connections + " at once on " + connections + " connections");
    return new PairSeries.Timed(what, took, range.hours(), rows);
  }

  /**
   * The backfill into a fresh target, just after the last side's tables are dropped, timed as `backfill --acknowledge
   * …` runs: one preflight, then the run; the dependents to acknowledge are read before, as the operator names them on
   * the command line. Its target is left in place: the next side drops it.
   */
  private PairSeries.Timed backfill(BackfillSettings settings, String which) throws InterruptedException {
    dropBoth();
    Plan plan = plan(settings);
    List<AcknowledgedDependent> acknowledged = Benchmarks.dependents(engine, plan);
    long t0 = System.nanoTime();
    ClearedPlan checked = Benchmarks.cleared(engine, plan, acknowledged);
    double preflight = Benchmarks.seconds(t0);
    RunRecord run = engine.backfills().start(checked, BackfillEvent.Listener.NONE).await();
    double took = Benchmarks.seconds(t0);
    long rows = engine.backfills().ledger(run.id()).values().stream().mapToLong(LedgerEntry::rows).sum();
    return new PairSeries.Timed(String.format("Cutover backfill, %s (%s; its preflight %.2f s)", which,
        run.state().name().toLowerCase(), preflight), took, plan.hours().size(), rows);
  }

  /** The settings an operator gets from the spec, in words. */
  private static String describe(BackfillSettings s) {
    return "concurrency " + s.concurrency() + ", batches of " + s.batchHours() + " hours, a rest of " + s.restPercent()
        + "% of each batch's time after it, max_threads " + s.maxThreads() + ", priority " + s.priority() + ", nice "
        + s.nice() + (s.rowsPerSecond() > 0 ? ", at most " + s.rowsPerSecond() + " rows/s" : "")
        + (s.maxLiveLag().isZero() ? "" : ", back-pressure at " + s.maxLiveLag().toMinutes() + " min of live lag");
  }

  /** Drops the floor's table and the target, whichever the last side left, with SYNC: no removal runs on after. */
  private void dropBoth() {
    sql.execute("drop floor", "DROP TABLE IF EXISTS " + floorTable() + " SYNC");
    sql.execute("drop the target", "DROP TABLE IF EXISTS " + spec.qualified(spec.targetTable()) + " SYNC");
  }

  private String floorTable() {
    return spec.qualified(Identifier.of(FLOOR_TABLE));
  }
}
