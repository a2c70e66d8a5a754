package dev.cutover.bench;

import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.LiveJob;
import dev.cutover.app.demo.LiveOptions;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.Statement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.BenchProbes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Section 2b: what in a backfill slows the live job. The live job that never rests writes closed hours
 * alone and beside one load at a time, in turns of ten hours, five rounds: the backfill, then the
 * backfill's corrected transform of one day after another, looped by hand, into three kinds of table
 * (a Null table that keeps nothing, a table with one partition, a copy of v1 with its hourly partitions,
 * which is what a batch writes), a query that only computes, and a busy loop outside the server. Every
 * load in the server runs at {@code max_threads} 1 and nice 19, so that its share of the CPU is the
 * smallest the server gives; what still slows the live job is what the load does beside computing.
 * Then, from the server's query log (which {@link Benchmarks} has the engine keep when this section
 * is named), the counters of time that grew most in the live job's statements under each load.
 */
final class LiveCauseBench {

  private static final int ROUNDS = 5;
  private static final int TURN = 10;
  private static final long SETTLE_MS = 1000;
  private static final String YIELDING = " SETTINGS max_threads = 1, os_thread_priority = 19";

  private final Session session;
  private final Engine engine;
  private final TableSpec spec;
  private final BenchSql sql;
  private final Report report;

  LiveCauseBench(Session session, Engine engine, TableSpec spec, BenchSql sql, Report report) {
    this.session = session;
    this.engine = engine;
    this.spec = spec;
    this.sql = sql;
    this.report = report;
  }

  /** {@code freshTarget} drops v2, so that the backfill starts from nothing. */
  void run(DemoWorld world, Runnable freshTarget) throws Exception {
    report.heading("2b. What in a backfill slows the live job: the live job that never rests, alone and beside "
        + "one load at a time (those in the server at max_threads 1 and nice 19), in turns of " + TURN + " hours, " + ROUNDS
        + " rounds");
    String live = spec.liveTable().name();
    String hourly = q("bench_hourly");
    String single = q("bench_single");
    String nowhere = q("bench_null");
    sql.execute("scratch", "DROP TABLE IF EXISTS " + hourly + " SYNC");
    sql.execute("scratch", "CREATE TABLE " + hourly + " AS " + q(live));
    sql.execute("scratch", "DROP TABLE IF EXISTS " + single + " SYNC");
    sql.execute("scratch", "CREATE TABLE " + single + " AS " + q(live) + " ENGINE = MergeTree PARTITION BY toYYYYMM("
        + spec.timeColumn().quoted() + ") ORDER BY tuple()");
    sql.execute("scratch", "DROP TABLE IF EXISTS " + nowhere + " SYNC");
    sql.execute("scratch", "CREATE TABLE " + nowhere + " AS " + q(live) + " ENGINE = Null");

    Map<String, String> loads = new LinkedHashMap<>();
    loads.put("alone", null);
    loads.put("the backfill (the spec's throttle, nice 19)", "backfill");
    loads.put("the transform, computed only (SELECT count())", "count");
    loads.put("the transform into a Null table", nowhere);
    loads.put("the transform into a table of one partition", single);
    loads.put("the transform into hourly partitions, as a batch writes", hourly);
    loads.put("a busy loop outside the server (one core, nice 0)", "busy");
    Map<String, List<Double>> timed = new LinkedHashMap<>();
    loads.keySet().forEach(k -> timed.put(k, new ArrayList<>()));
    Map<String, List<long[]>> turns = new LinkedHashMap<>();
    loads.keySet().forEach(k -> turns.put(k, new ArrayList<>()));

    freshTarget.run();
    BackfillSettings settings = engine.plans().defaults(spec).withNice(19);
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), settings);
    HourRange range = plan.range();
    RunHandle backfill = engine.backfills().start(Benchmarks.cleared(engine, plan), BackfillEvent.Listener.NONE);
    backfill.pause();
    Thread.sleep(SETTLE_MS);
    try (LiveJob job = LiveJob.open(session.statements(), world, LiveOptions.defaults())) {
      for (int round = 0; round < ROUNDS && !backfill.completion().isDone(); round++) {
        for (var load : loads.entrySet()) {
          AtomicBoolean stop = new AtomicBoolean();
          Thread loop = null;
          Process busy = null;
          if ("backfill".equals(load.getValue())) {
            backfill.resume();
          } else if ("busy".equals(load.getValue())) {
            busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
          } else if (load.getValue() != null) {
            loop = Thread.ofPlatform().name("bench-load").start(() -> transformLoop(range, load.getValue(), stop));
          }
          List<Double> into = timed.get(load.getKey());
          long turnStart = System.currentTimeMillis();
          for (int written = 0; written < TURN; ) {
            long t0 = System.nanoTime();
            if (!job.step().written().isEmpty()) {
              into.add((System.nanoTime() - t0) / 1e6);
              written++;
            }
          }
          turns.get(load.getKey()).add(new long[] {turnStart, System.currentTimeMillis()});
          stop.set(true);
          if (busy != null) {
            busy.destroyForcibly().waitFor();
          }
          if (loop != null) {
            loop.join();
          }
          if ("backfill".equals(load.getValue())) {
            backfill.pause();
          }
          Thread.sleep(SETTLE_MS); // the statement under way ends
        }
      }
    }
    backfill.resume();
    backfill.await();
    timed.forEach((load, millis) -> report.latency(load, millis, timed.get("alone")));
    counters(turns);
    for (String table : List.of(hourly, single, nowhere)) {
      sql.execute("scratch", "DROP TABLE IF EXISTS " + table + " SYNC");
    }
  }

  /**
   * Where the live job's statements spent their time under each load, from the server's own counters
   * (the query log's ProfileEvents of the live job's statements in the turns of that load, per statement):
   * the counters of time that grew most against the live job alone.
   */
  private void counters(Map<String, List<long[]>> turns) {
    if (sql.queryLong("look for the query log", "SELECT count() FROM system.tables WHERE database = 'system' "
        + "AND name = 'query_log'") == 0) {
      report.line("The live job's counters need the server's query log, which the engine keeps only when this "
          + "section is named (-Dbench.sections=livecause).");
      return;
    }
    sql.execute("flush the query log", "SYSTEM FLUSH LOGS");
    String db = spec.database().name();
    String liveTables = Stream.of("trades", "marks", "fx_rates", "pnl_v1", "pnl_v1_live_staging", "demo_writes",
        "demo_state").map(t -> "'" + db + "." + t + "'").collect(Collectors.joining(", "));
    Map<String, Map<String, Double>> perLoad = new LinkedHashMap<>();
    for (var load : turns.entrySet()) {
      String windows = load.getValue().stream().map(w -> "event_time_microseconds BETWEEN fromUnixTimestamp64Milli("
          + w[0] + ") AND fromUnixTimestamp64Milli(" + w[1] + ")").collect(Collectors.joining(" OR "));
      // One row per counter of time, per statement: the live job's statements' ProfileEvents summed, over their count.
      Map<String, Double> counters = sql.query("read the live job's counters", "SELECT k, toString(v / c) FROM (SELECT count() AS c, "
          + "sumMap(mapKeys(ProfileEvents), mapValues(ProfileEvents)) AS s FROM system.query_log WHERE type = "
          + "'QueryFinish' AND (" + windows + ") AND arrayExists(t -> t IN (" + liveTables + "), tables) "
          + "AND Settings['os_thread_priority'] != '19' AND NOT startsWith(log_comment, 'cutover')) "
          + "ARRAY JOIN s.1 AS k, s.2 AS v WHERE endsWith(k, 'Microseconds')",
          rs -> Map.entry(rs.string(1), Double.parseDouble(rs.string(2))))
          .stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
      perLoad.put(load.getKey(), counters);
    }
    Map<String, Double> alone = perLoad.get("alone");
    perLoad.forEach((load, counters) -> report.line("Per statement of the live job, " + load + ": "
        + counters.entrySet().stream()
            .sorted(Comparator.comparingDouble(e -> alone.getOrDefault(e.getKey(), 0.0) - e.getValue()))
            .limit(6)
            .map(e -> String.format("%s %.2f ms (alone %.2f)", e.getKey().replace("Microseconds", ""),
                e.getValue() / 1000, alone.getOrDefault(e.getKey(), 0.0) / 1000))
            .collect(Collectors.joining(", "))));
  }

  /** The corrected transform of one day after another of {@code range}, written into {@code into} or counted. */
  private void transformLoop(HourRange range, String into, AtomicBoolean stop) {
    HourPartition day = range.from();
    while (!stop.get()) {
      HourPartition next = day.plusHours(24);
      Statement transform = BenchProbes.transform(spec, day, next);
      if (into.equals("count")) {
        sql.execute("compute one day", transform.prefixed("SELECT count() FROM (").suffixed(")" + YIELDING));
      } else {
        sql.execute("write one day", transform.prefixed("INSERT INTO " + into + " SELECT * FROM (")
            .suffixed(")" + YIELDING));
      }
      day = range.to().isBefore(next.plusHours(24)) ? range.from() : next;
    }
  }

  private String q(String table) {
    return spec.qualified(Identifier.of(table));
  }
}
