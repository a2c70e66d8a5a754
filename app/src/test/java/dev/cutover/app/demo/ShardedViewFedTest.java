package dev.cutover.app.demo;

import dev.cutover.engine.ShardParts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Session;
import dev.cutover.engine.Engine;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.ShardParts.ClusterPlan;
import dev.cutover.engine.ShardParts.ClusterRun;
import dev.cutover.engine.Specs;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.embedded.EngineLibrary;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A view-fed table on three embedded shards ({@code demo seed --live mv --shards 3}): the corrected view is
 * deployed on every shard from one future boundary B, every shard's backfill waits for B to close and writes
 * the hours before it while trades keep arriving on every shard, and each shard's v2 ends equal to the
 * corrected transform of its own trades, every hour; one green verdict, a verified cutover on every node,
 * and a rollback that drops every shard's corrected view.
 */
class ShardedViewFedTest {

  private static final Instant END = Instant.parse("2026-11-30T09:00:00Z");

  @TempDir Path dir;
  private Session session;
  private DemoNodes nodes;
  private TableSpec spec;
  private TargetRepair repair;
  private final List<LiveJob> jobs = new ArrayList<>();

  @BeforeEach
  void viewFedCluster() {
    session = Session.cluster(dir.resolve("cluster"), 3, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    nodes = DemoNodes.of(session, DemoWorld.in(DemoSpec.DEFAULT_DATABASE));
    for (DemoNodes.Node node : nodes.all()) {
      new Seeder(node.statements(), node.world()).seed(new SeedOptions(29, 0.03, 2, END, 0, true), SeedProgress.NONE);
    }
    nodes.distribute();
    spec = Specs.read(ShortOverlap.in(DemoSpec.exportCluster(dir.resolve("spec"), DemoSpec.DEFAULT_DATABASE, true,
        true)));
    repair = new Engine(session).repair(spec);
    for (DemoNodes.Node node : nodes.all()) {
      jobs.add(LiveJob.open(node.statements(), node.world(), new LiveOptions(Duration.ofSeconds(1), s -> { }, e -> { })));
    }
  }

  @AfterEach
  void close() {
    jobs.forEach(LiveJob::close);
    if (repair != null) {
      repair.close();
    }
    if (nodes != null) {
      nodes.close();
    }
    if (session != null) {
      var cluster = session.localCluster();
      session.close();
      cluster.ifPresent(c -> c.nodes().forEach(n -> n.stop("the test is done")));
    }
  }

  @Test
  void everyShardsCorrectedViewWritesFromOneFutureBoundaryAndEveryBackfillBelowIt() throws Exception {
    Map<ShardRef, LiveDeployment> planned = ShardParts.of(repair).liveDeployment();
    assertEquals(1, planned.values().stream().map(LiveDeployment::boundary).distinct().count(), "one B: " + planned);
    assertTrue(planned.values().stream().noneMatch(LiveDeployment::exists), "planning creates nothing");

    // Deployed as the console's Backfill screen deploys it: its controller, the operator confirming the statement.
    dev.cutover.ui.Workspace workspace = new dev.cutover.ui.Workspace(new dev.cutover.ui.tasks.ImmediateTaskExecutor(),
        confirming());
    workspace.engineProperty().set(new dev.cutover.engine.Engine(session));
    workspace.specProperty().set(spec);
    workspace.openRepairProperty().set(repair);
    dev.cutover.ui.backfill.BackfillModel screen = new dev.cutover.ui.backfill.BackfillModel(workspace);
    new dev.cutover.ui.backfill.BackfillController(screen).deployView();
    assertEquals("", screen.writer().error());
    Map<ShardRef, LiveDeployment> deployed = ShardParts.of(repair).liveDeployment();
    HourPartition b = deployed.values().iterator().next().boundary();
    assertEquals(Optional.of(b), repair.snapshot(Optional.empty()).status().repair().orElseThrow().boundary(),
        "the one snapshot over every shard says B is pinned");
    assertEquals(planned.values().iterator().next().boundary(), b);
    assertTrue(deployed.values().stream().allMatch(LiveDeployment::exists), deployed.toString());
    assertTrue(deployed.values().stream().allMatch(d -> d.newestEvent().isBefore(b.start())), "B is in the future "
        + "on every shard");
    for (DemoNodes.Node node : nodes.all()) {
      assertTrue(viewExists(node, "pnl_v2_mv") && viewExists(node, "pnl_v2_fees_mv"), node.world() + ": one "
          + "corrected view per source");
    }
    repair.eachNode().forEach((s, r) -> assertEquals(Optional.of(b), r.repair().orElseThrow().boundary(),
        s + " pinned B"));
    assertEquals(deployed.keySet(), ShardParts.of(repair).deployLive().keySet(), "deploying again changes nothing");

    ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), s -> s.withBatchHours(6));
    assertEquals(b, plan.boundary(), "the deployments pinned B on every shard");
    assertEquals(b, plan.range().to());
    ClusterRun run = ShardParts.of(repair).backfill(cleared(plan), s -> BackfillEvent.Listener.NONE);
    Instant settled = ShortOverlap.settled(spec, b);
    for (boolean past = false; !past || !run.runs().values().stream().allMatch(h -> h.completion().isDone());
        past = !jobs.getFirst().state().clock().isBefore(settled)) {
      if (past) {
        // B has settled: the live jobs go on at a pace, no longer as fast as they can, which took the two cores
        // from the backfills the loop waits for.
        Thread.sleep(100);
      }
      jobs.forEach(LiveJob::step);
    }
    Map<ShardRef, RunRecord> ended = run.await();
    assertEquals(List.of(), ClusterRun.failed(ended));
    for (DemoNodes.Node node : nodes.all()) {
      assertEquals(0, mismatches(node), node.world() + ": v2 differs from the corrected transform of its own trades");
      assertTrue(count(node, "SELECT count() FROM " + node.world().pnlV2().sql() + " WHERE hour >= toDateTime(?, 'UTC')",
          b.epochSecond()) > 0, "the view wrote from B");
    }

    var verdict = ShardParts.of(repair).reconcile(Reconciliation.Scope.REPAIR, 100_000);
    assertTrue(verdict.green(), verdict.sentence());
    verdict.shards().forEach((s, r) -> assertEquals(List.of(), r.coverage(), s.toString()));

    var switched = ShardParts.of(repair).cutover("pnl", ShardParts.SwapListener.NONE);
    assertTrue(switched.values().stream().allMatch(r -> r.verified()), switched.toString());
    ShardParts.of(repair).rollback("pnl", java.util.Optional.empty(), ShardParts.SwapListener.NONE);
    for (DemoNodes.Node node : nodes.all()) {
      assertFalse(viewExists(node, "pnl_v2_mv") || viewExists(node, "pnl_v2_fees_mv"), "the rollback dropped "
          + node.world() + "'s corrected views");
      assertTrue(viewExists(node, "pnl_v1_mv") && viewExists(node, "pnl_v1_fees_mv"));
    }
  }

  @Test
  void aSilentShardRefusesTheDeploymentBeforeAnyShardIsChanged() {
    session.localCluster().orElseThrow().nodes().get(2).stop("the test stops shard 3");
    var refused = org.junit.jupiter.api.Assertions.assertThrows(dev.cutover.engine.api.StepRefusedException.class,
        () -> ShardParts.of(repair).deployLive());
    assertTrue(refused.getMessage().contains("shard 3"), refused.getMessage());
    for (DemoNodes.Node node : nodes.all().subList(0, 2)) {
      assertFalse(viewExists(node, "pnl_v2_mv") || viewExists(node, "pnl_v2_fees_mv"), node.world() + " has no "
          + "corrected view");
    }
  }



  /** The operator's answers: yes to every confirmation, nothing typed. */
  private static dev.cutover.ui.dialogs.DialogService confirming() {
    return (dev.cutover.ui.dialogs.DialogService) java.lang.reflect.Proxy.newProxyInstance(
        ShardedViewFedTest.class.getClassLoader(), new Class<?>[] {dev.cutover.ui.dialogs.DialogService.class},
        (proxy, method, args) -> method.getReturnType() == boolean.class ? Boolean.TRUE : Optional.empty());
  }

  private dev.cutover.engine.Preflighted cleared(ClusterPlan plan) {
    return dev.cutover.engine.testing.Procedure.clear(repair, plan);
  }

  /** Keys whose folded v2 row on a shard differs from the corrected transform of that shard's trades. */
  private static long mismatches(DemoNodes.Node node) {
    return CorrectedTransform.mismatches(new Sql(node.statements()), node.world());
  }

  private static long count(DemoNodes.Node node, String sql, Object... values) {
    return new Sql(node.statements()).queryLong("count", sql, values);
  }

  private static boolean viewExists(DemoNodes.Node node, String name) {
    return count(node, "SELECT count() FROM system.tables WHERE database = ? AND name = ?",
        node.world().database().name(), name) > 0;
  }
}
