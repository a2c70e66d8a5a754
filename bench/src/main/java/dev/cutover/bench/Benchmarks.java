package dev.cutover.bench;

import dev.cutover.app.demo.DemoSpec;
import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.LiveJob;
import dev.cutover.app.demo.LiveOptions;
import dev.cutover.app.demo.LiveStep;
import dev.cutover.app.demo.SeedOptions;
import dev.cutover.app.demo.SeedProgress;
import dev.cutover.app.demo.SeedResult;
import dev.cutover.app.demo.Seeder;
import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.BackfillRun;
import dev.cutover.engine.backfill.Transform;
import dev.cutover.engine.connect.Session;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.EngineProgress;
import dev.cutover.engine.reconcile.Differ;
import dev.cutover.engine.reconcile.Reconciler;
import dev.cutover.engine.sql.Sql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every figure and ratio of docs/BENCHMARKS.md, measured side by side in one run on the demo world
 * in a fresh embedded engine: backfill throughput against the plain INSERT … SELECT floor, the live
 * job's write latency with and without a backfill, reconciliation against one scan of both tables'
 * totals (and what the checksum-first path reads when one hour differs), and the cutover's EXCHANGE
 * TABLES under concurrent readers.
 */
public final class Benchmarks {

  private final Session session;
  private final Sql sql;
  private final Engine engine;
  private final TableSpec spec;
  private final Report report;

  private Benchmarks(Session session, TableSpec spec, Report report) {
    this.session = session;
    this.sql = new Sql(session.database().dataSource());
    this.engine = new Engine(session.database());
    this.spec = spec;
    this.report = report;
  }

  public static void main(String[] args) throws Exception {
    double scale = Double.parseDouble(System.getProperty("bench.scale", "1"));
    Path out = Path.of(System.getProperty("bench.out", "target/results.md"));
    Path data = Files.createTempDirectory("cutover-bench-");
    Report report = new Report();
    try (Session session = Session.embedded(data, EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
      report.line("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MiB heap; " + session.describe());
      DemoWorld world = DemoWorld.in(DemoWorld.DEFAULT_DATABASE);
      Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS);
      SeedResult seeded = new Seeder(session.database(), world).seed(new SeedOptions(SeedOptions.DEFAULT_SEED, scale,
          SeedOptions.DEFAULT_HISTORY_DAYS, end), SeedProgress.NONE);
      report.line(String.format("Demo world: scale %.2f, %,d trades, pnl_v1 %,d rows in %,d hours, seeded in %.1f s.",
          scale, seeded.trades(), seeded.v1Rows(), seeded.v1Hours(), seeded.elapsed().toMillis() / 1000.0));
      Benchmarks b = new Benchmarks(session, DemoSpec.load(DemoWorld.DEFAULT_DATABASE), report);
      b.section(b::backfillThroughput);
      b.section(() -> b.liveImpact(world));
      b.section(b::reconciliation);
      b.section(b::cutover);
    } finally {
      report.write(out);
      try (var paths = Files.walk(data)) {
        paths.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    System.exit(0);
  }

  private interface Section {
    void run() throws Exception;
  }

  /** Runs one section; a failure is reported in the results and the next section still runs. */
  private void section(Section section) {
    try {
      section.run();
    } catch (Throwable e) {
      report.line("This section failed: " + e);
      e.printStackTrace();
    }
  }

  private String q(String table) {
    return spec.qualified(Identifier.of(table));
  }

  /** A plan of the whole reprocessing window, boundary at the default (live edge minus the margin). */
  private Plan plan(BackfillSettings settings) {
    return engine.plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), settings);
  }

  private void freshTarget() {
    sql.execute("drop the target", "DROP TABLE IF EXISTS " + q(spec.targetTable().name()));
  }

  private void backfillThroughput() throws Exception {
    report.section("1. Backfill throughput (six months, batches of 24 hours, no throttling)");
    BackfillSettings unthrottled = new BackfillSettings(1, 24, 0, 0, 0, 0, Duration.ZERO, 5, Duration.ofSeconds(1));
    Plan probe = plan(unthrottled);
    HourRange range = probe.range();

    // The floor: the same computation straight into an empty, identically partitioned table.
    sql.execute("drop floor", "DROP TABLE IF EXISTS " + q("pnl_floor"));
    sql.execute("create floor", "CREATE TABLE " + q("pnl_floor") + " AS " + q(spec.liveTable().name()));
    Transform whole = Transform.bind(spec, range.from(), range.to());
    long t0 = System.nanoTime();
    sql.execute("floor, one statement", "INSERT INTO " + q("pnl_floor") + " SELECT * FROM (" + whole.sql()
        + ") SETTINGS max_partitions_per_insert_block = 100000", whole.values().toArray());
    double oneStatement = seconds(t0);
    long floorRows = sql.queryLong("count", "SELECT count() FROM " + q("pnl_floor"));
    sql.execute("truncate floor", "TRUNCATE TABLE " + q("pnl_floor"));
    t0 = System.nanoTime();
    for (HourPartition day = range.from(); day.isBefore(range.to()); day = day.plusHours(24)) {
      HourPartition next = day.plusHours(24).isBefore(range.to()) ? day.plusHours(24) : range.to();
      Transform t = Transform.bind(spec, day, next);
      sql.execute("floor, one day", "INSERT INTO " + q("pnl_floor") + " SELECT * FROM (" + t.sql() + ")",
          t.values().toArray());
    }
    double daySized = seconds(t0);
    double floor = Math.min(oneStatement, daySized);
    report.row("floor: one INSERT … SELECT of the whole range", oneStatement, range.hours(), floorRows, 0);
    report.row("floor: one INSERT … SELECT per day", daySized, range.hours(), floorRows, 0);

    for (int concurrency : new int[] {1, 2, 4}) {
      freshTarget();
      Plan plan = plan(unthrottled.withConcurrency(concurrency));
      t0 = System.nanoTime();
      RunRecord run = engine.backfill(plan, BackfillEvent.Listener.NONE).await();
      double took = seconds(t0);
      long rows = engine.ledger(run.id()).values().stream().mapToLong(LedgerEntry::rows).sum();
      report.row("Cutover backfill, concurrency " + concurrency + " (" + run.state().name().toLowerCase() + ")", took,
          plan.hours().size(), rows, took / floor);
    }
    report.line(String.format("Ratio = time / the faster floor (%.2f s). Target: ≤ 1.3×.", floor));
    sql.execute("drop floor", "DROP TABLE IF EXISTS " + q("pnl_floor"));
  }

  private void liveImpact(DemoWorld world) throws Exception {
    report.section("2. Live job: time to write a closed hour, without and with a backfill (spec's default throttle)");
    int steps = 6 * 36; // 36 simulated hours, six ten-minute steps each
    List<Double> alone = liveSteps(world, steps, new AtomicBoolean(true));
    freshTarget();
    BackfillSettings throttled = engine.defaults(spec);
    Plan plan = plan(throttled);
    BackfillRun run = engine.backfill(plan, BackfillEvent.Listener.NONE);
    AtomicBoolean running = new AtomicBoolean(true);
    run.completion().thenRun(() -> running.set(false));
    List<Double> beside = liveSteps(world, steps, running);
    boolean overlapped = !run.completion().isDone();
    RunRecord finished = run.await();
    report.latency("live job alone", alone, null);
    report.latency("live job beside the backfill" + (overlapped ? "" : " (the backfill ended first)"), beside, alone);
    report.line("Backfill beside it: " + finished.state().name().toLowerCase() + ", " + plan.hours().size()
        + " hours at concurrency " + throttled.concurrency() + ", max_threads " + throttled.maxThreads() + ", priority "
        + throttled.priority() + ". Target: p99 ratio ≤ 1.25.");
  }

  /** Steps the live job by hand; returns the duration of each step that wrote a closed hour, in milliseconds. */
  private List<Double> liveSteps(DemoWorld world, int steps, AtomicBoolean whileTrue) {
    List<Double> millis = new ArrayList<>();
    try (LiveJob job = LiveJob.open(session.database(), world, LiveOptions.defaults())) {
      for (int i = 0; i < steps && whileTrue.get(); i++) {
        long t0 = System.nanoTime();
        LiveStep step = job.step();
        if (!step.written().isEmpty()) {
          millis.add((System.nanoTime() - t0) / 1e6);
        }
      }
    }
    return millis;
  }

  private void reconciliation() {
    report.section("3. Reconciliation of the backfilled history (v1 against v2)");
    HourRange history = engine.runs(spec).getFirst().range();
    long t0 = System.nanoTime();
    var r = engine.reconcile(spec, Reconciler.Window.HISTORY, 10_000);
    double took = seconds(t0);
    String totals = "SELECT count() FROM (SELECT toStartOfHour(hour) AS h, count(), sum(quantity), sum(notional_usd), "
        + "sum(fees_usd), sum(pnl_usd), sum(trade_count) FROM %s WHERE hour >= toDateTime(?, 'UTC') AND hour < "
        + "toDateTime(?, 'UTC') GROUP BY h)";
    t0 = System.nanoTime();
    for (String table : List.of(spec.liveTable().name(), spec.targetTable().name())) {
      sql.queryLong("scan totals", totals.formatted(q(table)), history.from().epochSecond(), history.to().epochSecond());
    }
    double scan = seconds(t0);
    report.row("one scan of both tables' hourly totals", scan, history.hours(), 0, 1);
    report.row("Cutover reconciliation (" + r.verdict().name().toLowerCase() + ", " + r.expectedKeys() + " keys explained, "
        + r.unexpectedKeys() + " unexpected)", took, history.hours(), 0, took / scan);
    report.line("Target: ≤ 3×.");

    // One differing hour: a copy of v2 with one hour changed; the key-level pass reads only that hour.
    sql.execute("copy", "DROP TABLE IF EXISTS " + q("pnl_copy"));
    sql.execute("copy", "CREATE TABLE " + q("pnl_copy") + " AS " + q(spec.targetTable().name()));
    sql.execute("copy", "INSERT INTO " + q("pnl_copy") + " SELECT * FROM " + q(spec.targetTable().name())
        + " SETTINGS max_partitions_per_insert_block = 100000");
    HourPartition changed = history.from().plusHours(history.hours() / 2);
    sql.execute("change one hour", "ALTER TABLE " + q("pnl_copy") + " UPDATE quantity = quantity + 1 WHERE hour = "
        + "toDateTime(?, 'UTC') SETTINGS mutations_sync = 1", changed.epochSecond());
    Differ differ = new Differ(sql, spec);
    long total = sql.queryLong("count", "SELECT count() FROM " + q("pnl_copy"));
    var hours = differ.hours(spec.targetTable(), Identifier.of("pnl_copy"), history);
    List<HourPartition> differing = hours.stream().filter(h -> !h.identical()).map(h -> h.hour()).toList();
    String keyQueryRows = readRows(() -> differ.keys(spec.targetTable(), Identifier.of("pnl_copy"), differing, 100_000));
    report.line(String.format("One changed hour (%s) in a copy of v2 with %,d rows: the hourly pass finds %d differing "
        + "hour(s); the key-level pass then reads %s.", changed, total, differing.size(), keyQueryRows));
    sql.execute("drop copy", "DROP TABLE IF EXISTS " + q("pnl_copy"));
  }

  /** Rows the server read for the statements of {@code work}, from system.query_log. */
  private String readRows(Runnable work) {
    Instant started = Instant.now().minusSeconds(1);
    work.run();
    try {
      sql.execute("flush logs", "SYSTEM FLUSH LOGS");
      long rows = sql.queryLong("read the query log", "SELECT sum(read_rows) FROM system.query_log WHERE type = "
          + "'QueryFinish' AND event_time >= toDateTime(?, 'UTC') AND query LIKE '%pnl_copy%' AND query NOT LIKE "
          + "'%query_log%'", started.getEpochSecond());
      return String.format("%,d rows (from system.query_log)", rows);
    } catch (RuntimeException e) {
      return "an unknown number of rows (system.query_log is not available here: " + e.getMessage() + ")";
    }
  }

  private void cutover() throws Exception {
    report.section("4. Cutover: EXCHANGE TABLES under 8 concurrent readers");
    HourPartition hour = engine.runs(spec).getFirst().range().from().plusHours(24 * 30 + 12);
    sql.execute("view", "CREATE OR REPLACE VIEW " + q("bench_view") + " AS SELECT * FROM " + q(spec.liveTable().name()));
    sql.execute("view", "CREATE OR REPLACE VIEW " + q("bench_view__next") + " AS SELECT * FROM "
        + q(spec.targetTable().name()));
    String probe = "SELECT count(), toString(sum(pnl_usd)) FROM %s WHERE hour = toDateTime(?, 'UTC')";
    String v1 = sql.queryOne("v1", probe.formatted(q(spec.liveTable().name())), rs -> rs.getLong(1) + "/" + rs.getString(2),
        hour.epochSecond());
    String v2 = sql.queryOne("v2", probe.formatted(q(spec.targetTable().name())), rs -> rs.getLong(1) + "/" + rs.getString(2),
        hour.epochSecond());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    AtomicLong bad = new AtomicLong();
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      readers.add(Thread.ofPlatform().start(() -> {
        while (!stop.get()) {
          try {
            String seen = sql.queryOne("read", probe.formatted(q("bench_view")), rs -> rs.getLong(1) + "/" + rs.getString(2),
                hour.epochSecond());
            if (!seen.equals(v1) && !seen.equals(v2)) {
              bad.incrementAndGet();
            }
          } catch (RuntimeException e) {
            bad.incrementAndGet();
          }
          reads.incrementAndGet();
        }
      }));
    }
    List<Double> latencies = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      long t0 = System.nanoTime();
      sql.execute("exchange", "EXCHANGE TABLES " + q("bench_view") + " AND " + q("bench_view__next"));
      latencies.add((System.nanoTime() - t0) / 1e6);
      Thread.sleep(20);
    }
    stop.set(true);
    for (Thread t : readers) {
      t.join();
    }
    report.latency("EXCHANGE TABLES (100 swaps)", latencies, null);
    report.line(String.format("%,d reads by 8 readers during the swaps; mixed or failed: %d (must be 0).", reads.get(), bad.get()));
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
