package dev.cutover.engine.cluster;

import dev.cutover.engine.ShardParts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.ShardParts.ClusterPlan;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.ShardParts.ClusterRun;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.LocalCluster;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.ShardedWorld;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repair on three embedded shards of a local cluster, the world sharded by site: one boundary on every
 * shard, each shard's v2 the corrected transform of its own clicks, one verdict over all shards, and
 * consumers on every node switched all or nothing; a shard killed in the backfill is named and resumed alone,
 * and a node killed in the cutover leaves every node reading v1.
 */
class ShardedRepairTest {

  /** One cluster for every test: each lays its world out afresh on it, and a node a test kills starts again. */
  @TempDir static Path dir;
  private static ShardedWorld last;
  private ShardedWorld world;
  private TableSpec spec;
  private Database entry;
  private Shards shards;
  private TargetRepair repair;

  @BeforeEach
  void cluster() {
    world = ShardedWorld.fresh(dir.resolve("cluster"), 3, 2);
    last = world;
    spec = world.spec();
    entry = world.entry();
    shards = Shards.open(entry, LocalCluster.NAME, world.cluster()::jdbcUrl);
    repair = ShardParts.open(shards, spec);
  }

  @AfterEach
  void close() {
    if (shards != null) {
      shards.close();
    }
    if (entry != null) {
      entry.close();
    }
    world.close();
  }

  @AfterAll
  static void stopCluster() {
    if (last != null) {
      last.stop();
    }
  }

  private Preflighted cleared(ClusterPlan plan) {
    return dev.cutover.engine.testing.Procedure.clear(repair, plan);
  }

  private Gate.Version reads(Shard s) {
    return new ConsumerView(s.database().sql(), spec).reads();
  }

  private void backfillAndGoLive() throws InterruptedException {
    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), s -> s.withConcurrency(1));
    Map<ShardRef, RunRecord> ended = ShardParts.of(repair).backfill(cleared(plan), s -> BackfillEvent.Listener.NONE).await();
    assertEquals(List.of(), ClusterRun.failed(ended));
    world.shards.forEach(w -> w.writeLiveV2(plan.boundary(), w.liveEdge.plusHours(1)));
  }

  @Test
  void everyShardRepairsItsOwnHoursUnderOneBoundaryAndEveryNodeSwitchesAllOrNothing() throws Exception {
    // The cluster's totals split between its shards: 3 batches and 900 rows/s over three shards, 1 and 300 each.
    TableSpec throttled = dev.cutover.engine.spec.SpecLoader.parse(world.specYaml() + "  throttle:\n    concurrency: 3\n"
        + "    rows_per_second: 900\n", "visits.yaml");
    ClusterPlan shared = ShardParts.of(ShardParts.open(shards, throttled)).plan(Optional.empty(), Optional.empty(), Optional.empty(),
        s -> s.withConcurrency(4));
    assertEquals(List.of(1), shared.plans().values().stream().map(p -> p.settings().concurrency()).distinct().toList());
    assertEquals(List.of(300L), shared.plans().values().stream().map(p -> p.settings().rowsPerSecond()).distinct()
        .toList());
    TableSpec tooFew = dev.cutover.engine.spec.SpecLoader.parse(world.specYaml() + "  throttle:\n    concurrency: 2\n",
        "visits.yaml");
    assertThrows(dev.cutover.engine.api.InvalidInputException.class, () -> ShardParts.of(ShardParts.open(shards, tooFew))
        .plan(Optional.empty(), Optional.empty(), Optional.empty(), s -> s));

    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), s -> s.withConcurrency(1));
    assertEquals(List.of(plan.boundary()), plan.plans().values().stream().map(Plan::boundary).distinct().toList(),
        "one boundary on every shard");
    assertEquals(3, plan.plans().size());
    Preflighted preflight = cleared(plan);
    preflight.nodes().forEach((s, checked) -> {
      PreflightReport r = checked.report();
      PreflightReport.Check sharding = r.checks().stream().filter(c -> c.name().equals("sharding")).findFirst()
          .orElseThrow();
      assertEquals(PreflightReport.Status.PASS, sharding.status(), s + ": " + sharding.finding());
      PreflightReport.Check ddl = r.checks().stream().filter(c -> c.name().equals("distributed DDL")).findFirst()
          .orElseThrow();
      assertTrue(ddl.finding().startsWith("The entry node's server has no system.zookeeper_connection, so whether "
          + "cluster " + LocalCluster.NAME + " can run ON CLUSTER statements is not known here") && ddl.finding()
          .contains("node by node"), "the embedded engine lists no Keeper connection table: " + ddl.finding());
    });

    Map<ShardRef, RunRecord> ended = ShardParts.of(repair).backfill(preflight, s -> BackfillEvent.Listener.NONE).await();
    assertEquals(List.of(), ClusterRun.failed(ended));
    HourPartition b = plan.boundary();
    assertEquals(List.of(), world.shardsWhoseV2IsNotCorrected(plan.range().from(), b),
        "every shard's v2 is the corrected transform of its own clicks");
    for (Shard s : shards.all()) {
      var ledger = s.engine().backfills().ledger(ended.get(s.ref()).id());
      assertEquals(plan.range().list(), List.copyOf(ledger.keySet()), s.name() + " keeps a line per hour");
      assertTrue(ledger.values().stream().allMatch(LedgerEntry::complete), s.name());
    }

    world.shards.forEach(w -> w.writeLiveV2(b, w.liveEdge.plusHours(1)));
    var verdict = ShardParts.of(repair).reconcile(Scope.REPAIR, 10_000);
    assertTrue(verdict.green(), verdict.sentence());

    // The same reconciliation read as one over the whole table, as the Reconcile screen shows it: an hour's rows
    // and totals are what the cluster's Distributed tables hold, and every differing key names its shard.
    var steps = repair.reconciliations();
    var stored = steps.newest().orElseThrow();
    var over = stored.report().orElseThrow();
    assertTrue(over.verdict().allowsCutover(), over.verdict().name());
    assertEquals(over.id(), steps.newestId().orElseThrow(), "the watch's id is the id of the report it shows");
    assertEquals(over.id(), stored.summary().id());
    HourPartition h = b.plusHours(-2);
    var hour = over.hours().stream().filter(x -> x.hour().equals(h)).findFirst().orElseThrow();
    String inHour = " WHERE hour = toDateTime(" + h.epochSecond() + ", 'UTC')";
    assertEquals(entry.sql().queryLong("v1's rows", "SELECT count() FROM world.visits_v1_all" + inHour), hour.rowsV1());
    assertEquals(entry.sql().queryLong("v2's rows", "SELECT count() FROM world.visits_v2_all" + inHour), hour.rowsV2());
    var clicks = hour.totals().stream().filter(t -> t.measure().name().equals("clicks")).findFirst().orElseThrow();
    assertEquals(entry.sql().queryLong("v2's clicks", "SELECT sum(clicks) FROM world.visits_v2_all" + inHour),
        (long) clicks.v2());
    var keys = steps.hourKeys(h, 10_000);
    assertEquals(entry.sql().queryLong("keys the fix changes", "SELECT count() FROM world.visits_v1_all" + inHour
        + " AND duration_s != 0"), keys.size(), "every key the fix changes, on whichever shard it lies");
    assertTrue(keys.stream().allMatch(k -> k.shard().isPresent() && k.expected()), keys.toString());
    for (var k : keys) {
      ShardRef on = k.shard().orElseThrow();
      assertEquals(1, shards.shard(on.shard()).database().sql().queryLong("the key on its shard",
          "SELECT count() FROM world.visits_v2 WHERE hour = toDateTime(?, 'UTC') AND site = ?", h.epochSecond(),
          k.key().getFirst()), k + " lies on " + on);
    }
    assertEquals(3, over.keys().stream().map(k -> k.shard().orElseThrow()).distinct().count(),
        "the kept keys come from every shard");

    // Every node's gate, as the Cutover screen reads it: open as one, with one B on every node and each node's own.
    var before = repair.cutovers().judge();
    assertTrue(before.gate().open(), before.gate().refusal());
    assertEquals(Gate.CUTOVER, before.gate().step());
    assertEquals(Gate.Version.V1, before.gate().current());
    assertEquals(3, before.nodes().size());
    assertTrue(before.nodes().stream().allMatch(n -> n.reads() == Gate.Version.V1 && n.gate().open()), before.toString());
    assertTrue(before.gate().conditions().contains(new Gate.Condition(OverNodes.ONE_B, true, "B = "
        + repair.eachNode().values().iterator().next().repair().orElseThrow().boundary().orElseThrow() + " on all 3 nodes")),
        before.gate().conditions().toString());
    assertTrue(repair.cutovers().retention().keepUntil().isEmpty(), "no horizon before any node was cut over");

    var switched = ShardParts.of(repair).cutover("visits", ShardParts.SwapListener.NONE);
    assertEquals(3, switched.size());
    assertTrue(switched.values().stream().allMatch(r -> r.verified()), switched.toString());
    for (Shard s : shards.all()) {
      assertEquals(Gate.Version.V2, reads(s), s.name());
    }
    long v2Rows = entry.sql().queryLong("v2 through the cluster", "SELECT count() FROM world.visits_v2_all");
    assertEquals(v2Rows, entry.sql().queryLong("what consumers read", "SELECT count() FROM world.visits"));
    var after = repair.cutovers().judge();
    assertEquals(Gate.ROLLBACK, after.gate().step(), "once every node reads v2, the step they can take is the rollback");
    assertEquals(Gate.Version.V2, after.gate().current());
    var kept = repair.cutovers().retention();
    var latest = shards.all().stream().map(s -> s.engine().cutovers().retention(repair.spec()).cutoverAt()
        .orElseThrow()).max(java.util.Comparator.naturalOrder());
    assertEquals(latest, kept.cutoverAt(), "v1 is kept from the last node's cutover");
    assertTrue(kept.keepUntil().isPresent(), kept.toString());

    List<ShardRef> heard = new java.util.ArrayList<>();
    var back = repair.cutovers().rollback("visits", java.util.Optional.of("a desk's numbers moved; checking the fix"), dev.cutover.engine.api.Progress.NONE,
        (node, r) -> heard.add(node));
    assertEquals(repair.nodes(), heard, "each node heard as it switched, in turn");
    assertTrue(back.verified(), back.verification());
    assertEquals(Gate.Version.V1, back.after());
    assertTrue(back.verification().startsWith("3 nodes, one at a time:\n"), back.verification());
    shards.all().forEach(s -> assertEquals(Gate.Version.V1, reads(s), s.name()));
    for (Shard s : shards.all()) {
      var rollback = s.engine().records(repair.spec(), 20).audit().stream().filter(a -> a.action().equals("rollback"))
          .findFirst().orElseThrow();
      assertTrue(rollback.detail().endsWith("Reason: a desk's numbers moved; checking the fix"), s.name() + ": "
          + rollback.detail());
    }
    ShardParts.of(repair).cutover("visits", ShardParts.SwapListener.NONE);
    shards.all().forEach(s -> assertEquals(Gate.Version.V2, reads(s), s.name()));
  }

  @Test
  void v1IsDroppedOnEveryNodeOnlyOnceEveryNodesChecksPass() throws Exception {
    backfillAndGoLive();
    assertTrue(ShardParts.of(repair).reconcile(Scope.REPAIR, 10_000).green());
    ShardParts.of(repair).cutover("visits", ShardParts.SwapListener.NONE);
    var steps = repair.cutovers();
    String reason = "finance confirmed the fix on every desk; the rollback is no longer needed";
    // A report on shard 3 alone still reads v1: refused there before any node drops anything.
    world.shards.get(2).sql.execute("a report on shard 3", "CREATE VIEW visits_report AS SELECT site, sum(clicks) "
        + "AS clicks FROM visits_v1 GROUP BY site");
    var readers = steps.v1Readers();
    assertEquals(1, readers.stream().filter(r -> r.name().endsWith("visits_report")).count(), readers.toString());
    var refused = assertThrows(StepRefusedException.class, () -> steps.dropV1(true, reason, List.of()));
    assertTrue(refused.getMessage().startsWith(shards.shard(3).name() + ": ") && refused.getMessage().endsWith(
        "Nothing was dropped on any node."), refused.getMessage());
    for (Shard s : shards.all()) {
      assertTrue(s.engine().cutovers().retention(spec).droppedAt().isEmpty(), s.name() + " keeps v1");
    }
    List<String> dropped = steps.dropV1(true, reason, readers.stream().map(r -> r.name()).toList());
    for (Shard s : shards.all()) {
      assertTrue(s.engine().cutovers().retention(spec).droppedAt().isPresent(), s.name() + " dropped v1");
      assertTrue(dropped.stream().anyMatch(d -> d.startsWith(s.name() + ": ")), s.name() + ": " + dropped);
      assertEquals(Gate.Version.V2, reads(s), s.name() + "'s consumers read v2");
    }
    assertTrue(steps.retention().droppedAt().isPresent(), "the cluster's retention says v1 is gone");
    var again = assertThrows(StepRefusedException.class, () -> steps.dropV1(true, reason, List.of()));
    assertTrue(again.getMessage().endsWith("was dropped already on every node."), again.getMessage());
  }

  @Test
  void aNodeKilledDuringTheCutoverLeavesEveryNodeReadingV1AndIsNamed() throws Exception {
    backfillAndGoLive();
    assertTrue(ShardParts.of(repair).reconcile(Scope.REPAIR, 10_000).green());
    Shard third = shards.shard(3);
    var refused = assertThrows(StepRefusedException.class, () -> ShardParts.of(repair).cutover("visits", (s, r) -> {
      if (s.shard() == 2) {
        kill(world.cluster().nodes().get(2).pid());
      }
    }));
    assertTrue(refused.getMessage().startsWith("The cutover failed on " + third.name() + ": "), refused.getMessage());
    assertTrue(refused.getMessage().contains("were switched back to v1"), refused.getMessage());
    assertEquals(List.of(third.name()), refused.unmet());
    assertTrue(refused.getMessage().contains(third.name() + " did not answer, and the view reads every shard, so their "
        + "rows were not compared"), refused.getMessage());
    assertEquals(Gate.Version.V1, reads(shards.shard(1)));
    assertEquals(Gate.Version.V1, reads(shards.shard(2)));
    for (int i = 0; i < 2; i++) {
      assertTrue(ProcessHandle.of(world.cluster().nodes().get(i).pid()).map(ProcessHandle::isAlive).orElse(false),
          "switching back did not bring down shard " + (i + 1));
    }

    world.restart();
    assertEquals(Gate.Version.V1, reads(third), "the killed node never switched");
    ShardParts.of(repair).cutover("visits", ShardParts.SwapListener.NONE);
    shards.all().forEach(s -> assertEquals(Gate.Version.V2, reads(s), s.name()));
  }

  @Test
  void aBugBoundedToTwelveHoursIsRecomputedOnEveryShardAndTheRestCarriedFromEachShardsOwnV1() throws Exception {
    HourPartition first = world.shards.getFirst().first;
    dev.cutover.engine.api.HourRange affected = new dev.cutover.engine.api.HourRange(first.plusHours(12),
        first.plusHours(24));
    world.shards.forEach(w -> w.boundTheBugTo(affected));
    // The second shard's v1 holds an hour older than every source: the bounded repair reaches back to it on every
    // shard, carries it into the second shard's v2 from its own v1, and carries it empty on the others.
    HourlyWorld second = world.shards.get(1);
    HourPartition older = first.plusHours(-24);
    second.sql.execute("an hour older than the sources", "INSERT INTO visits_v1 SELECT hour - INTERVAL 24 HOUR AS "
        + "older, site, clicks, users, duration_s FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')", first.epochSecond());
    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(affected),
        s -> s.withConcurrency(1));
    assertEquals(older, plan.range().from(), "one range on every shard, from the oldest hour of any shard's v1");
    Preflighted preflight = cleared(plan);
    preflight.nodes().forEach((s, checked) -> checked.report().checks().stream().filter(c -> c.name().equals("reprocessing "
        + "window") || c.name().equals("own history")).forEach(c -> assertEquals(PreflightReport.Status.PASS,
        c.status(), s + ": " + c.name() + ": " + c.finding())));
    plan.plans().forEach((s, p) -> {
      assertEquals(older, p.range().from(), s.toString());
      assertEquals(affected.list(), p.computed(), s + " recomputes only the affected hours");
      assertEquals(plan.range().hours() - 12, p.carried().size(), s.toString());
    });
    Map<ShardRef, RunRecord> ended = ShardParts.of(repair).backfill(preflight, s -> BackfillEvent.Listener.NONE).await();
    assertEquals(List.of(), ClusterRun.failed(ended));
    HourPartition b = plan.boundary();
    for (Shard s : shards.all()) {
      var ledger = s.engine().backfills().ledger(ended.get(s.ref()).id());
      plan.range().list().forEach(h -> assertEquals(affected.contains(h), !ledger.get(h).carried(), s + " " + h));
    }
    assertEquals(List.of(), world.shardsWhoseV2IsNotCorrected(first, b),
        "every shard's v2 equals a full recompute of its own clicks, hour for hour, where the sources hold them");
    HourPartition olderEnd = older.plusHours(1);
    assertEquals(second.checksums("visits_v1", older, olderEnd), second.checksums("visits_v2", older, olderEnd),
        "the older hour is carried as the second shard's v1 holds it");
    assertTrue(!second.checksums("visits_v2", older, olderEnd).isEmpty());

    world.shards.forEach(w -> w.writeLiveV2(b, w.liveEdge.plusHours(1)));
    var verdict = ShardParts.of(repair).reconcile(Scope.REPAIR, 10_000);
    assertTrue(verdict.green(), verdict.sentence());
    verdict.shards().forEach((s, r) -> {
      assertTrue(r.coverage().isEmpty(), s + ": " + r.coverage());
      assertTrue(r.keys().stream().allMatch(k -> affected.contains(k.hour())), s + ": keys only in affected hours");
    });
    ShardParts.of(repair).gates().forEach((s, g) -> assertEquals(List.of(), g.unmet().stream().map(Gate.Condition::name).toList(),
        s.toString()));
    var switched = ShardParts.of(repair).cutover("visits", ShardParts.SwapListener.NONE);
    assertTrue(switched.values().stream().allMatch(r -> r.verified()), switched.toString());
    assertEquals(1, entry.sql().queryLong("consumers still see the older hour", "SELECT count() > 0 FROM world.visits "
        + "WHERE hour = toDateTime(?, 'UTC')", older.epochSecond()));
  }

  @Test
  void oneBackfillOverEveryShardIsOneRunWhoseHoursAreEveryShardsAndItResumesByItsId() throws Exception {
    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), s -> s.withConcurrency(1)
        .withBatchHours(1).withRowsPerSecond(5));
    java.util.Queue<BackfillEvent> heard = new java.util.concurrent.ConcurrentLinkedQueue<>();
    dev.cutover.engine.api.RunHandle run = repair.backfills().start(cleared(plan), heard::add);
    while (heard.stream().noneMatch(e -> e instanceof BackfillEvent.HourWritten)) {
      Thread.sleep(50);
    }
    run.cancel();
    assertEquals(RunState.CANCELLED, run.await().state(), run.record().message());
    String id = run.id();
    for (Shard s : shards.all()) {
      RunRecord part = s.engine().backfills().runs(spec).getFirst();
      assertEquals(RunsOverShards.partId(id, s.ref()), part.id(), "each shard's part has an id of its own");
      assertEquals(RunState.CANCELLED, part.state(), s.name());
    }
    List<RunRecord> runs = repair.backfills().runs();
    assertEquals(List.of(id), runs.stream().map(RunRecord::id).toList(), "one run over every shard");

    dev.cutover.engine.api.RunHandle resumed = repair.backfills().resume(id, t -> t.withRowsPerSecond(0), List.of(),
        dev.cutover.engine.api.Progress.NONE, heard::add);
    assertEquals(id, resumed.id(), "the same run, from every shard's ledger");
    RunRecord ended = resumed.await();
    assertEquals(RunState.SUCCEEDED, ended.state(), ended.message());
    var ledger = repair.backfills().ledger(id);
    assertEquals(plan.range().hours(), ledger.size(), "every hour, once every shard wrote it");
    long rows = 0;
    for (Shard s : shards.all()) {
      rows += s.engine().backfills().ledger(RunsOverShards.partId(id, s.ref())).values().stream()
          .mapToLong(LedgerEntry::rows).sum();
      // No shard's part was taken for gone while another shard's ended in this same process.
      var r = s.engine().repairs().current(spec).orElseThrow();
      assertEquals(dev.cutover.engine.api.RepairPhase.BACKFILLED, r.phase(), s.name() + ": " + r.note());
    }
    assertEquals(rows, ledger.values().stream().mapToLong(LedgerEntry::rows).sum(), "the rows of every shard");
    assertEquals(List.of(), world.shardsWhoseV2IsNotCorrected(plan.range().from(), plan.boundary()));
    BackfillEvent last = heard.stream().reduce((x, y) -> y).orElseThrow();
    assertTrue(last instanceof BackfillEvent.StateChanged c && c.state() == RunState.SUCCEEDED, last.toString());
    assertEquals(RunState.SUCCEEDED, repair.snapshot(Optional.empty()).latestRun().orElseThrow().state());
  }

  @Test
  void aShardKilledInTheBackfillIsNamedAndTheResumeFinishesOnlyItsMissingHours() throws Exception {
    UnaryOperator<dev.cutover.engine.api.BackfillSettings> slow = s -> s.withConcurrency(1).withBatchHours(1)
        .withRowsPerSecond(200).withRetries(2, Duration.ofMillis(100)).withServerWait(Duration.ofSeconds(3));
    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), slow);
    Map<Integer, AtomicLong> written = new ConcurrentHashMap<>();
    ClusterRun run = ShardParts.of(repair).backfill(cleared(plan), s -> e -> {
      if (e instanceof BackfillEvent.HourWritten) {
        written.computeIfAbsent(s.shard(), k -> new AtomicLong()).incrementAndGet();
      }
    });
    while (written.getOrDefault(2, new AtomicLong()).get() < 3) {
      Thread.sleep(50);
    }
    kill(world.cluster().nodes().get(1).pid());
    Map<ShardRef, RunRecord> ended = run.await();
    List<String> failed = ClusterRun.failed(ended);
    assertEquals(1, failed.size(), failed.toString());
    assertTrue(failed.getFirst().startsWith(shards.shard(2).name() + ": run "), failed.getFirst());
    assertTrue(failed.getFirst().contains("The server has not answered"), failed.getFirst());

    world.restart();
    ClusterRun resumed = ShardParts.of(repair).resume(UnaryOperator.identity(), List.of(), s -> BackfillEvent.Listener.NONE);
    assertEquals(List.of(repair.nodes().get(1)), List.copyOf(resumed.runs().keySet()), "only the failed shard resumes");
    Map<ShardRef, RunRecord> end = resumed.await();
    assertEquals(List.of(), ClusterRun.failed(end));
    assertEquals(ended.get(repair.nodes().get(1)).id(), end.get(repair.nodes().get(1)).id(), "the same run, from its ledger");
    assertEquals(List.of(), world.shardsWhoseV2IsNotCorrected(plan.range().from(), plan.boundary()));
    assertTrue(shards.shard(2).engine().backfills().ledger(end.get(repair.nodes().get(1)).id()).values().stream()
        .allMatch(LedgerEntry::complete));
  }

  @Test
  void aViewOnEveryShardsV1AcknowledgedWithAReasonGoesToEachShardsAuditTrailWhenTheBackfillStartsOrResumes()
      throws Exception {
    for (Shard s : shards.all()) {
      s.database().sql().execute("an alerting view", "CREATE MATERIALIZED VIEW world.alerts_mv ENGINE = MergeTree "
          + "ORDER BY site AS SELECT site, clicks FROM world.visits_v1 WHERE clicks > 100");
    }
    // Slow enough that no shard's part (about one row an hour) ends before the last shard's has started.
    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(),
        s -> s.withConcurrency(1).withBatchHours(1).withRowsPerSecond(2));
    Preflighted blocked = ShardParts.of(repair).preflight(plan, List.of());
    assertEquals(3, blocked.nodes().values().stream().filter(p -> p.failures().stream().anyMatch(f -> f.startsWith(
        "side effects: ") && f.contains("world.alerts_mv (reads visits_v1)"))).count(), blocked.failures().toString());
    assertTrue(blocked.failures().stream().anyMatch(f -> f.startsWith("side effects: ") && f.endsWith("(every shard)")),
        "the cluster's one report says it once for every shard: " + blocked.failures());

    String reason = "each shard's alerts for replayed hours are dropped by the pager's age filter";
    Preflighted checked = ShardParts.of(repair).preflight(plan, List.of(new AcknowledgedDependent("world.alerts_mv", reason)));
    assertTrue(checked.passed(), checked.failures().toString());
    ClusterRun started = ShardParts.of(repair).backfill(checked, s -> BackfillEvent.Listener.NONE);
    started.runs().values().forEach(h -> h.cancel());
    Map<ShardRef, RunRecord> cancelled = started.await();
    assertEquals(3, ClusterRun.failed(cancelled).size(), "every shard's run was cancelled: " + cancelled);

    // The resume's preflight needs the acknowledgement again, and each shard's run writes it again.
    assertThrows(StepRefusedException.class, () -> ShardParts.of(repair).resume(s -> s.withRowsPerSecond(0), List.of(),
        s -> BackfillEvent.Listener.NONE));
    String again = "the pager is muted for the replay window";
    Map<ShardRef, RunRecord> ended = ShardParts.of(repair).resume(s -> s.withRowsPerSecond(0), List.of(new AcknowledgedDependent(
        "world.alerts_mv", again)), s -> BackfillEvent.Listener.NONE).await();
    assertEquals(List.of(), ClusterRun.failed(ended));
    for (Shard s : shards.all()) {
      RunRecord run = ended.get(s.ref());
      var lines = s.engine().backfills().sideEffectAcknowledgements(spec);
      assertEquals(List.of(again, reason), lines.stream().map(a -> a.reason()).toList(), s.name() + ": " + lines);
      for (var line : lines) {
        assertEquals(List.of("world.alerts_mv", "visits_v1", run.id(), run.repairId(), System.getProperty("user.name")),
            List.of(line.dependent(), line.reads(), line.runId(), line.repairId(), line.actor()), s.name());
      }
    }
  }

  @Test
  void aLiveWriterIsDeclaredOnNoShardWhileOneShardPinnedABoundaryOfItsOwn() throws Exception {
    // Each shard's repair begun alone, as `backfill` on one node does: the last one a boundary an hour earlier.
    HourPartition b = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), s -> s).boundary();
    Shard odd = shards.all().getLast();
    for (Shard s : shards.all()) {
      HourPartition own = s == odd ? b.plusHours(-1) : b;
      Plan plan = s.engine().plans().plan(spec, Optional.of(own.plusHours(-6)), Optional.empty(), Optional.of(own),
          s.engine().plans().defaults(spec).withConcurrency(1));
      assertEquals(RunState.SUCCEEDED, dev.cutover.engine.testing.Procedure.backfill(s.engine(), plan).state(),
          s.name());
    }

    StepRefusedException refused = assertThrows(StepRefusedException.class,
        () -> ShardParts.of(repair).declareLiveWriter("visits-job 4.2"));
    assertEquals("The corrected live writer is declared on no shard: " + odd.name() + ": B = " + b.plusHours(-1)
        + ", not " + b + ".", refused.getMessage());
    for (Shard s : shards.all()) {
      assertEquals(Optional.empty(), s.engine().repairs().liveWriterNote(spec), s.name() + " holds no declaration");
    }
  }

  /**
   * Readers on every node, during 50 swaps ({@code -Psoak}; 6 in every build): each answer of the consumer view is v1's whole history or v2's
   * whole history, never a mixture of the two (the guarantee is per entry point: one node may read v2 while
   * another still reads v1).
   */
  @Test
  void readersOnEveryNodeSeeOneVersionWholeThroughEverySwap() throws Exception {
    int swaps = Integer.getInteger("cutover.clusterSwaps", 6);
    backfillAndGoLive();
    assertTrue(ShardParts.of(repair).reconcile(Scope.REPAIR, 10_000).green());
    HourPartition to = world.shards.getFirst().liveEdge.plusHours(1);
    String checksum = "SELECT reinterpretAsInt64(sum(cityHash64(hour, site, clicks, users, duration_s))) FROM world.%s "
        + "WHERE hour < toDateTime(" + to.epochSecond() + ", 'UTC')";
    long v1 = entry.sql().queryLong("v1", checksum.formatted("visits_v1_all"));
    long v2 = entry.sql().queryLong("v2", checksum.formatted("visits_v2_all"));
    assertTrue(v1 != v2, "the versions differ");
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    List<String> mixtures = new java.util.concurrent.CopyOnWriteArrayList<>();
    Map<Integer, AtomicLong> reads = new ConcurrentHashMap<>();
    List<Thread> readers = shards.all().stream().map(s -> Thread.ofPlatform().start(() -> {
      while (!done.get()) {
        long got = s.database().sql().queryLong("read the view", checksum.formatted("visits"));
        if (got != v1 && got != v2) {
          mixtures.add(s.name() + " read " + got);
        }
        reads.computeIfAbsent(s.node().shard(), k -> new AtomicLong()).incrementAndGet();
      }
    })).toList();
    try {
      for (int i = 0; i < swaps / 2; i++) {
        ShardParts.of(repair).cutover("visits", ShardParts.SwapListener.NONE);
        ShardParts.of(repair).rollback("visits", java.util.Optional.empty(), ShardParts.SwapListener.NONE);
      }
    } finally {
      done.set(true);
      for (Thread t : readers) {
        t.join();
      }
    }
    assertEquals(List.of(), mixtures);
    assertEquals(3, reads.size());
    assertTrue(reads.values().stream().allMatch(n -> n.get() >= swaps), reads.toString());
    shards.all().forEach(s -> assertEquals(Gate.Version.V1, reads(s), s.name()));
  }

  /** A source sharded by a column that is not a key of the derived table: each shard would hold part of a key's hour. */
  @Test
  void aSourceShardedByANonKeyColumnIsRefusedBeforeAnythingIsWritten() {
    for (Shard s : shards.all()) {
      s.database().sql().execute("reshard", "CREATE OR REPLACE TABLE world.clicks_all AS world.clicks ENGINE = "
          + "Distributed(" + LocalCluster.NAME + ", world, clicks, user_id)");
    }
    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), UnaryOperator.identity());
    Preflighted preflight = ShardParts.of(repair).preflight(plan, List.of(new AcknowledgedDependent("visits_v1_all", Procedure.REASON)));
    assertTrue(!preflight.passed());
    String finding = preflight.failures().stream().filter(f -> f.startsWith("sharding: ")).findFirst().orElseThrow();
    assertTrue(finding.contains("clicks_all shards clicks by user_id, which uses user_id, not a key of visits_v2 [site]"),
        finding);
    assertTrue(finding.contains("visits_v1_all shards visits_v1 by sipHash64(site), not as the sources are sharded"),
        finding);
    var refused = assertThrows(StepRefusedException.class, () -> ShardParts.of(repair).backfill(preflight,
        s -> BackfillEvent.Listener.NONE));
    assertTrue(refused.getMessage().endsWith("No shard was written."), refused.getMessage());
    for (Shard s : shards.all()) {
      assertEquals(0, s.database().sql().queryLong("v2", "SELECT count() FROM system.tables WHERE database = 'world' "
          + "AND name = 'visits_v2'"), s.name() + " has no v2");
    }
  }

  /** A source every shard holds whole must be the same rows on every shard: each computes from its own copy. */
  @Test
  void aCopiedSourceThatDiffersBetweenShardsIsRefusedNamingEachShardsCopy() {
    HourPartition first = world.shards.getFirst().first;
    for (Shard s : shards.all()) {
      s.database().sql().execute("labels", "CREATE TABLE world.labels (ts DateTime('UTC'), site String, label String) "
          + "ENGINE = MergeTree ORDER BY ts");
      s.database().sql().execute("labels", "INSERT INTO world.labels SELECT toDateTime(?, 'UTC') + number * 3600, "
          + "'north', toString(number) FROM numbers(10)", first.epochSecond());
    }
    shards.shard(2).database().sql().execute("a row only shard 2 has", "INSERT INTO world.labels VALUES "
        + "(toDateTime(?, 'UTC'), 'web', 'late')", first.plusHours(2).epochSecond());
    String sources = "sources:\n  - table: clicks\n    time_column: ts\n";
    TableSpec withLabels = dev.cutover.engine.spec.SpecLoader.parse(world.specYaml().replace(sources, sources
        + "  - table: labels\n    time_column: ts\n") + "  copied: [labels]\n", "visits.yaml");
    ShardParts labelled = ShardParts.of(ShardParts.open(shards, withLabels));
    ClusterPlan plan = labelled.plan(Optional.empty(), Optional.empty(), Optional.empty(), UnaryOperator.identity());
    Preflighted preflight = labelled.preflight(plan, List.of(new AcknowledgedDependent("visits_v1_all", Procedure.REASON)));
    assertTrue(!preflight.passed());
    String finding = preflight.failures().stream().filter(f -> f.contains("copies of labels")).findFirst().orElseThrow();
    assertTrue(finding.contains("labels differs between shards over " + plan.range() + ": " + shards.shard(1).name()
        + " holds 10 rows"), finding);
    assertTrue(finding.contains(shards.shard(2).name() + " holds 11 rows"), finding);

    shards.shard(2).database().sql().execute("mend", "DELETE FROM world.labels WHERE label = 'late'");
    Preflighted again = labelled.preflight(plan, List.of(new AcknowledgedDependent("visits_v1_all", Procedure.REASON)));
    assertTrue(again.failures().stream().noneMatch(f -> f.contains("copies of labels")), again.failures().toString());

    // A shard whose own clicks lost the first three hours its v1 still holds would recompute them empty.
    HourPartition start = plan.range().from();
    shards.shard(2).database().sql().execute("lose shard 2's first clicks", "DELETE FROM world.clicks WHERE ts < "
        + "toDateTime(?, 'UTC')", start.plusHours(3).epochSecond());
    Preflighted lost = labelled.preflight(plan, List.of(new AcknowledgedDependent("visits_v1_all", Procedure.REASON)));
    String history = lost.failures().stream().filter(f -> f.startsWith("own history: ")).findFirst()
        .orElseThrow(() -> new AssertionError(lost.failures().toString()));
    HourPartition own = HourPartition.ofEpochSecond(shards.shard(2).database().sql().queryLong("shard 2's first clicks",
        "SELECT toUnixTimestamp(toStartOfHour(min(ts))) FROM world.clicks"));
    assertTrue(!own.isBefore(start.plusHours(3)), own.toString());
    assertTrue(history.startsWith("own history: on 1 of 3 shards: " + shards.shard(2).ref() + ": ")
        && history.contains("but its clicks starts at " + own), "only shard 2: " + history);

    // A shard whose v1 has a column the others lack would be backfilled into another v2.
    shards.shard(3).database().sql().execute("drift", "ALTER TABLE world.visits_v1 ADD COLUMN note String DEFAULT ''");
    Preflighted drifted = labelled.preflight(plan, List.of(new AcknowledgedDependent("visits_v1_all", Procedure.REASON)));
    assertTrue(!drifted.passed());
    String differs = drifted.failures().stream().filter(f -> f.contains("same on every shard")).findFirst()
        .orElseThrow(() -> new AssertionError(drifted.failures().toString()));
    assertTrue(differs.contains("The shards differ in visits_v1 (") && differs.contains(shards.shard(3).name()
        + ": hour DateTime('UTC'), site String, clicks UInt64, users UInt64, duration_s Float64, note String"), differs);
  }

  private static void kill(long pid) {
    ProcessHandle p = ProcessHandle.of(pid).orElseThrow();
    p.destroyForcibly();
    try {
      p.onExit().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
