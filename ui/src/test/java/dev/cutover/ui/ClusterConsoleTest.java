package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.cluster.OverNodes;
import dev.cutover.engine.cluster.RunsOverShards;
import dev.cutover.engine.testing.ShardedWorld;
import dev.cutover.ui.backfill.HourStates.Cell;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.backfill.BackfillModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.TabPane;
import javafx.scene.control.ToggleButton;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The console on three embedded shards: a spec that names the cluster opens the Plan screen over every shard
 * (the slowest shard's live edge, one plan, every shard's preflight as one, a sample naming each key's shard);
 * the operator backfills every shard from the Backfill screen, one run under one id on every shard whose hours are
 * every shard's, merged, and declares the corrected live writer there; the banner reads the repair over every shard
 * as one snapshot; the operator reconciles on the Reconcile screen into one verdict over every shard; the Cutover screen judges every node's gate as one and switches every node all or nothing, each
 * node's line as it switches; a hole on one shard turns the verdict red naming that shard, and the Cutover screen
 * then shows the gate closed on that node and offers no cutover, every node still on v1; the
 * Reconcile screen shows the verdict over every shard with the charts and each key's shard, and History every
 * shard's runs and verdicts; the Plan screen abandons the repair on every shard; a node
 * that stops is named as not answering by the banner and the Backfill screen, never shown as read now.
 */
@ExtendWith(ApplicationExtension.class)
class ClusterConsoleTest {

  @TempDir Path dir;
  private ShardedWorld world;
  private CutoverConsole console;

  @AfterEach
  void close() {
    if (console != null) {
      console.sessions().closeSession();
      var repair = console.workspace().openRepairProperty().get();
      if (repair != null) {
        repair.close();
      }
    }
    if (world != null) {
      world.close();
    }
  }

  @Test
  void theOperatorRepairsEveryShardFromTheScreensOfOneServer(FxRobot robot) throws Exception {
    world = ShardedWorld.create(dir.resolve("cluster"), 3, 2);
    Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    ScriptedDialogs dialogs = new ScriptedDialogs();
    ConsoleStartup startup = new ConsoleStartup("embedded local cluster", progress -> Session.cluster(world.root, 3,
        EngineLibrary.fromEnvironment(), progress)).withDefaultSpec(spec)
        .withProfiles(new dev.cutover.engine.ProfileStore(dir.resolve("profiles.yaml")));
    ConsoleWindow window = ConsoleWindow.shown(robot, startup, dialogs);
    console = window.console();
    Fx fx = window.fx();
    BackfillModel backfill = console.backfill();
    fx.waitFor(90, () -> console.workspace().openRepairProperty().get() != null,
        () -> "spec: " + console.connection().specLoading().error());
    var repair = console.workspace().openRepairProperty().get();
    List<String> nodes = repair.nodes().stream().map(Object::toString).toList();
    assertFalse(fx.node("nav-backfill", ToggleButton.class).isDisabled(), "the Backfill screen opens on a cluster");

    // The Plan screen of one server serves the cluster: the live edge where the slowest shard stands, one plan of one
    // range and one B for every shard, and every shard's preflight read as one.
    assertFalse(fx.node("nav-plan", ToggleButton.class).isDisabled(), "the Plan screen opens on a cluster");
    fx.interact(() -> console.show("plan"));
    fx.waitFor(60, () -> !fx.text("plan-boundary").isEmpty(), () -> console.plan().activity().error());
    HourPartition slowest = world.shards.stream().map(w -> w.liveEdge).min(HourPartition::compareTo).orElseThrow();
    assertTrue(fx.text("plan-live-edge").startsWith(slowest + " UTC"), "the slowest shard's edge: "
        + fx.text("plan-live-edge"));
    fire(fx, "plan-make");
    fx.waitFor(120, () -> console.workspace().plan() != null, () -> console.plan().activity().error());
    var plan = console.workspace().plan();
    HourPartition b = plan.boundary();
    TabPane planTabs = fx.node("plan-tabs", TabPane.class);
    fx.interact(() -> planTabs.getSelectionModel().select(1));
    fire(fx, "preflight-run");
    fx.waitFor(120, () -> console.workspace().preflightProperty().get() != null,
        () -> console.plan().preflight().activity().error());
    var checked = console.workspace().preflightProperty().get();
    if (!checked.passed() && !console.plan().preflight().dependents().isEmpty()) {
      fx.interact(() -> console.plan().preflight().dependents().forEach(console.planController().preflight()::acknowledge));
      fire(fx, "preflight-run");
      fx.waitFor(120, () -> console.workspace().preflightProperty().get() != null
          && console.workspace().preflightProperty().get() != checked, () -> console.plan().preflight().activity().error());
    }
    var cleared = console.workspace().preflightProperty().get();
    assertTrue(cleared.passed(), String.join("\n", cleared.failures()));
    assertEquals(3, cleared.nodes().size(), "every shard's preflight");
    assertTrue(cleared.report().checks().stream().anyMatch(c -> c.name().equals("sharding")),
        "the cluster's own checks are in the one report: " + cleared.report().checks());
    window.fx().shot("48-cluster-preflight");

    // A sample of the fix over every shard: each hour's figures added, each key naming its shard.
    fx.interact(() -> planTabs.getSelectionModel().select(2));
    fx.interact(() -> console.plan().sample().hoursProperty().set(plan.hours().getFirst().toString()));
    fire(fx, "sample-run");
    fx.waitFor(120, () -> !console.plan().sample().hourRows().isEmpty(), () -> console.plan().sample().activity().error());
    long sampledRows;
    try (var entry = world.entry()) {
      sampledRows = entry.sql().queryLong("v1's rows of the hour over the cluster", "SELECT count() FROM "
          + "world.visits_v1_all WHERE hour = toDateTime(?, 'UTC')", plan.hours().getFirst().epochSecond());
    }
    assertEquals(sampledRows, console.plan().sample().hourRows().getFirst().rowsV1(), "every shard's rows of the hour");
    assertTrue(console.plan().sample().keyRows().stream().allMatch(k -> k.shard().isPresent()),
        console.plan().sample().keyRows().toString());

    // The Backfill screen of one server serves the cluster: every shard's part of one backfill at once, under one run
    // id, read as one run whose hours are every shard's.
    fx.interact(() -> console.show("backfill"));
    var asked = dialogs.askedBy(DialogService.BackfillRequest.class, () -> fire(fx, "backfill-start"));
    assertNotNull(asked, "the backfill is confirmed first");
    assertEquals(b, asked.boundary());
    assertEquals(plan.range().hours(), asked.hours(), "the hours each shard recomputes");
    assertTrue(asked.target().endsWith("on each of 3 shards of " + repair.spec().cluster().orElseThrow().name()),
        asked.target());
    fx.waitFor(240, () -> backfill.drivenProperty().get() == null && fx.text("run-state").equals("Succeeded"),
        () -> fx.text("run-state") + " " + fx.text("run-message") + " " + backfill.activity().error());
    long hours = plan.range().hours();
    fx.waitFor(30, () -> done(backfill) == hours, () -> "merged: " + done(backfill) + " of " + hours);
    assertEquals(0, backfill.progress().hours().count(Cell.FAILED));
    // The run list is read every two seconds (RunReading), apart from the run this screen drives: a read under way as
    // the run ended can show none yet.
    fx.waitFor(30, () -> !backfill.runs().isEmpty(), () -> "runs read: " + backfill.runs() + "; "
        + backfill.pollErrorProperty().get());
    assertEquals(1, backfill.runs().size(), "one run over every shard: " + backfill.runs());
    String runId = backfill.runs().getFirst().id();
    // Read as each shard keeps it (a read that fails under load is read again and its reason shown).
    fx.waitOffFx(30, () -> ranItsPart(repair, runId), () -> "every shard ran its part of run " + runId);
    long v2Rows;
    try (var entry = world.entry()) {
      v2Rows = entry.sql().queryLong("v2's rows of the range over the cluster", "SELECT count() FROM "
          + "world.visits_v2_all WHERE hour >= toDateTime(?, 'UTC') AND hour < toDateTime(?, 'UTC')",
          plan.range().from().epochSecond(), plan.range().to().epochSecond());
    }
    fx.waitFor(10, () -> backfill.progress().rowsProperty().get() == v2Rows, () -> "rows shown "
        + backfill.progress().rowsProperty().get() + ", the cluster's v2 holds " + v2Rows);
    // The run ends once every shard's part has let go of its repair: the banner's read at the run's end says
    // backfilled, as the run panel says succeeded (it judges every shard's gate again, slow on a loaded machine).
    try {
      fx.waitFor(60, () -> console.workspace().repair().panels().phaseProperty().get().equals("backfilled"),
          () -> "the banner over every shard: " + console.workspace().repair().panels().phaseProperty().get() + "; "
              + console.workspace().repair().errorProperty().get() + "; reading now: "
              + console.workspace().repair().readingProperty().get() + "; last read at "
              + java.util.Optional.ofNullable(console.workspace().repair().snapshotProperty().get()).map(s -> s.at()));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; each shard's record: " + recordsOf(repair), e);
    }
    window.fx().shot("41-cluster-backfilled");
    // One shard's part alone: the grid and the counts are that shard's own, then every shard's merged again.
    var partTwo = repair.nodes().get(1);
    long twoRows;
    try (var two = dev.cutover.engine.connect.Database.open(world.cluster().nodes().get(1).profile("cutover"))) {
      twoRows = two.sql().queryLong("v2's rows of the range on shard 2", "SELECT count() FROM world.visits_v2 "
          + "WHERE hour >= toDateTime(?, 'UTC') AND hour < toDateTime(?, 'UTC')", plan.range().from().epochSecond(),
          plan.range().to().epochSecond());
    }
    assertTrue(twoRows > 0 && twoRows < v2Rows, "shard 2 holds a part of v2: " + twoRows + " of " + v2Rows);
    @SuppressWarnings("unchecked")
    var choice = (javafx.scene.control.ChoiceBox<dev.cutover.engine.api.ShardRef>) fx.node("hours-shard",
        javafx.scene.control.ChoiceBox.class);
    assertTrue(fx.onFx(() -> shown(choice)), "a sharded table's hours can be shown per shard");
    fx.interact(() -> choice.setValue(partTwo));
    fx.waitFor(30, () -> backfill.progress().rowsProperty().get() == twoRows && done(backfill) == hours,
        () -> "shard 2 alone: rows " + backfill.progress().rowsProperty().get() + " (its v2 holds " + twoRows + "), "
        + done(backfill) + " of " + hours + " hours");
    assertEquals("Succeeded", fx.text("run-state"));
    fx.interact(() -> choice.setValue(null));
    fx.waitFor(30, () -> backfill.progress().rowsProperty().get() == v2Rows, () -> "merged again: rows "
        + backfill.progress().rowsProperty().get() + " of " + v2Rows);

    // The operator's own writer, declared on every shard from the Backfill screen: asked what was deployed and from
    // which B; the banner, which reads every shard as one, then says the repair waits for its first hour.
    fx.waitFor(30, () -> backfill.openBoundaryProperty().getValue().equals(java.util.Optional.of(b)),
        () -> "the repair's B, as the one snapshot over every shard says: " + backfill.openBoundaryProperty().getValue()
        + " " + console.workspace().repair().errorProperty().get());
    dialogs.declaredWriter = null;
    fire(fx, "declare-live-writer");
    String question = "declare world.visits_v2 on every shard of cluster " + repair.spec().cluster().orElseThrow()
        .name() + " (3 shards) from " + b;
    fx.waitFor(30, () -> dialogs.asked.contains(question) && !backfill.writer().running(), () -> dialogs.asked
        + " " + backfill.writer().error());
    assertTrue(repair.eachNode().values().stream().allMatch(st -> st.declaredWriter().isEmpty()),
        "declining the dialog declares nothing on any shard");
    dialogs.declaredWriter = "visits-job 4.2";
    fire(fx, "declare-live-writer");
    fx.waitOffFx(30, () -> repair.eachNode().values().stream().allMatch(st -> st.declaredWriter().isPresent()),
        () -> backfill.writer().error());
    fx.waitFor(30, () -> console.workspace().repair().statusProperty().get() != null && console.workspace().repair()
        .statusProperty().get().declaredWriter().isPresent(), () -> console.workspace().repair().errorProperty().get());
    assertTrue(fx.onFx(() -> shown(fx.node("repair-phase", javafx.scene.control.Label.class))),
        "the banner reads the sharded table's repair");
    // The banner still says backfilled.
    fx.waitFor(90, () -> console.workspace().repair().panels().phaseProperty().get().equals("backfilled"),
        () -> "the banner over every shard: " + console.workspace().repair().panels().phaseProperty().get() + "; "
            + console.workspace().repair().errorProperty().get());

    world.shards.forEach(w -> w.writeLiveV2(b, w.liveEdge.plusHours(1)));

    // The Reconcile screen of one server serves the cluster too: every shard reconciled, read as one over the whole
    // table, with the charts of the overlap and each differing key's shard named.
    assertFalse(fx.node("nav-reconcile", ToggleButton.class).isDisabled(), "the Reconcile screen opens on a cluster");
    fx.interact(() -> console.show("reconcile"));
    var reconcile = console.reconcile();
    fire(fx, "reconcile-run");
    fx.waitFor(120, () -> reconcile.reportProperty().get() != null && reconcile.reportProperty().get().verdict()
        .allowsCutover(), () -> reconcile.noteProperty().get() + " " + reconcile.activity().error());
    var over = reconcile.reportProperty().get();
    assertTrue(over.coverage().isEmpty(), "coverage complete on every shard: " + over.coverage());
    assertEquals(3, over.id().split("\\+").length, "one stored reconciliation of each shard: " + over.id());
    assertTrue(over.verdict().allowsCutover(), over.verdict().name());
    fx.waitFor(30, () -> console.workspace().repair().panels().phaseProperty().get().equals("reconciled"),
        () -> "the banner over every shard: " + console.workspace().repair().panels().phaseProperty().get());
    HourPartition looked = reconcile.selectedHourProperty().get();
    var hour = over.hours().stream().filter(h -> h.hour().equals(looked)).findFirst().orElseThrow();
    long rowsV2;
    try (var entry = world.entry()) {
      rowsV2 = entry.sql().queryLong("v2's rows over the cluster", "SELECT count() FROM world.visits_v2_all "
          + "WHERE hour = toDateTime(?, 'UTC')", looked.epochSecond());
    }
    assertEquals(rowsV2, hour.rowsV2(), "the hour's rows are those of every shard: " + looked);
    fx.waitFor(30, () -> !reconcile.shownKeys().isEmpty() && reconcile.shownKeys().stream()
        .allMatch(k -> k.shard().isPresent()), () -> reconcile.shownKeys().toString());
    var keyTable = fx.node("reconcile-keys", javafx.scene.control.TableView.class);
    assertTrue(((javafx.scene.control.TableView<?>) keyTable).getColumns().stream().anyMatch(c -> c.getText()
        .equals("Shard") && c.isVisible()), "the key table names each key's shard");
    String shardOne = nodes.getFirst();
    fx.interact(() -> reconcile.filterProperty().set(shardOne));
    fx.waitFor(10, () -> !reconcile.shownKeys().isEmpty() && reconcile.shownKeys().stream()
        .allMatch(k -> k.shard().orElseThrow().toString().equals(shardOne)), () -> reconcile.shownKeys().toString());
    fx.interact(() -> reconcile.filterProperty().set(""));
    window.fx().shot("45-cluster-reconcile-charts");

    // History lists every shard's run and verdicts, newest first, each line naming its shard.
    assertFalse(fx.node("nav-history", ToggleButton.class).isDisabled(), "the History screen opens on a cluster");
    fx.interact(() -> console.show("history"));
    var history = console.history();
    fx.waitFor(60, () -> history.runs().size() == 3 && history.reconciliations().size() >= 3,
        () -> history.runs() + " " + history.asOfProperty().get() + " " + history.activity().error());
    assertEquals(nodes.stream().sorted().toList(), history.runs().stream()
        .map(r -> r.shardWords()).sorted().toList(), "one run on each shard, each named by its shard");
    assertEquals(List.of(runId), history.runs().stream().map(r -> RunsOverShards.runOf(r.value().id())).distinct()
        .toList(), "each shard's part of the one run");
    assertTrue(history.runs().stream().allMatch(r -> r.value().boundary().equals(b)), "one B on every shard");
    assertEquals(3, history.reconciliations().stream().map(r -> r.shardWords()).distinct().count(),
        "the verdicts of every shard");
    assertTrue(history.audit().stream().map(a -> a.shardWords()).distinct().count() == 3, "every shard's audit trail");
    assertTrue(fx.node("history-runs", javafx.scene.control.TableView.class).getVisibleLeafColumns().stream()
        .anyMatch(c -> ((javafx.scene.control.TableColumn<?, ?>) c).getText().equals("Shard")));
    window.fx().shot("46-cluster-history");
    // The Cutover screen of one server serves the cluster too: every node's gate read as one (with one B on every
    // node), each node's line, and the switch of every node, all or nothing, each node's line as it switches.
    assertFalse(fx.node("nav-cutover", ToggleButton.class).isDisabled(), "the Cutover screen opens on a cluster");
    fx.interact(() -> console.show("cutover"));
    var cut = console.cutover();
    fx.waitFor(120, () -> cut.gateProperty().get() != null && cut.nodeLines().size() >= 3, () -> cut.nodeLines() + " "
        + cut.activity().error());
    assertTrue(cut.gateProperty().get().open(), () -> cut.gateProperty().get().refusal());
    assertTrue(cut.gateProperty().get().conditions().stream().anyMatch(c -> c.name().equals(OverNodes.ONE_B)
        && c.met() && c.detail().equals("B = " + b + " on all 3 nodes")), cut.gateProperty().get().toString());
    assertEquals(3, cut.nodeLines().stream().filter(l -> l.contains(": reads v1; cutover gate open")).count(),
        String.join("\n", cut.nodeLines()));
    assertTrue(fx.onFx(() -> shown(fx.node("cutover-nodes-card", javafx.scene.layout.VBox.class))));
    assertTrue(fx.node("drop-v1", javafx.scene.control.Button.class).isDisabled(), "no drop of v1 before the cutover");
    var swap = dialogs.askedBy(DialogService.SwapRequest.class, () -> fire(fx, "cutover-run"));
    assertTrue(swap.statement().startsWith("On each of the 3 nodes in turn"), swap.statement());
    assertEquals("visits_v2_all", swap.readsAfter(), "consumers read v2 through the cluster's table over every shard");
    fx.waitFor(120, () -> cut.swapLines().stream().anyMatch(l -> l.startsWith("Cutover done")),
        () -> cut.swapLines() + " " + cut.activity().error());
    assertEquals(3, cut.swapLines().stream().filter(l -> l.contains(": reads v2; verified")).count(),
        String.join("\n", cut.swapLines()));
    assertTrue(console.workspace().openRepairProperty().get().eachNode().values().stream()
        .allMatch(st -> st.reads() == dev.cutover.engine.api.Gate.Version.V2), "every node reads v2");
    fx.waitFor(60, () -> cut.gateProperty().get() != null && cut.gateProperty().get().step().equals("rollback"),
        () -> String.valueOf(cut.gateProperty().get()));
    assertTrue(cut.lastSwapProperty().get().verified(), cut.lastSwapProperty().get().verification());
    window.fx().shot("42-cluster-cut-over");
    // Every node reads v2: dropping v1 (on every node) and cleaning up staging are offered, as on one server.
    fx.waitFor(30, () -> !fx.node("drop-v1", javafx.scene.control.Button.class).isDisabled(), () -> "drop v1 is "
        + "offered once every node reads v2: " + fx.text("retention"));
    fire(fx, "cleanup-run");
    fx.waitFor(30, () -> !fx.text("cleanup-result").isEmpty(), () -> cut.activity().error());

    fire(fx, "rollback-run");
    fx.waitFor(120, () -> cut.swapLines().stream().anyMatch(l -> l.startsWith("Rollback done")),
        () -> cut.swapLines() + " " + cut.activity().error());
    fx.waitFor(60, () -> cut.gateProperty().get() != null && cut.gateProperty().get().step().equals("cutover")
        && cut.nodeLines().stream().filter(l -> l.contains(": reads v1;")).count() == 3, () -> cut.nodeLines()
        .toString());
    assertTrue(repair.eachNode().values().stream().allMatch(st -> st.reads() == dev.cutover.engine.api.Gate.Version.V1),
        "every node reads v1 again");
    fx.waitFor(30, () -> console.workspace().repair().panels().phaseProperty().get().equals("rolled back"),
        () -> "the banner over every shard: " + console.workspace().repair().panels().phaseProperty().get());

    // A hole on shard 2 alone: the verdict is red and names that shard, and no node switches.
    var two = world.shards.get(1).sql;
    long hole = two.queryLong("a backfilled hour of shard 2", "SELECT toUnixTimestamp(min(hour)) FROM visits_v2");
    two.execute("a hole in shard 2's v2", "ALTER TABLE visits_v2 DROP PARTITION ID '" + hole + "'");
    String shardTwo = nodes.get(1);
    fx.interact(() -> console.show("reconcile"));
    var green = reconcile.reportProperty().get();
    fire(fx, "reconcile-run");
    fx.waitFor(120, () -> reconcile.reportProperty().get() != green && reconcile.reportProperty().get() != null
        && !reconcile.reportProperty().get().verdict().allowsCutover(), () -> reconcile.noteProperty().get() + " "
        + reconcile.activity().error());
    var red = reconcile.reportProperty().get();
    assertTrue(!red.coverage().isEmpty() && red.coverage().stream().allMatch(c -> c.detail().startsWith(shardTwo + ": ")),
        "the hole is named on shard 2 alone: " + red.coverage());
    fx.waitFor(10, () -> fx.text("verdict").startsWith("RED"), () -> fx.text("verdict"));
    assertEquals(fx.text("verdict"), fx.drawn("verdict"), "the verdict is read whole at 1280 × 800, not cut off");
    window.fx().shot("43-cluster-hole-on-one-shard");
    // The Cutover screen then shows the gate closed on shard 2 alone, and offers no cutover: no node switches.
    fx.interact(() -> console.show("cutover"));
    fire(fx, "gate-refresh");
    fx.waitFor(120, () -> cut.gateProperty().get() != null && !cut.gateProperty().get().open()
        && cut.nodeLines().stream().anyMatch(l -> l.startsWith(shardTwo + ": reads v1; cutover gate closed")),
        () -> cut.nodeLines() + " " + cut.activity().error());
    assertEquals(2, cut.nodeLines().stream().filter(l -> l.contains("cutover gate open")).count(),
        String.join("\n", cut.nodeLines()));
    assertTrue(cut.gateProperty().get().unmet().stream().allMatch(c -> c.detail().contains(shardTwo)),
        cut.gateProperty().get().refusal());
    assertTrue(fx.node("cutover-run", javafx.scene.control.Button.class).isDisabled(), "no cutover is offered");
    window.fx().shot("47-cluster-gate-closed-on-one-node");
    // Given up on every shard from the Plan screen: the operator types the target's name and a reason.
    fx.interact(() -> console.show("plan"));
    fx.waitFor(30, () -> console.plan().repairProperty().get() != null, () -> "the repair on the Plan screen: "
        + console.plan().activity().error());
    var abandon = dialogs.askedBy(DialogService.AbandonRequest.class, () -> fire(fx, "repair-abandon"));
    assertEquals("visits_v2", abandon.table());
    fx.waitFor(60, () -> console.plan().repairProperty().get() == null, () -> console.plan().activity().error());
    assertTrue(repair.eachNode().values().stream().allMatch(st -> st.repair().orElseThrow().phase()
        == dev.cutover.engine.api.RepairPhase.ABANDONED), "abandoned on every shard");

    // Shard 3's node stops: the banner and the Backfill screen name it as not answering rather than showing what
    // they read before as read now.
    world.cluster().nodes().get(2).stop("the test stops shard 3");
    fx.interact(() -> console.show("backfill"));
    fx.waitFor(60, () -> fx.text("backfill-poll-error").contains(nodes.get(2)), () -> fx.text("backfill-poll-error"));
    // While the node shuts down, one read may still get every shard's record though not the data (the banner then
    // shows the record's phase and says it is the record's); once the node is gone, no phase is shown as read now.
    fx.waitFor(60, () -> console.workspace().repair().errorProperty().get().contains(nodes.get(2))
        && "unknown".equals(console.workspace().repair().panels().phaseProperty().get()),
        () -> "no phase is shown as read now: " + console.workspace().repair().panels().phaseProperty().get() + ", "
            + console.workspace().repair().errorProperty().get());
    window.fx().shot("44-cluster-one-silent");
  }

  /** Whether a node is drawn: it and every parent visible. */
  private static boolean shown(javafx.scene.Node n) {
    for (javafx.scene.Node at = n; at != null; at = at.getParent()) {
      if (!at.isVisible()) {
        return false;
      }
    }
    return n.getScene() != null;
  }

  /**
   * A cutover across nodes whose process ended after writing its intent on every node (a kill, a laptop that
   * slept) is finished by the console that opens the repair, not only by its Cutover screen or a command, and the
   * banner says what was found and done.
   */
  @Test
  void openingTheRepairFinishesASwapItsProcessLeftUnfinishedAndSaysSo(FxRobot robot) throws Exception {
    world = ShardedWorld.create(dir.resolve("cluster"), 3, 2);
    Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    dev.cutover.engine.cluster.LeftSwap.cutoverBeforeAnyNodeSwitched(world, world.spec());
    ConsoleStartup startup = new ConsoleStartup("embedded local cluster", progress -> Session.cluster(world.root, 3,
        EngineLibrary.fromEnvironment(), progress)).withDefaultSpec(spec)
        .withProfiles(new dev.cutover.engine.ProfileStore(dir.resolve("profiles.yaml")));
    ConsoleWindow window = ConsoleWindow.shown(robot, startup, new ScriptedDialogs());
    console = window.console();
    Fx fx = window.fx();
    fx.waitFor(90, () -> fx.text("repair-swap").contains("ended before any node switched; every node reads v1 as "
        + "before."), () -> "banner: " + fx.text("repair-summary") + " / " + fx.text("repair-swap"));
    assertTrue(fx.text("repair-swap").startsWith("Found at "), fx.text("repair-swap"));
    var repair = console.workspace().openRepairProperty().get();
    assertEquals(java.util.Optional.empty(), repair.finishUnfinishedSwap(), "the console finished it: none is left");
    // Said until the operator opens another spec or server, not only until the next read.
    console.workspace().repair().refresh();
    Thread.sleep(2 * dev.cutover.ui.repair.RepairWatch.PERIOD.toMillis());
    assertTrue(fx.text("repair-swap").contains("ended before any node switched"), fx.text("repair-swap"));
  }

  private static long done(BackfillModel model) {
    return model.progress().hours().count(Cell.WRITTEN) + model.progress().hours().count(Cell.EMPTIED);
  }

  private static void fire(Fx fx, String id) {
    Button b = fx.node(id, Button.class);
    fx.waitFor(30, () -> !b.isDisabled(), () -> "#" + id + " stays disabled");
    fx.interact(b::fire);
  }

  /** Whether every shard's latest run is its part of {@code runId}; a read that fails under load is read again. */
  /** Each shard's repair record and latest run as its node keeps them, read again: what a failed wait reports. */
  private static String recordsOf(dev.cutover.engine.TargetRepair repair) {
    try {
      return repair.eachNode().entrySet().stream().map(e -> e.getKey() + " " + e.getValue().repair().map(r -> r.phase()
          + " v" + r.version() + " held by " + r.operation().map(o -> o.action() + " " + o.runId()).orElse("none")
          + " (" + r.note() + ")").orElse("no record") + ", latest run " + e.getValue().latestRun()
          .map(r -> r.id() + " " + r.state()).orElse("none")).collect(java.util.stream.Collectors.joining("; "));
    } catch (RuntimeException e) {
      return "not read: " + e;
    }
  }

  private static boolean ranItsPart(dev.cutover.engine.TargetRepair repair, String runId) {
    try {
      return repair.eachNode().entrySet().stream().allMatch(e -> e.getValue().latestRun()
          .filter(run -> run.id().equals(RunsOverShards.partId(runId, e.getKey()))).isPresent());
    } catch (RuntimeException e) {
      return false;
    }
  }
}
