package dev.cutover.bench;

import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.LiveJob;
import dev.cutover.app.demo.LiveOptions;
import dev.cutover.app.demo.SeedOptions;
import dev.cutover.app.demo.SeedProgress;
import dev.cutover.app.demo.SeedResult;
import dev.cutover.app.demo.Seeder;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.ClearedPlan;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.BenchProbes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every figure and ratio of docs/BENCHMARKS.md, measured side by side in one run on the demo world
 * in a fresh embedded engine: backfill throughput against the plain INSERT … SELECT floor, the live
 * job's write latency with and without a backfill, reconciliation against one scan of both tables'
 * totals (and what the checksum-first path reads when one hour differs), the cutover's EXCHANGE
 * TABLES under concurrent readers, the console's screens, and the reconcile screen's charts at every
 * zoom on six months of hours built in memory, and the same charts in a chart library beside them (which,
 * named alone, need no server).
 */
public final class Benchmarks {

  /** Sections that read no demo world: run alone, they start no server. */
  private static final Set<String> SERVERLESS = Set.of("charts", "chartlib", "startup");

  private final Session session;
  private final BenchSql sql;
  private final Engine engine;
  private final TableSpec spec;
  private final Report report;

  private Benchmarks(Session session, TableSpec spec, Report report) {
    this.session = session;
    this.sql = new BenchSql(session.statements());
    this.engine = new Engine(session);
    this.spec = spec;
    this.report = report;
  }

  public static void main(String[] args) throws Exception {
    double scale = Double.parseDouble(System.getProperty("bench.scale", "1"));
    Path out = Path.of(System.getProperty("bench.out", "target/results.md"));
    Report report = new Report();
    if (!named().isEmpty() && SERVERLESS.containsAll(named())) {
      // The sections named need no server, so the demo world is not seeded.
      report.line("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MiB heap; no server (the sections named need none).");
      section(report, "charts", () -> new ChartBench(report).run());
      section(report, "chartlib", () -> new ChartLibraryBench(report).run());
      section(report, "startup", () -> coldStart(report));
      report.write(out);
      System.exit(0);
    }
    Path data = Files.createTempDirectory("cutover-bench-");
    if (named().contains("livecause") || UiBench.statements()) {
      // Section 2b, named, reads the live job's statements' counters from the server's query log, which the
      // embedded engine does not keep by default, and section 5 its statements when asked (-Dbench.ui.statements):
      // this engine, in a directory of the benchmark's own, keeps one. Not in a run of every section, whose other
      // figures are measured without one.
      Path configs = Files.createDirectories(data.resolve("access").resolve("config.d"));
      Files.writeString(configs.resolve("query_log.xml"), "<clickhouse><query_log><database>system</database>"
          + "<table>query_log</table><flush_interval_milliseconds>1000</flush_interval_milliseconds></query_log>"
          + "</clickhouse>\n");
    }
    try (Session session = Session.embedded(data, EngineProgress.NONE)) {
      report.line("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MiB heap; " + session.describe() + "; its data on "
          + fileSystem(data));
      DemoWorld world = DemoWorld.in(DemoWorld.DEFAULT_DATABASE);
      Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS);
      SeedOptions seedOptions = new SeedOptions(SeedOptions.DEFAULT_SEED, scale, SeedOptions.DEFAULT_HISTORY_DAYS, end);
      SeedResult seeded = new Seeder(session.statements(), world).seed(seedOptions, SeedProgress.NONE);
      report.line(String.format("Demo world: scale %.2f, %,d trades, pnl_v1 %,d rows in %,d hours, seeded in %.1f s.",
          scale, seeded.trades(), seeded.v1Rows(), seeded.v1Hours(), seeded.elapsed().toMillis() / 1000.0));
      Benchmarks b = new Benchmarks(session, DemoSpec.load(DemoWorld.DEFAULT_DATABASE), report);
      section(report, "backfill", () -> new ThroughputBench(b.engine, b.spec, b.sql, report).run());
      section(report, "breakdown", b::batchBreakdown);
      section(report, "live", () -> b.liveImpact(world));
      section(report, "livecause", () -> new LiveCauseBench(b.session, b.engine, b.spec, b.sql, report)
          .run(world, b::freshTarget));
      section(report, "reconcile", () -> new ReconcileBench(b.sql, b.session, b.engine, b.spec, report).run());
      section(report, "cutover", b::cutover);
      section(report, "bounded", () -> new BoundedBench(b.session, b.engine, b.sql, report, scale).run());
      section(report, "cluster", () -> new ClusterBench(b.engine, b.spec, b.sql, report, seedOptions).run());
      section(report, "ui", () -> new UiBench(b.engine, b.spec, b.sql, report).run(b::freshTarget));
      section(report, "charts", () -> new ChartBench(report).run());
      section(report, "chartlib", () -> new ChartLibraryBench(report).run());
      section(report, "startup", () -> coldStart(report));
    } finally {
      report.write(out);
      try (var paths = Files.walk(data)) {
        paths.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    System.exit(0);
  }

  /** The sections {@code -Dbench.sections} names; empty for all. */
  private static List<String> named() {
    String only = System.getProperty("bench.sections", "");
    return only.isBlank() ? List.of() : List.of(only.split(","));
  }

  private interface Section {
    void run() throws Exception;
  }

  /**
   * Runs one section unless {@code -Dbench.sections} names others (a comma-separated list, for work on
   * one section; the documented command runs all); a failure is reported and the next section still runs.
   * Each starts on a quiet machine ({@link QuietMachine}), whatever the section before it left running.
   */
  private static void section(Report report, String name, Section section) {
    if (!named().isEmpty() && !named().contains(name)) {
      return;
    }
    String quiet;
    try {
      quiet = QuietMachine.await().describe();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    String loadBefore = loadAverage();
    long t0 = System.nanoTime();
    try {
      section.run();
      report.line(String.format("Section %s %s, took %.0f s; load average (1 min) %s before, %s after: the two "
          + "cores are shared with whatever else runs on the machine.", name, quiet, seconds(t0), loadBefore,
          loadAverage()));
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
    return engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), settings);
  }

  /** The plan through its preflight, with the demo's dependents acknowledged as an operator would. */
  private ClearedPlan cleared(Plan plan) {
    return cleared(engine, plan);
  }

  static ClearedPlan cleared(Engine engine, Plan plan) {
    return cleared(engine, plan, dependents(engine, plan));
  }

  /** The reason the benchmarks give for acknowledging the demo's alerting view: its alerts reach no one here. */
  static final String ACKNOWLEDGED_BECAUSE = "the benchmark's demo alerts reach no one";

  /**
   * The dependents of the plan's tables that the operator acknowledges (`backfill --acknowledge … --reason
   * …`), as one preflight names them. Read before a timer starts: the operator names them on the command line.
   */
  static List<AcknowledgedDependent> dependents(Engine engine, Plan plan) {
    return engine.plans().preflight(plan, List.of()).report().dependents().stream()
        .map(d -> new AcknowledgedDependent(d.name(), ACKNOWLEDGED_BECAUSE)).toList();
  }

  /** The plan through one preflight with {@code acknowledged}, as `backfill` runs it before its first batch. */
  static ClearedPlan cleared(Engine engine, Plan plan, List<AcknowledgedDependent> acknowledged) {
    var checked = engine.plans().preflight(plan, acknowledged);
    return checked.cleared().orElseThrow(() -> new IllegalStateException("the preflight failed: "
        + checked.report().failures()));
  }

  private void freshTarget() {
    sql.execute("drop the target", "DROP TABLE IF EXISTS " + q(spec.targetTable().name()) + " SYNC");
  }

  /** The file system the engine's data lies on, which sets what each new file and each read costs. */
  private static String fileSystem(Path data) {
    try {
      String type = Files.getFileStore(data).type();
      return type.equals("tmpfs") ? "tmpfs, which the embedded server reads by plain pread" : type;
    } catch (IOException e) {
      return "a file system that could not be told (" + e.getMessage() + ")";
    }
  }

  /**
   * A batch three ways on the same hours, batch after batch over the whole window: the floor's statement,
   * the engine's first sequence statement by statement, and the engine's batch writer as it is now.
   */
  private void batchBreakdown() {
    BackfillSettings settings = unthrottled();
    Plan probe = plan(settings);
    int batches = (int) (probe.range().hours() / settings.batchHours());
    report.section("1b. One backfill batch (" + settings.batchHours() + " hours), three ways on the same hours, "
        + batches + " batches in order, one at a time", "step", "ms, first 30 batches", "ms, last 30 batches",
        "ms, mean of all", "× the floor");
    freshTarget();
    BenchProbes.createTarget(session, spec);
    sql.execute("drop floor", "DROP TABLE IF EXISTS " + q("pnl_floor"));
    sql.execute("create floor", "CREATE TABLE " + q("pnl_floor") + " AS " + q(spec.liveTable().name()));
    Map<String, List<Double>> steps = BenchProbes.batchBreakdown(session, spec, probe.range().from(),
        batches, settings, Identifier.of("pnl_floor"), probe.boundary());
    double floor = mean(steps.get(BenchProbes.FLOOR));
    steps.forEach((step, ms) -> report.cells(step, String.format("%.1f", mean(ms.subList(0, Math.min(30, ms.size())))),
        String.format("%.1f", mean(ms.subList(Math.max(0, ms.size() - 30), ms.size()))), String.format("%.1f", mean(ms)),
        String.format("%.2f×", mean(ms) / floor)));
    report.line("The rows from the round trip to the ledger time each statement of the first sequence alone; "
        + "the engine now skips the TRUNCATE (staging is emptied only on a worker's first batch and before a retry) "
        + "and runs the checksum while the REPLACE runs. The last two rows are the batch as a backfill writes hours "
        + "its target never held: its INSERT straight into a table of its own, then the checksum of those hours read "
        + "back, which a run at concurrency 1 overlaps with the next batch's INSERT.");
    sql.execute("drop floor", "DROP TABLE IF EXISTS " + q("pnl_floor"));
    freshTarget();
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  /**
   * The batch of the throughput runs: a day, as each statement of the per-day floor, and as `--batch-hours 24`
   * gives an operator who wants speed. The demo's spec keeps smaller batches for the live job's sake (section 2).
   */
  static final int SPEED_BATCH_HOURS = 24;

  /** The settings of the throughput runs: batches of a day, no throttling. */
  static BackfillSettings unthrottled() {
    return new BackfillSettings(1, SPEED_BATCH_HOURS, 0, 0, 0, 0, Duration.ZERO, 5, Duration.ofSeconds(1),
        BackfillSettings.DEFAULT_SERVER_WAIT);
  }

  private void liveImpact(DemoWorld world) throws Exception {
    BackfillSettings throttled = engine.plans().defaults(spec);
    report.heading("2. Live job: time to write a closed hour, alone and beside a backfill at the spec's default "
        + "throttle (a rest of " + throttled.restPercent() + "% of each batch's time after it), in turns of " + LIVE_TURN
        + " hours while the backfill is paused and running: a live job that never rests (its next step as soon as the "
        + "last ends), beside the default throttle and beside the same throttle without the rest, then a live job that "
        + "closes an hour every " + PACED_HOUR.toMillis() + " ms, beside the default throttle");
    List<String> ratios = new ArrayList<>();
    // -Dbench.live=paced or =resting runs one kind of live job alone.
    String kinds = System.getProperty("bench.live", "resting,paced");
    if (kinds.contains("resting")) {
      ratios.add(String.format("never resting, the default throttle: %.2f×", inTurns(world, throttled, Duration.ZERO)));
      ratios.add(String.format("never resting, without the rest: %.2f×",
          inTurns(world, throttled.withRestPercent(0), Duration.ZERO)));
    }
    if (kinds.contains("paced")) {
      ratios.add(String.format("an hour every %d ms, the default throttle: %.2f×", PACED_HOUR.toMillis(),
          inTurns(world, throttled, PACED_HOUR)));
    }
    // -Dbench.live.restPercent=N also times the job that never rests beside the default throttle resting N%.
    Integer rest = Integer.getInteger("bench.live.restPercent");
    if (rest != null && kinds.contains("resting")) {
      ratios.add(String.format("never resting, a rest of %d%%: %.2f×", rest,
          inTurns(world, throttled.withRestPercent(rest), Duration.ZERO)));
    }
    // -Dbench.live.batchHours=N also times each kind beside the default throttle with batches of N hours (24: as before).
    Integer smaller = Integer.getInteger("bench.live.batchHours");
    if (smaller != null) {
      BackfillSettings other = throttled.withBatchHours(smaller);
      if (kinds.contains("resting")) {
        ratios.add(String.format("never resting, batches of %d hours: %.2f×", smaller,
            inTurns(world, other, Duration.ZERO)));
      }
      if (kinds.contains("paced")) {
        ratios.add(String.format("an hour every %d ms, batches of %d hours: %.2f×", PACED_HOUR.toMillis(), smaller,
            inTurns(world, other, PACED_HOUR)));
      }
    }
    report.line("p99 ratios, beside over alone: " + String.join(", ", ratios)
        + ". Target: p99 ratio ≤ 1.25 beside the default throttle.");
  }

  /**
   * Closed hours timed per condition: a p99 of fewer is little more than their slowest. {@code -Dbench.live.hours=N}
   * times more, for a p99 set by more of them and a narrower interval.
   */
  private static final int LIVE_HOURS = Integer.getInteger("bench.live.hours", 100);
  /** Closed hours in one turn of a condition. */
  private static final int LIVE_TURN = 10;
  /** The paced live job's simulated hour: six steps of ten minutes, one every sixth of it. */
  private static final Duration PACED_HOUR = Duration.ofSeconds(1);

  /**
   * The live job while one backfill is paused and running in turns, so that both conditions meet the
   * same server at the same time of the run (a live job timed alone before a backfill and beside it
   * after meets another server: its own tables have grown, merges run); returns the p99 beside over
   * the p99 alone. With a {@code simulatedHour} the job steps at that pace, as a streaming job rests
   * between its writes; with zero it takes its next step as soon as the last ends.
   */
  private double inTurns(DemoWorld world, BackfillSettings settings, Duration simulatedHour) throws Exception {
    List<Double> alone = new ArrayList<>();
    List<Double> beside = new ArrayList<>();
    List<String> runs = new ArrayList<>();
    long stepNanos = simulatedHour.toNanos() / 6;
    // A backfill running half the time ends before 100 hours beside it are timed: then the next one, from scratch.
    for (int backfill = 0; backfill < 4 * Math.ceilDiv(LIVE_HOURS, 100)
        && (alone.size() < LIVE_HOURS || beside.size() < LIVE_HOURS); backfill++) {
      freshTarget();
      Plan plan = plan(settings);
      RunHandle run = engine.backfills().start(cleared(plan), BackfillEvent.Listener.NONE);
      run.pause();
      Thread.sleep(LIVE_SETTLE_MS);
      boolean running = false;
      try (LiveJob job = LiveJob.open(session.statements(), world, LiveOptions.defaults())) {
        long next = System.nanoTime();
        while (!run.completion().isDone() && (alone.size() < LIVE_HOURS || beside.size() < LIVE_HOURS)) {
          List<Double> into = running ? beside : alone;
          for (int written = 0; written < LIVE_TURN && !run.completion().isDone(); ) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
              Thread.sleep(Duration.ofNanos(wait));
            }
            long t0 = System.nanoTime();
            next = Math.max(next + stepNanos, t0);
            if (!job.step().written().isEmpty()) {
              into.add((System.nanoTime() - t0) / 1e6);
              written++;
            }
          }
          running = !running;
          if (running) {
            run.resume();
          } else {
            run.pause();
            Thread.sleep(LIVE_SETTLE_MS); // the batch under way ends: a paused run starts none
            next = System.nanoTime();
          }
        }
      }
      run.resume();
      RunRecord finished = run.await();
      runs.add(finished.state().name().toLowerCase() + ", " + plan.hours().size() + " hours");
    }
    String pace = simulatedHour.isZero() ? "never resting" : "an hour every " + simulatedHour.toMillis() + " ms";
    report.latency("live job (" + pace + ") alone, the backfill paused", alone, null);
    report.latency("live job (" + pace + ") beside the backfill resting " + settings.restPercent() + "%", beside, alone);
    report.line("The backfills, one after the other from scratch, at concurrency " + settings.concurrency()
        + ", max_threads " + settings.maxThreads() + ", priority " + settings.priority() + ", nice " + settings.nice()
        + ", rest " + settings.restPercent() + "%, batches of " + settings.batchHours() + " hours"
        + ": " + String.join("; ", runs) + ".");
    return beside.isEmpty() || alone.isEmpty() ? Double.NaN
        : Report.percentile(beside, 99) / Report.percentile(alone, 99);
  }

  /** Long enough for a batch under way when the run is paused to end (a batch takes 0.1–0.3 s here). */
  private static final long LIVE_SETTLE_MS = 1000;

  private void cutover() throws Exception {
    report.heading("4. Cutover: EXCHANGE TABLES under 8 concurrent readers");
    HourPartition hour = sql.firstHourWithRows(spec.qualified(spec.liveTable()),
        engine.backfills().runs(spec).getFirst().range().from().plusHours(24 * 30 + 12));
    sql.execute("view", "CREATE OR REPLACE VIEW " + q("bench_view") + " AS SELECT * FROM " + q(spec.liveTable().name()));
    sql.execute("view", "CREATE OR REPLACE VIEW " + q("bench_view__next") + " AS SELECT * FROM "
        + q(spec.targetTable().name()));
    String probe = "SELECT count(), toString(sum(pnl_usd)) FROM %s WHERE hour = toDateTime(?, 'UTC')";
    String v1 = sql.queryOne("v1", probe.formatted(q(spec.liveTable().name())), rs -> rs.number(1) + "/" + rs.string(2),
        hour.epochSecond());
    String v2 = sql.queryOne("v2", probe.formatted(q(spec.targetTable().name())), rs -> rs.number(1) + "/" + rs.string(2),
        hour.epochSecond());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    AtomicLong bad = new AtomicLong();
    List<Thread> readers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      readers.add(Thread.ofPlatform().start(() -> {
        while (!stop.get()) {
          try {
            String seen = sql.queryOne("read", probe.formatted(q("bench_view")), rs -> rs.number(1) + "/" + rs.string(2),
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

  /**
   * Cold start to the first window: the development launch and the runtime image, each with and
   * without an AOT cache, side by side (jlink/measure-startup.sh). It needs a display and the image,
   * which {@code mvn -Pbench verify} builds before this module.
   */
  private static void coldStart(Report report) throws Exception {
    report.heading("5b. Cold start to the first window (median of 5 interleaved runs)");
    Path root = Path.of(System.getProperty("bench.root", "..")).toAbsolutePath().normalize();
    Path script = root.resolve("jlink/measure-startup.sh");
    String display = System.getenv("DISPLAY");
    if (display == null || display.isBlank() || !Files.isDirectory(root.resolve("jlink/target/cutover"))) {
      report.line("Not measured: it needs a display (DISPLAY, for example Xvfb :99) and the runtime image "
          + "(jlink/target/cutover, built by `mvn -B -Pbench verify -DskipTests` from the top).");
      return;
    }
    Process p = new ProcessBuilder("bash", script.toString(), "5").directory(root.toFile()).redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    int code = p.waitFor();
    report.line("```\n" + out.strip() + "\n```" + (code == 0 ? "" : "\njlink/measure-startup.sh exited " + code + "."));
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
