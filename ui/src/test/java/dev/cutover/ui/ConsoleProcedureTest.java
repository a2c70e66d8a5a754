package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.backfill.BackfillView;
import dev.cutover.ui.backfill.HourGrid;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.dialogs.DialogService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import javafx.beans.InvalidationListener;
import javafx.geometry.Bounds;
import javafx.scene.Scene;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The whole procedure through the console's screens, headless, on a real hourly world in the embedded
 * ClickHouse: connect, plan, preflight, sample, backfill, the corrected live writer, reconcile (green,
 * then red after an incident in v1, then acknowledged), cutover, rollback and history. Writes a
 * screenshot of every screen.
 */
@ExtendWith(ApplicationExtension.class)
class ConsoleProcedureTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(3, () -> console);
  private Scene scene;
  private Fx fx;
  private final ScriptedDialogs dialogs = new ScriptedDialogs();
  /** Where the demo's state says its corrected live writer was deployed from: by this console, or by another process. */
  private final java.util.concurrent.atomic.AtomicReference<HourPartition> deployedFrom =
      new java.util.concurrent.atomic.AtomicReference<>();


  private ConsoleStartup startup() {
    Path data = TestEngine.server().dataDirectory();
    return new ConsoleStartup("embedded ClickHouse (data: " + data + ")",
        progress -> Session.embedded(data, EngineLibrary.fromEnvironment(), progress))
        .withDefaultSpec(disk.specFile())
        .withProfiles(new ProfileStore(disk.specFile().resolveSibling("profiles-" + ProcessHandle.current().pid() + ".yaml")))
        .withDemo(new DemoControls() {
          @Override
          public String describe() {
            return "Test world: deploying writes v2's hours from B to the live edge with the corrected transform.";
          }

          @Override
          public LiveJobState liveJob() {
            return LiveJobState.STOPPED;
          }

          @Override
          public void startLiveJob() {
            throw new AssertionError("the procedure never starts the demo's live job");
          }

          @Override
          public void stopLiveJob() {}

          @Override
          public void deployV2(HourPartition from) {
            deployedFrom.set(from); // the live job writes v2 at its next step
            console.workspace().engine().repairs().declareLiveWriter(console.workspace().spec(),
                "the test world's live job"); // as the demo's does
          }

          @Override
          public Optional<HourPartition> deployedFrom() {
            return Optional.ofNullable(deployedFrom.get());
          }
        });
  }

  private void open(FxRobot robot) {
    console = new CutoverConsole();
    robot.interact(() -> {
      Stage stage = new Stage();
      scene = console.createScene(startup(), dialogs);
      stage.setScene(scene);
      stage.show();
    });
    fx = new Fx(robot, scene);
  }

  @Test
  void theWholeProcedureThroughTheScreens(FxRobot robot) throws Exception {
    open(robot);
    HourPartition boundary = disk.world().liveEdge.plusHours(-3);
    // Some hours have no clicks: the reprocessing window starts at the oldest hour that has some.
    HourPartition start = new Engine(disk.world().db).plans().reprocessingStart(disk.world().spec()).orElseThrow();

    // 1. Connection, with the default spec loaded once connected.
    fx.waitFor(60, () -> console.workspace().spec() != null, () -> fx.text("connection-state") + " / "
        + console.connection().specLoading().error());
    assertEquals("Connected", fx.text("connection-state"));
    assertFalse(fx.node("repair-banner", javafx.scene.Node.class).isVisible(), "no banner on the connection screen");
    assertTrue(fx.text("spec-summary").startsWith("visits: " + disk.world().database + ".visits_v1 (v1) is repaired into "
        + disk.world().database + ".visits_v2 (v2); consumers read visits."), fx.text("spec-summary"));
    assertFalse(fx.node("nav-plan", ToggleButton.class).isDisabled(), "the other screens open once a spec is loaded");
    fx.shot("03-connection-spec");

    // 2. Plan: the boundary proposed is the live edge minus the 3 h safety margin.
    fx.click("nav-plan");
    fx.waitFor(30, () -> !fx.text("plan-boundary").isEmpty(), () -> console.plan().activity().error());
    assertEquals(boundary.toString(), fx.text("plan-boundary"));
    assertEquals(disk.world().liveEdge + " UTC, caught up", fx.text("plan-live-edge"));
    assertEquals(start + " UTC (oldest hour every source holds)", fx.text("plan-window-start"));
    fx.click("plan-make");
    fx.waitFor(30, () -> console.workspace().plan() != null, () -> console.plan().activity().error());
    long hours = Duration.between(start.start(), boundary.start()).toHours();
    assertEquals(Formats.hours(hours) + " before the boundary, " + Formats.hours(hours) + " in the range",
        fx.text("plan-hours"));
    assertEquals(boundary + " UTC", fx.text("plan-summary-boundary"));
    // v2 holds none of the hours yet: the plan shows the first batch written straight into it.
    assertTrue(fx.text("plan-statements").contains("INSERT INTO `" + disk.world().database + "`.`visits_v2`"),
        fx.text("plan-statements"));
    assertEquals(Safety.PLAN, fx.text("plan-safety"));
    assertTrue(fx.node("plan-boundary", javafx.scene.control.TextField.class).isEditable(), "nothing is pinned yet");
    fx.waitFor(30, () -> fx.text("repair-phase").equals("no repair yet"), () -> fx.text("repair-phase"));
    assertEquals("Plan: Run preflight, then Backfill: Start", fx.text("repair-next-button"));
    fx.shot("04-plan");

    // 3. Preflight: every check passes.
    TabPane tabs = fx.node("plan-tabs", TabPane.class);
    fx.interact(() -> tabs.getSelectionModel().select(1));
    fx.click("preflight-run");
    fx.waitFor(60, () -> console.workspace().preflightProperty().get() != null,
        () -> console.plan().preflight().activity().error());
    PreflightReport report = console.workspace().preflightProperty().get().report();
    assertTrue(report.checks().stream().allMatch(c -> c.status() == PreflightReport.Status.PASS), report.toString());
    assertEquals(report.checks().size() + " checks: " + report.checks().size() + " passed, 0 warnings, 0 failed. "
        + "The backfill may start.", fx.text("preflight-summary"));
    assertEquals("PASS", fx.text("check-status-side-effects"));
    assertEquals(Safety.PREFLIGHT, fx.text("preflight-safety"));
    fx.shot("05-preflight");

    // 4. Sample: three hours, their totals and keys; every difference explained by the spec's rule.
    fx.interact(() -> tabs.getSelectionModel().select(2));
    assertFalse(fx.text("sample-hours").isBlank(), "the plan proposes sample hours");
    fx.click("sample-run");
    fx.waitFor(60, () -> !fx.node("sample-hour-table", TableView.class).getItems().isEmpty(),
        () -> console.plan().sample().activity().error());
    assertEquals(3, fx.node("sample-hour-table", TableView.class).getItems().size());
    TableView<?> sampleKeys = fx.node("sample-key-table", TableView.class);
    assertFalse(sampleKeys.getItems().isEmpty());
    assertTrue(sampleKeys.getItems().stream().allMatch(k -> ((Diff.KeyDiff) k).rule().equals(Optional.of("duration_units"))));
    assertTrue(fx.text("sample-summary").endsWith("Every difference is explained by a rule of the spec."),
        fx.text("sample-summary"));
    assertEquals(Safety.SAMPLE, fx.text("sample-safety"));
    fx.shot("06-sample");

    // 5. Backfill: the grid's counts match the ledger, and the grid stays where it is while the run starts, reports
    // and ends: a move would repaint it whole, in software a frame the FX thread waits for.
    fx.click("nav-backfill");
    WaitForAsyncUtils.waitForFxEvents();
    BackfillView backfillView = (BackfillView) console.currentView();
    HourGrid grid = backfillView.grid();
    // Where the grid lies within the screen (the repair banner above the screen moves the whole screen when
    // its own lines change, as at the repair's first phase; that is the banner's, not the screen's).
    Supplier<Bounds> place = () -> backfillView.root().sceneToLocal(grid.localToScene(grid.getLayoutBounds()));
    Bounds before = fx.onFx(place::get);
    List<String> gridMoves = new CopyOnWriteArrayList<>();
    InvalidationListener moved = o -> {
      Bounds now = place.get();
      if (!now.equals(before)) {
        gridMoves.add(now + " as the run said '" + console.backfill().progress().messageProperty().get() + "'");
      }
    };
    fx.interact(() -> {
      grid.layoutBoundsProperty().addListener(moved);
      grid.localToSceneTransformProperty().addListener(moved);
    });
    DialogService.BackfillRequest asked = dialogs.askedBy(DialogService.BackfillRequest.class,
        () -> fx.click("backfill-start"));
    assertEquals(hours, asked.hours());
    assertEquals(boundary, asked.boundary());
    fx.waitFor(120, () -> console.backfill().drivenProperty().get() == null
        && fx.text("run-state").equals("Succeeded"), () -> fx.text("run-state") + " " + fx.text("run-message")
        + " " + console.backfill().activity().error());
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(List.of(), gridMoves, "the hour grid kept its size and its place in the screen (" + before
        + ") through the run");
    Engine engine = console.workspace().engine();
    String runId = engine.backfills().runs(console.workspace().spec()).getFirst().id();
    assertEquals(RunState.SUCCEEDED, engine.backfills().run(runId).orElseThrow().state());
    var ledger = engine.backfills().ledger(runId);
    long written = ledger.values().stream().filter(e -> e.state() == LedgerEntry.State.WRITTEN).count();
    long emptied = ledger.values().stream().filter(e -> e.state() == LedgerEntry.State.EMPTIED).count();
    assertTrue(emptied > 0, "the world has hours without clicks");
    fx.waitFor(10, () -> fx.text("legend-written").equals("Written " + written), () -> fx.text("legend-written"));
    assertEquals("Emptied (no rows) " + emptied, fx.text("legend-emptied"));
    assertEquals("Pending 0", fx.text("legend-pending"));
    assertEquals("Failed 0", fx.text("legend-failed"));
    assertEquals("Owned by the live writer 4", fx.text("legend-live"), "B to the live edge, inclusive");
    assertEquals(Formats.count(hours) + " of " + Formats.hours(hours) + " done", fx.text("run-count"));
    // The Plan screen's preflight no longer says that the backfill may start: it started.
    assertTrue(console.plan().preflight().summaryProperty().get().matches(".* 0 failed\\. The backfill started from "
        + "this plan at \\d\\d:\\d\\d:\\d\\d UTC; run the preflight again before another\\."),
        console.plan().preflight().summaryProperty().get());
    assertEquals("No hour at or after B in v2 yet: the corrected live writer has not started.", fx.text("v2-status"));
    // The banner: the repair pinned B and backfilled its history; the corrected live writer is next.
    fx.waitFor(30, () -> fx.text("repair-phase").equals("backfilled")
        && fx.text("repair-next-button").equals("Backfill: Deploy the corrected writer"),
        () -> fx.text("repair-phase") + " / " + fx.text("repair-next-button") + " / " + fx.text("repair-summary")
            + " / the watch's error: " + fx.onFx(() -> console.workspace().repair().errorProperty().get())
            + ", its last snapshot: " + fx.onFx(() -> java.util.Optional.ofNullable(console.workspace().repair()
                .snapshotProperty().get()).map(x -> x.at() + " " + x.status().phase()).orElse("none")));
    String repairId = engine.repairs().current(console.workspace().spec()).orElseThrow().id();
    assertEquals("Repair " + repairId + " · B = " + boundary + " UTC · history from " + start + " UTC",
        fx.text("repair-summary"));
    assertTrue(fx.text("repair-next").startsWith("Deploy the corrected live writer so that it writes visits_v2 for "
        + "every hour from B = " + boundary + " on"), fx.text("repair-next"));
    assertEquals("The corrected live writer has not written v2 yet; it must start at B = " + boundary + ".",
        fx.text("repair-live-writer"));
    assertEquals("None over the whole repair yet; only that verdict can open the gate.", fx.text("repair-verdict"));
    assertTrue(fx.text("repair-as-of").matches("as of \\d\\d:\\d\\d:\\d\\d UTC"), fx.text("repair-as-of"));
    // Each card's guarantee in one line; its whole sentence once the operator asks why, and hidden again after.
    assertEquals(Safety.BACKFILL_BRIEF, fx.text("backfill-safety-brief"));
    assertEquals(Safety.LIVE_WRITER_BRIEF, fx.text("live-writer-safety-brief"));
    assertFalse(fx.onFx(() -> fx.node("backfill-safety", javafx.scene.control.Label.class).isVisible()), "the whole sentence waits for Why?");
    robot.clickOn("#backfill-safety-why");
    fx.waitFor(5, () -> fx.onFx(() -> fx.node("backfill-safety", javafx.scene.control.Label.class).isVisible()), () -> "Why? shows it");
    assertEquals(Safety.BACKFILL, fx.text("backfill-safety"));
    fx.shot("07c-backfill-why");
    robot.clickOn("#backfill-safety-why");
    fx.waitFor(5, () -> !fx.onFx(() -> fx.node("backfill-safety", javafx.scene.control.Label.class).isVisible()), () -> "Less hides it");
    assertEquals(Safety.LIVE_WRITER, fx.text("live-writer-safety"));

    // Point at an hour of the grid: its state is shown.
    pointAtFirstHour(robot, grid, start);
    assertEquals(fx.text("run-select"), fx.drawn("run-select"), "the run shown is read whole at 1280 × 800");
    fx.shot("07-backfill-done");

    // 6. The corrected live writer from B, through the demo controls; v2's live edge follows. First, another process
    // deployed the demo's writer from another hour: the card says so, and offers nothing the demo would refuse.
    javafx.scene.control.Button deploy = fx.node("deploy-live-writer", javafx.scene.control.Button.class);
    deployedFrom.set(boundary.plusHours(-1));
    fx.waitFor(30, () -> fx.text("v2-status").equals("The demo's corrected live writer was deployed from "
        + boundary.plusHours(-1) + " UTC, not from this B; its boundary never moves: reset the demo world (./cutover "
        + "demo seed) to deploy it from another.") && deploy.isDisabled(), () -> fx.text("v2-status"));
    deployedFrom.set(null);
    fx.waitFor(30, () -> !deploy.isDisabled(), () -> fx.text("v2-status"));
    fx.click("deploy-live-writer");
    fx.waitFor(30, () -> fx.text("v2-status").equals("Deployed from B: no hour at or after B in v2 yet; the live job "
        + "writes them, catching up first, at its next step once it runs.") && deploy.isDisabled(),
        () -> fx.text("v2-status"));
    // The banner agrees with the card: the declared writer is waited for, not asked for again.
    fx.waitFor(30, () -> fx.text("repair-next").startsWith("The corrected live writer (the test world's live job) was "
        + "declared deployed from B = " + boundary + " by ") && fx.text("repair-next-button").equals("Backfill"),
        () -> fx.text("repair-next-button") + " / " + fx.text("repair-next") + " / " + fx.text("writer-error"));
    disk.world().writeLiveV2(boundary, disk.world().liveEdge.plusHours(1)); // the live job's next step
    fx.waitFor(60, () -> fx.text("v2-status").equals("The corrected live writer has caught up with v1."),
        () -> fx.text("v2-status") + " " + fx.text("v2-edge"));
    assertEquals(disk.world().liveEdge + " UTC", fx.text("v2-edge"));
    assertEquals(disk.world().liveEdge + " UTC", fx.text("v1-edge"));
    assertTrue(fx.node("deploy-live-writer", javafx.scene.control.Button.class).isDisabled(),
        "once v2 holds hours from B on, there is nothing left to deploy");
    fx.waitFor(30, () -> fx.text("repair-next-button").equals("Reconcile: Reconcile"), () -> fx.text("repair-next"));
    // The side bar maps the procedure from the same status: plan and backfill done, reconcile next, cutover not yet.
    assertEquals(List.of("DONE", "DONE", "CURRENT", "NOT_YET"), steps(fx));
    assertTrue(fx.text("repair-live-writer").startsWith("The corrected live writer writes v2 from " + boundary
        + " = B, "), fx.text("repair-live-writer"));
    fx.shot("08-backfill-live-writer");

    // 7. Reconcile: green. The banner's next step is a button that takes the operator to its screen. Leaving the
    // backfill screen released every binding of its view.
    assertTrue(backfillView.binder().held() > 0);
    fx.click("repair-next-button");
    fx.waitFor(5, () -> console.currentScreen().equals("reconcile"), console::currentScreen);
    assertEquals(0, backfillView.binder().held(), "the backfill view let go of its model");
    fx.click("reconcile-run");
    fx.waitFor(120, () -> console.reconcile().reportProperty().get() != null, () -> console.reconcile().activity().error());
    assertEquals("GREEN: every difference is explained, coverage is complete", fx.text("verdict"));
    Reconciliation green = console.reconcile().reportProperty().get();
    assertEquals("Scope: the whole repair. Only a reconciliation of the whole repair opens the cutover gate: this one "
        + "can.", fx.text("reconcile-scope"));
    assertEquals(Safety.RECONCILE, fx.text("reconcile-safety"));
    // The banner: reconciled, with the window of the verdict that counts, and the cutover next.
    fx.waitFor(30, () -> fx.text("repair-phase").equals("reconciled")
        && fx.text("repair-next-button").equals("Cutover: Cut over…"), () -> fx.text("repair-phase") + " / "
        + fx.text("repair-next-button") + " / " + fx.text("repair-verdict"));
    assertEquals("Green over " + green.window() + ", " + Formats.hours(green.window().hours()) + "; the gate judges by "
        + "it.", fx.text("repair-verdict"));
    assertTrue(fx.text("repair-next").startsWith("The verdict over the whole repair allows the cutover"),
        fx.text("repair-next"));
    fx.shot("09-reconcile-green");
    // Compact on this screen, the banner's summary is its short form, read whole on its line: never cut short.
    assertEquals("Repair " + repairId + " · B = " + boundary + " UTC", fx.text("repair-summary"));
    assertEquals(fx.text("repair-summary"), fx.drawn("repair-summary"), "read whole at 1280 × 800, not cut off");
    assertEquals("Next: Cutover: Cut over…", fx.drawn("repair-next-short"), "the next step's button, whole");

    // An incident in v1: an hour appended twice. Red, until acknowledged with a reason.
    LedgerEntry incidentEntry = ledger.values().stream().filter(e -> e.state() == LedgerEntry.State.WRITTEN
        && e.rows() > 0 && !e.hour().isBefore(start.plusHours(8))).findFirst().orElseThrow();
    HourPartition incident = incidentEntry.hour();
    long incidentKeys = incidentEntry.rows();
    disk.world().sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        incident.epochSecond());
    fx.click("reconcile-run");
    fx.waitFor(120, () -> !console.reconcile().activity().running() && console.reconcile().reportProperty().get()
        .verdict() == Reconciliation.Verdict.RED, () -> fx.text("verdict"));
    assertEquals("RED: " + incidentKeys + " unexpected key difference(s)", fx.text("verdict"));
    fx.waitFor(30, () -> fx.text("repair-next-button").equals("Reconcile: Acknowledge…"), () -> fx.text("repair-next"));
    assertEquals(List.of("DONE", "DONE", "BLOCKED", "NOT_YET"), steps(fx), "a red verdict blocks the way on");
    assertTrue(fx.text("repair-verdict").startsWith("Red (" + incidentKeys + " unexpected key(s), 0 coverage issue(s))"),
        fx.text("repair-verdict"));
    assertEquals(incident, console.reconcile().selectedHourProperty().get(), "the first hour worth a look is shown");
    // The charts show the overlap since B; the incident is in the history before it. The whole window shows it.
    assertEquals("1 hour that needs a look is outside the view: Home shows the whole window.",
        fx.text("reconcile-window-outside"));
    fx.interact(() -> console.reconcile().window().whole());
    // Click another hour, then the incident's column of the coverage strip.
    var view = (dev.cutover.ui.reconcile.ReconcileView) console.currentView();
    clickHour(robot, view.delta(), start.plusHours(2));
    assertEquals(start.plusHours(2), console.reconcile().selectedHourProperty().get());
    clickHour(robot, view.coverage(), incident);
    assertEquals(incident, console.reconcile().selectedHourProperty().get());
    TableView<?> keys = fx.node("reconcile-keys", TableView.class);
    assertEquals(incidentKeys, keys.getItems().size());
    assertTrue(keys.getItems().stream().allMatch(k -> ((Diff.KeyDiff) k).kind() == Diff.Kind.DUPLICATE_IN_V1));
    robot.clickOn("#reconcile-filter").write("north");
    fx.waitFor(5, () -> keys.getItems().size() == 1, () -> keys.getItems().toString());
    fx.shot("10-reconcile-red");
    assertEquals(List.of(), fx.cutCells("reconcile-keys"), "every figure and header of the evidence is read whole");
    fx.atSize(1600, 1000, () -> {
      assertEquals(1600, fx.onFx(scene::getWidth), 1);
      fx.shot("10b-reconcile-red-1600x1000");
      assertEquals(List.of(), fx.cutCells("reconcile-keys"), "and on a larger display");
    });

    DialogService.AckRequest ack = dialogs.askedBy(DialogService.AckRequest.class, () -> fx.click("ack-hour"));
    assertEquals(incident, ack.hour());
    assertTrue(ack.key().isEmpty(), "the whole hour");
    assertTrue(ack.differences().startsWith(incidentKeys + " unexpected key(s): " + incidentKeys + " duplicate in v1; "
        + "sum of v2 - v1: ") && !ack.differences().matches(".*\\d\\.\\d{4,}.*"), "the dialog says what the "
        + "acknowledgement accepts, its sums as figures: " + ack.differences());
    fx.waitFor(120, () -> !console.reconcile().activity().running() && console.reconcile().reportProperty().get()
        .verdict() == Reconciliation.Verdict.ACKNOWLEDGED, () -> fx.text("verdict") + console.reconcile().activity().error());
    assertEquals("ACKNOWLEDGED: green with 1 accepted difference(s)", fx.text("verdict"));
    assertEquals("acknowledged", tableCell(keys, 0, 7));
    assertEquals("_Dark theme", fx.text("theme-toggle"));
    fx.click("theme-toggle");
    assertEquals("_Light theme", fx.text("theme-toggle"), "the button says what a click does");
    fx.shot("11-reconcile-acknowledged-dark");
    assertEquals(List.of(), fx.cutCells("reconcile-keys"), "the evidence is read whole in the dark theme too");
    assertEquals(fx.text("verdict"), fx.drawn("verdict"), "and so is the verdict");
    fx.click("theme-toggle");
    assertEquals("_Dark theme", fx.text("theme-toggle"));
    // Taken back with a reason, the hour is unexpected again; acknowledged again, green again.
    DialogService.WithdrawRequest withdraw = dialogs.askedBy(DialogService.WithdrawRequest.class,
        () -> fx.click("ack-withdraw"));
    assertEquals(incident, withdraw.hour());
    assertEquals(ack.differences(), withdraw.accepted());
    fx.waitFor(120, () -> !console.reconcile().activity().running() && console.reconcile().reportProperty().get()
        .verdict() == Reconciliation.Verdict.RED, () -> fx.text("verdict") + console.reconcile().activity().error());
    dialogs.askedBy(DialogService.AckRequest.class, () -> fx.click("ack-hour"));
    fx.waitFor(120, () -> !console.reconcile().activity().running() && console.reconcile().reportProperty().get()
        .verdict() == Reconciliation.Verdict.ACKNOWLEDGED, () -> fx.text("verdict") + console.reconcile().activity().error());
    Path csv = Files.createTempFile("reconciliation-", ".csv");
    dialogs.exportFile = csv;
    fx.click("export-csv");
    fx.waitFor(30, () -> fx.text("verdict-detail").endsWith("Wrote " + csv.toAbsolutePath() + "."),
        () -> fx.text("verdict-detail"));
    assertTrue(Files.readString(csv).startsWith("section,hour,owner,status,rows_v1,rows_v2"));
    Files.delete(csv);
    // The page for reviewers, with every key it kept in a CSV beside it.
    Path html = Files.createTempFile("reconciliation-", ".html");
    Path keysCsv = html.resolveSibling(html.getFileName().toString().replace(".html", ".csv"));
    dialogs.exportFile = html;
    fx.click("export-html");
    fx.waitFor(30, () -> fx.text("verdict-detail").endsWith("Wrote " + html.toAbsolutePath() + ", and every key it kept "
        + "to " + keysCsv.toAbsolutePath() + "."), () -> fx.text("verdict-detail"));
    assertTrue(Files.readString(html).contains("<svg"), "the page charts the measures");
    assertTrue(Files.readString(keysCsv).startsWith("section,hour,owner,status,rows_v1,rows_v2"));
    Files.delete(html);
    Files.delete(keysCsv);

    // The banner's next step goes to the Cutover screen with its Cut over… button focused (back, then by keyboard).
    fx.click("repair-next-short");
    fx.waitFor(5, () -> console.currentScreen().equals("cutover"), console::currentScreen);
    fx.waitFor(30, () -> fx.focusedId().equals("cutover-run"), fx::focusedId);
    fx.click("nav-reconcile");
    fx.waitFor(5, () -> console.currentScreen().equals("reconcile"), console::currentScreen);

    // 8. Cutover (reached by keyboard: Alt+T): the gate is open; the dialog shows the statement; the result is verified.
    robot.push(KeyCode.ALT, KeyCode.T);
    fx.waitFor(5, () -> console.currentScreen().equals("cutover"), console::currentScreen);
    fx.waitFor(60, () -> console.cutover().gateProperty().get() != null, () -> console.cutover().activity().error());
    assertEquals("Cutover gate", fx.text("gate-title"));
    assertEquals("Cutover gate open: every condition is met", fx.text("gate-summary"));
    for (String condition : new String[] {"repair", "consumers-read-v1", "no-backfill-running", "v2-caught-up",
        "verdict", "data-now", "live-writer-from-B", "overlap", "Atomic-database"}) {
      assertTrue(fx.node("gate-" + condition, CheckBox.class).isSelected(), condition);
    }
    assertTrue(fx.text("gate-judged").startsWith("The gate checked the data of "), fx.text("gate-judged"));
    assertEquals(Safety.CUTOVER, fx.text("gate-safety"));
    assertEquals(Safety.DROP_V1, fx.text("drop-safety"));
    assertFalse(fx.node("cutover-run", javafx.scene.control.Button.class).isDisabled());
    assertTrue(fx.node("rollback-run", javafx.scene.control.Button.class).isDisabled(), "no rollback before a cutover");
    for (String dangerous : List.of("cutover-run", "rollback-run", "drop-v1")) {
      assertTrue(fx.node(dangerous, javafx.scene.control.Button.class).getStyleClass().contains("danger"),
          dangerous + " is styled as dangerous, unlike Refresh gate beside it");
    }
    assertFalse(fx.node("gate-refresh", javafx.scene.control.Button.class).getStyleClass().contains("danger"));
    fx.shot("12-cutover-gate");
    fx.atSize(1600, 1000, () -> fx.shot("12e-cutover-gate-1600x1000"));
    DialogService.SwapRequest swap = dialogs.askedBy(DialogService.SwapRequest.class, () -> fx.click("cutover-run"));
    assertEquals("EXCHANGE TABLES `" + disk.world().database + "`.`visits` AND `" + disk.world().database + "`.`visits__next`",
        swap.statement());
    assertEquals("visits", swap.consumerView());
    assertTrue(swap.server().startsWith("ClickHouse ") && swap.server().contains(" at "), "the confirmation names "
        + "the server: " + swap.server());
    fx.waitFor(60, () -> console.cutover().lastSwapProperty().get() != null, () -> console.cutover().activity().error());
    assertTrue(fx.text("swap-verification").startsWith("verified: visits returns visits_v2's rows for "),
        fx.text("swap-verification"));
    assertEquals("consumers read V1 before, V2 after", fx.text("swap-versions"));
    fx.waitFor(10, () -> fx.text("consumer-version").equals("Consumers of visits read v2 (visits_v2)."),
        () -> fx.text("consumer-version"));
    // Consumers read v2: the rollback gate is shown, open, and the headline says what is true.
    assertEquals("Rollback gate", fx.text("gate-title"));
    assertNull(fx.node("gate-consumers-read-v1", CheckBox.class), "the cutover gate is no longer shown");
    for (String condition : new String[] {"repair", "consumers-read-v2", "v1-kept", "rollback-handle",
        "Atomic-database"}) {
      assertTrue(fx.node("gate-" + condition, CheckBox.class).isSelected(), condition);
    }
    assertTrue(fx.text("retention").contains("v1 and the rollback stay until"), fx.text("retention"));
    var cutAt = console.cutover().retentionProperty().get().cutoverAt().orElseThrow();
    var keepUntil = console.cutover().retentionProperty().get().keepUntil().orElseThrow();
    assertEquals("Consumers read v2 since " + Formats.time(cutAt) + "; rollback possible until "
        + Formats.time(keepUntil), fx.text("gate-summary"));
    assertTrue(fx.node("gate-summary", javafx.scene.control.Label.class).getStyleClass().contains("good"));
    assertEquals(Safety.ROLLBACK, fx.text("gate-safety"));
    assertTrue(fx.node("cutover-run", javafx.scene.control.Button.class).isDisabled(), "no second cutover");
    assertFalse(fx.node("rollback-run", javafx.scene.control.Button.class).isDisabled());
    fx.waitFor(30, () -> fx.text("repair-phase").equals("cut over"), () -> fx.text("repair-phase"));
    assertEquals("Cutover: Roll back… or Drop v1…", fx.text("repair-next-button"));
    fx.shot("13-cutover-done");

    assertEquals("rollback", dialogs.askedBy(DialogService.SwapRequest.class, () -> fx.click("rollback-run")).action());
    fx.waitFor(60, () -> console.cutover().lastSwapProperty().get().action().equals("rollback"),
        () -> console.cutover().activity().error());
    assertEquals("consumers read V2 before, V1 after", fx.text("swap-versions"));
    assertEquals("Consumers of visits read v1 (visits_v1).", fx.text("consumer-version"));
    assertEquals("Cutover gate", fx.text("gate-title"));
    // After the rollback the headline says what is true: consumers read v1 again, since the rollback.
    var rolledBackAt = console.cutover().lastSwapProperty().get().at();
    // Not green: a rollback took a fix back, and cutting over again is a decision, not the obvious next click.
    assertEquals("Consumers read v1 again since " + Formats.time(rolledBackAt) + " (rolled back). The cutover gate is "
        + "open; cut over again only once what the rollback was for is understood", fx.text("gate-summary"));
    assertTrue(fx.node("gate-summary", javafx.scene.control.Label.class).getStyleClass().contains("warn"));
    fx.waitFor(30, () -> fx.text("repair-phase").equals("rolled back"), () -> fx.text("repair-phase"));
    // The next step says why consumers went back, and that cutting over again waits on understanding it.
    fx.waitFor(10, () -> fx.text("repair-next").contains("the cutover was rolled back (reason: "
        + dialogs.rollbackReason + ")"), () -> fx.text("repair-next"));
    assertTrue(fx.text("repair-next").contains("only once what the rollback was for is understood"),
        fx.text("repair-next"));
    fx.click("cleanup-run");
    fx.waitFor(30, () -> !fx.text("cleanup-result").isEmpty(), () -> console.cutover().activity().error());
    assertEquals("Nothing to drop: no staging or sample table is left.", fx.text("cleanup-result"));
    fx.shot("14-rollback");

    // Another console cuts over, then rolls back, while this screen stays shown: within its next looks the screen
    // judges the gate again and follows, never saying consumers read a version they no longer read.
    Engine other = new Engine(TestEngine.session().database());
    var otherSpec = other.specs().load(disk.specFile());
    other.cutovers().cutover(otherSpec, "visits");
    fx.waitFor(20, () -> fx.text("gate-title").equals("Rollback gate") && !console.cutover().activity().running(),
        () -> fx.text("gate-title") + " / " + fx.text("consumer-version"));
    assertEquals("Consumers of visits read v2 (visits_v2).", fx.text("consumer-version"));
    fx.waitFor(10, () -> fx.text("repair-phase").equals("cut over"), () -> fx.text("repair-phase"));
    other.cutovers().rollback(otherSpec, "visits");
    fx.waitFor(20, () -> fx.text("gate-title").equals("Cutover gate") && !console.cutover().activity().running(),
        () -> fx.text("gate-title") + " / " + fx.text("consumer-version"));
    fx.waitFor(10, () -> fx.text("repair-phase").equals("rolled back"), () -> fx.text("repair-phase"));

    // 9. History (Ctrl+6): the run, the five reconciliations (green, red, acknowledged, red once withdrawn,
    // acknowledged again), and the audit trail of what was done.
    robot.push(KeyCode.SHORTCUT, KeyCode.DIGIT6);
    fx.waitFor(5, () -> console.currentScreen().equals("history"), console::currentScreen);
    fx.waitFor(30, () -> !fx.node("history-audit", TableView.class).getItems().isEmpty(),
        () -> console.history().activity().error());
    assertEquals(1, fx.node("history-runs", TableView.class).getItems().size());
    assertEquals(5, fx.node("history-reconciliations", TableView.class).getItems().size());
    var actions = console.history().audit().stream().map(a -> a.value().action()).toList();
    assertTrue(actions.containsAll(java.util.List.of("start", "acknowledge", "withdraw acknowledgement", "reconcile",
        "cutover", "rollback")),
        actions.toString());
    assertTrue(console.history().audit().stream().anyMatch(a -> a.value().action().equals("rollback")
        && a.value().detail().endsWith("Reason: " + dialogs.rollbackReason)), "the reason written in the dialog is in "
        + "the audit trail, beside the rollback");
    fx.shot("15-history");
    assertEquals(List.of(), fx.cutCells("history-reconciliations"), "every count of a verdict is read whole");

    // 10. Cut over again, then drop v1 before its retention horizon: only with the table's name typed and a reason.
    robot.push(KeyCode.ALT, KeyCode.T);
    fx.waitFor(5, () -> console.currentScreen().equals("cutover"), console::currentScreen);
    fx.waitFor(60, () -> console.cutover().gateProperty().get() != null && !console.cutover().activity().running(),
        () -> console.cutover().activity().error());
    assertTrue(fx.node("drop-v1", javafx.scene.control.Button.class).isDisabled(), "no drop while consumers read v1");
    fx.click("cutover-run");
    fx.waitFor(60, () -> console.cutover().lastSwapProperty().get().action().equals("cutover"),
        () -> console.cutover().activity().error());
    fx.waitFor(10, () -> !fx.node("drop-v1", javafx.scene.control.Button.class).isDisabled(), () -> "drop enabled");
    DialogService.DropRequest drop = dialogs.askedBy(DialogService.DropRequest.class, () -> fx.click("drop-v1"));
    assertTrue(drop.early(), "the retention horizon has not passed");
    assertEquals(disk.world().database + ".visits_v1", drop.table());
    assertEquals("DROP VIEW IF EXISTS `" + disk.world().database + "`.`visits__next`;\nDROP TABLE IF EXISTS `" + disk.world().database
        + "`.`visits_v1`", drop.statement());
    fx.waitFor(60, () -> !fx.text("drop-result").isEmpty(), () -> console.cutover().activity().error());
    assertEquals("Dropped " + disk.world().database + ".visits__next and " + disk.world().database + ".visits_v1. Consumers read "
        + "visits_v2; there is no rollback any more.", fx.text("drop-result"));
    assertEquals(0L, disk.world().sql.queryLong("v1 is gone", "SELECT count() FROM system.tables WHERE database = ? AND name = ?",
        disk.world().database, "visits_v1"));
    assertEquals("Consumers of visits read v2 (visits_v2).", fx.text("consumer-version"));
    assertTrue(fx.node("rollback-run", javafx.scene.control.Button.class).isDisabled(), "no rollback without v1");
    assertTrue(fx.text("retention").endsWith("there is no rollback any more."), fx.text("retention"));
    assertEquals("Cut over for good: v1 is dropped", fx.text("gate-summary"));
    fx.waitFor(30, () -> fx.text("repair-phase").equals("v1 dropped"), () -> fx.text("repair-phase") + ": "
        + fx.text("repair-summary"));
    assertFalse(fx.node("repair-next-button", javafx.scene.control.Button.class).isVisible(), "nothing left to press");
    assertEquals(List.of("DONE", "DONE", "DONE", "DONE"), steps(fx), "the procedure is done");
    fx.shot("20-v1-dropped");
    var dropAudit = console.workspace().engine().repairs().audit(null, 100).stream()
        .filter(a -> a.action().equals("drop-v1")).map(dev.cutover.engine.api.AuditEntry::detail).toList();
    assertEquals(1, dropAudit.size());
    assertTrue(dropAudit.getFirst().contains(dialogs.dropReason), dropAudit.getFirst());
  }

  /**
   * Points at the grid's first hour until its state shows: the grid's cells follow its size, which may
   * still change while the mouse travels (the screen settles after a read of the repair arrives).
   */
  private void pointAtFirstHour(FxRobot robot, dev.cutover.ui.backfill.HourGrid grid, HourPartition first) {
    // The grid is the screen's last card: at 1280 × 800 the operator scrolls down to it, as the robot does here.
    fx.interact(() -> {
      for (javafx.scene.Node n = grid; n != null; n = n.getParent()) {
        if (n instanceof javafx.scene.control.ScrollPane scroll) {
          scroll.setVvalue(scroll.getVmax());
        }
      }
    });
    for (int attempt = 1; ; attempt++) {
      robot.moveTo(fx.onFx(() -> grid.localToScreen(grid.getWidth() + 4, 2)));
      double[] at = fx.onFx(() -> grid.centreOf(0));
      robot.moveTo(fx.onFx(() -> grid.localToScreen(at[0], at[1])));
      try {
        fx.waitFor(3, () -> fx.text("hour-hover").startsWith(first + " UTC: "), () -> fx.text("hour-hover"));
        return;
      } catch (AssertionError e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
  }

  private void clickHour(FxRobot robot, javafx.scene.layout.Region canvas, HourPartition hour) {
    double x = fx.onFx(() -> canvas instanceof dev.cutover.ui.reconcile.DeltaChart d ? d.centreOf(hour)
        : ((dev.cutover.ui.reconcile.CoverageStrip) canvas).centreOf(hour));
    robot.clickOn(fx.onFx(() -> canvas.localToScreen(x, canvas.getHeight() / 2)));
    org.testfx.util.WaitForAsyncUtils.waitForFxEvents();
  }

  private String tableCell(TableView<?> table, int row, int column) {
    return fx.onFx(() -> String.valueOf(table.getVisibleLeafColumns().get(column).getCellData(row)));
  }


  /** Where the side bar says each procedure screen stands: its number's style, as the operator sees it. */
  private static List<String> steps(Fx fx) {
    return fx.onFx(() -> dev.cutover.ui.repair.ProcedureMap.SCREENS.stream().map(id -> fx.node("nav-" + id,
        javafx.scene.control.ToggleButton.class).getGraphic().getStyleClass().stream().filter(c -> c.startsWith("step-"))
        .findFirst().map(c -> c.substring(5).toUpperCase(java.util.Locale.ROOT).replace('-', '_')).orElse("NONE"))
        .toList());
  }
}
