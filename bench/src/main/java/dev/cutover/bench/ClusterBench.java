package dev.cutover.bench;

import dev.cutover.engine.ShardParts;
import dev.cutover.app.demo.DemoNodes;
import dev.cutover.app.demo.DemoWorld;
import dev.cutover.app.demo.SeedOptions;
import dev.cutover.app.demo.SeedProgress;
import dev.cutover.app.demo.Seeder;
import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.ShardRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The backfill on three shards of the embedded local cluster against the same data on one node and against
 * the cluster's own floor: the same demo world, seeded with the same seed, scale and end on the single server
 * and sharded by book over the three shards, so that the three shards' hours together are the single
 * server's. Every shard runs on the same two cores as the single server: the figures say what sharding costs
 * on one machine, not what it gains on three.
 */
final class ClusterBench {

  private static final int SHARDS = 3;

  private final Engine single;
  private final TableSpec singleSpec;
  private final BenchSql singleSql;
  private final Report report;
  private final SeedOptions seed;

  ClusterBench(Engine single, TableSpec singleSpec, BenchSql singleSql, Report report, SeedOptions seed) {
    this.single = single;
    this.singleSpec = singleSpec;
    this.singleSql = singleSql;
    this.report = report;
    this.seed = seed;
  }

  void run() throws Exception {
    report.section("10. The backfill on three shards of a local cluster, against one node with the same data and "
        + "against the cluster's floor (batches of 24 hours, no throttling, max_threads 1 per statement)");
    Path root = Files.createTempDirectory("cutover-bench-cluster-");
    try (Session cluster = Session.cluster(root, SHARDS, EngineProgress.NONE);
        DemoNodes nodes = DemoNodes.of(cluster, DemoWorld.in(DemoWorld.DEFAULT_DATABASE))) {
      long t0 = System.nanoTime();
      for (DemoNodes.Node node : nodes.all()) {
        new Seeder(node.statements(), node.world()).seed(seed, SeedProgress.NONE);
      }
      nodes.distribute();
      report.line(String.format("The same demo world sharded by book over %d shards, seeded in %.1f s.", SHARDS,
          Benchmarks.seconds(t0)));
      Path folder = Files.createTempDirectory("cutover-bench-cluster-spec-");
      TableSpec spec = new Engine(cluster).specs().load(DemoSpec.exportCluster(folder, DemoWorld.DEFAULT_DATABASE,
          true));
      try (TargetRepair repair = new Engine(cluster).repair(spec)) {
        ShardParts.ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(),
            ClusterBench::unthrottled);
        HourRange range = plan.range();
        List<Double> toFloor = new ArrayList<>();
        List<Double> toNode = new ArrayList<>();
        int rounds = Integer.getInteger("bench.rounds", 3) > 1 ? 2 : 1;
        for (int round = 1; round <= rounds; round++) {
          double floor = floor(nodes, spec, range);
          report.row("round " + round + ": the cluster's floor, one INSERT … SELECT per day on every shard at once",
              floor, range.hours(), 0, 0);
          double node = singleNode(range, plan.boundary());
          report.row("round " + round + ": Cutover backfill on one node, concurrency 1", node, range.hours(), 0, 0);
          for (DemoNodes.Node each : nodes.all()) {
            new BenchSql(each.statements()).execute("drop v2", "DROP TABLE IF EXISTS "
                + spec.qualified(spec.targetTable()) + " SYNC");
          }
          ShardParts.ClusterPlan again = ShardParts.of(repair).plan(Optional.of(range.from()), Optional.empty(),
              Optional.of(plan.boundary()), ClusterBench::unthrottled);
          var checked = ShardParts.of(repair).preflight(again, List.of(new dev.cutover.engine.api.AcknowledgedDependent(
              "trading.pnl_alerts_mv", Benchmarks.ACKNOWLEDGED_BECAUSE)));
          long started = System.nanoTime();
          Map<ShardRef, RunRecord> ended = ShardParts.of(repair).backfill(checked, s -> e -> {}).await();
          double took = Benchmarks.seconds(started);
          long rows = 0;
          for (var e : ended.entrySet()) {
            Session shard = nodes.all().get(e.getKey().shard() - 1).session();
            rows += new Engine(shard).backfills().ledger(e.getValue().id()).values().stream()
                .mapToLong(LedgerEntry::rows).sum();
          }
          List<String> failed = ShardParts.ClusterRun.failed(ended);
          report.row("round " + round + ": Cutover backfill on " + SHARDS + " shards at once, concurrency 1 each"
              + (failed.isEmpty() ? "" : " (FAILED: " + failed + ")"), took, range.hours(), rows, took / floor);
          toFloor.add(took / floor);
          toNode.add(took / node);
        }
        report.line(String.format("Ratios: the %d-shard backfill / the cluster's floor: %s; the %d-shard backfill / "
            + "the one-node backfill of the same data: %s. On one machine of %d cores, three shards share the cores "
            + "that one node has alone.", SHARDS, ratios(toFloor), SHARDS, ratios(toNode),
            Runtime.getRuntime().availableProcessors()));
      }
    } finally {
      // The shards stop now, not once idle: their folders go next, and a server left on a deleted folder keeps
      // working on it and takes the cores from every later section.
      for (int i = 1; i <= SHARDS; i++) {
        dev.cutover.engine.EmbeddedEngine.stop(Session.localClusterNode(root, i), "the benchmark's cluster section is done");
      }
      try (var paths = Files.walk(root)) {
        paths.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static BackfillSettings unthrottled(BackfillSettings s) {
    return s.withConcurrency(1).withBatchHours(24).withMaxThreads(1).withRowsPerSecond(0)
        .withMaxLiveLag(Duration.ZERO);
  }

  /** Seconds for every shard to compute its part of {@code range} a day per statement, all shards at once. */
  private static double floor(DemoNodes nodes, TableSpec spec, HourRange range) throws Exception {
    String floor = spec.qualified(dev.cutover.engine.api.Identifier.of("pnl_floor"));
    for (DemoNodes.Node node : nodes.all()) {
      BenchSql sql = new BenchSql(node.statements());
      sql.execute("drop floor", "DROP TABLE IF EXISTS " + floor + " SYNC");
      sql.execute("create floor", "CREATE TABLE " + floor + " AS " + spec.qualified(spec.liveTable()));
    }
    long t0 = System.nanoTime();
    try (ExecutorService pool = Executors.newFixedThreadPool(nodes.all().size())) {
      List<Future<?>> all = new ArrayList<>();
      for (DemoNodes.Node node : nodes.all()) {
        all.add(pool.submit(() -> DayInserts.run(new BenchSql(node.statements()), spec, range, floor,
            " SETTINGS max_threads = 1")));
      }
      for (Future<?> f : all) {
        f.get();
      }
    }
    double took = Benchmarks.seconds(t0);
    for (DemoNodes.Node node : nodes.all()) {
      new BenchSql(node.statements()).execute("drop floor", "DROP TABLE IF EXISTS " + floor + " SYNC");
    }
    return took;
  }

  /** Seconds for the single node to backfill the same range, below the same boundary, into a fresh v2. */
  private double singleNode(HourRange range, dev.cutover.engine.api.HourPartition boundary) throws Exception {
    singleSql.execute("drop the target", "DROP TABLE IF EXISTS " + singleSpec.qualified(singleSpec.targetTable())
        + " SYNC");
    Plan plan = single.plans().plan(singleSpec, Optional.of(range.from()), Optional.of(boundary), Optional.empty(),
        unthrottled(single.plans().defaults(singleSpec)));
    long t0 = System.nanoTime();
    single.backfills().start(Benchmarks.cleared(single, plan), e -> {}).await();
    return Benchmarks.seconds(t0);
  }

  private static String ratios(List<Double> r) {
    return String.join(", ", r.stream().map(x -> String.format("**%.2f×**", x)).toList());
  }
}
