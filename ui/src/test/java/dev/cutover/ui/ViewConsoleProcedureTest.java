package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Session;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The future-boundary procedure through the console, on a table that a materialized view feeds (a
 * SummingMergeTree appended to on every insert of clicks): deploy the corrected view from the Backfill
 * screen, plan and preflight with the B it pinned, watch the backfill wait for B to close while clicks
 * arrive, then its hours, the overlap, a green reconciliation, the cutover and the rollback that drops
 * the view. Writes a screenshot of the steps that differ from the job procedure.
 */
@ExtendWith(ApplicationExtension.class)
class ViewConsoleProcedureTest {

  /** The first hour after the seeded history: the "now" of the clicks when the test starts. */
  private static final HourPartition NOW = HourPartition.parse("now", "2026-11-29T00:00");

  private Database db;
  private Sql sql;
  private Path specFile;
  private CutoverConsole console;
  private Fx fx;
  private final ScriptedDialogs dialogs = new ScriptedDialogs();
  private HourPartition liveEdge;

  @BeforeEach
  void viewFedWorld() throws Exception {
    db = TestEngine.freshDatabase(ViewConsoleProcedureTest.class);
    sql = new Sql(db.dataSource());
    String database = db.profile().database();
    sql.execute("clicks", "CREATE TABLE clicks (ts DateTime('UTC'), site UInt8, user_id UInt32, duration_ms UInt32) "
        + "ENGINE = MergeTree PARTITION BY toYYYYMMDD(ts) ORDER BY ts");
    sql.execute("v1", "CREATE TABLE visits_v1 (hour DateTime('UTC'), site String, clicks UInt64, time_spent UInt64) "
        + "ENGINE = SummingMergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, site)");
    // v1's live writer, with the bug: every click's time counted twice.
    sql.execute("v1's view", "CREATE MATERIALIZED VIEW visits_v1_mv TO visits_v1 AS SELECT toStartOfHour(ts) AS hour, "
        + "toString(site) AS site, count() AS clicks, sum(duration_ms) * 2 AS time_spent FROM clicks "
        + "GROUP BY hour, site");
    sql.execute("consumers", "CREATE VIEW visits AS SELECT hour, site, clicks, time_spent FROM visits_v1");
    clicks(NOW.plusHours(-30), NOW);
    liveEdge = NOW.plusHours(-1);
    specFile = Files.createTempFile("visits-view-", ".yaml");
    Files.writeString(specFile, """
        spec: 1
        name: visits
        database: %s
        tables:
          live: visits_v1
          target: visits_v2
          consumer_view: visits
          live_view: visits_v2_mv
        time_column: hour
        keys: [site]
        measures: [clicks, time_spent]
        sources:
          - table: clicks
            time_column: ts
        transform: |
          SELECT toStartOfHour(ts) AS hour, toString(site) AS site, count() AS clicks, sum(duration_ms) AS time_spent
          FROM {clicks} WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site
        expected_differences:
          - name: time-counted-once
            where: v2.time_spent != 0
            delta:
              time_spent: -v2.time_spent
            why: v1's view counted every click's time twice.
        throttle:
          concurrency: 1
          batch_hours: 6
        boundary:
          safety_margin_hours: 1
        reconciliation:
          minimum_overlap_hours: 2
        """.formatted(database));
  }

  @AfterEach
  void close() throws Exception {
    if (console != null) {
      console.sessions().closeSession();
    }
    db.close();
    Files.deleteIfExists(specFile);
  }

  /** Clicks of every hour in {@code [from, to)}, inserted a few hours per statement as a feed would. */
  private void clicks(HourPartition from, HourPartition to) {
    for (HourPartition h = from; h.isBefore(to); h = h.plusHours(6).isBefore(to) ? h.plusHours(6) : to) {
      HourPartition end = h.plusHours(6).isBefore(to) ? h.plusHours(6) : to;
      long seconds = end.epochSecond() - h.epochSecond();
      sql.execute("clicks arrive", "INSERT INTO clicks SELECT toDateTime(?, 'UTC') + intDiv(number * 7919, 3) % ?, "
          + "number % 5, number % 997, 100 + number % 900 FROM numbers(?)", h.epochSecond(), seconds, seconds / 30);
    }
  }

  /** The clicks of the next hour arrive. */
  private void nextHour() {
    clicks(liveEdge.plusHours(1), liveEdge.plusHours(2));
    liveEdge = liveEdge.plusHours(1);
  }

  private void open(FxRobot robot) {
    console = new CutoverConsole();
    Path data = TestEngine.server().dataDirectory();
    ConsoleStartup startup = new ConsoleStartup("embedded ClickHouse (data: " + data + ")",
        progress -> Session.embedded(data, EngineLibrary.fromEnvironment(), progress)).withDefaultSpec(specFile);
    robot.interact(() -> {
      Stage stage = new Stage();
      Scene scene = console.createScene(startup, dialogs);
      stage.setScene(scene);
      stage.show();
      fx = new Fx(robot, scene);
    });
  }

  @Test
  void theCorrectedViewIsDeployedFromTheConsoleAndTheBackfillWaitsForItsBoundary(FxRobot robot) throws Exception {
    open(robot);
    fx.waitFor(60, () -> console.workspace().spec() != null, () -> fx.text("connection-state") + " / "
        + console.connection().specLoading().error());

    // 1. Nothing is planned behind the live edge: the banner says to deploy the view first.
    fx.click("nav-backfill");
    fx.waitFor(30, () -> fx.text("repair-next-button").equals("Backfill: Deploy the corrected view…"),
        () -> fx.text("repair-next-button") + " / " + fx.text("repair-next"));
    assertTrue(fx.text("live-writer-instructions").startsWith("visits_v1 is fed by a materialized view"),
        fx.text("live-writer-instructions"));
    assertEquals(Safety.DEPLOY_LIVE, fx.text("deploy-view-safety"));
    fx.shot("30-view-deploy");

    // 2. Deploy: B is the next whole hour after the newest click plus the margin of one hour.
    fx.click("deploy-view");
    HourPartition b = NOW.plusHours(1);
    fx.waitFor(30, () -> dialogs.asked.contains("deploy view from " + b), () -> dialogs.asked.toString()
        + " " + console.backfill().writer().error());
    fx.waitFor(30, () -> fx.node("deploy-view", Button.class).isDisabled() && fx.text("repair-phase")
        .equals("planned"), () -> fx.text("repair-phase") + " / " + console.backfill().writer().error());
    assertEquals(1L, sql.queryLong("the view", "SELECT count() FROM system.tables WHERE database = ? AND name = "
        + "'visits_v2_mv'", db.profile().database()));
    assertTrue(fx.text("live-writer-instructions").startsWith("The corrected view visits_v2_mv writes visits_v2 from "
        + "B = " + b + " UTC on"), fx.text("live-writer-instructions"));

    // 3. Plan and preflight: the pinned B, every check passes (the live writer is the deployed view).
    fx.click("nav-plan");
    fx.click("plan-make");
    fx.waitFor(30, () -> console.workspace().plan() != null, () -> console.plan().activity().error());
    assertEquals(b + " UTC", fx.text("plan-summary-boundary"));
    TabPane tabs = fx.node("plan-tabs", TabPane.class);
    fx.interact(() -> tabs.getSelectionModel().select(1));
    fx.click("preflight-run");
    fx.waitFor(60, () -> console.workspace().preflightProperty().get() != null,
        () -> console.plan().preflight().activity().error());
    PreflightReport report = console.workspace().preflightProperty().get().report();
    assertTrue(report.checks().stream().allMatch(c -> c.status() == PreflightReport.Status.PASS), report.toString());
    assertTrue(report.checks().stream().filter(c -> c.name().equals("live writer")).findFirst().orElseThrow().finding()
        .contains("which Cutover deployed with B = " + b), report.toString());

    // 4. Backfill: it waits for B to close, saying how long, and writes nothing meanwhile.
    fx.click("nav-backfill");
    fx.click("backfill-start");
    fx.waitFor(60, () -> fx.text("run-waiting").startsWith("Waiting for B = " + b + " to close"),
        () -> fx.text("run-state") + " " + fx.text("run-waiting") + " " + console.backfill().activity().error());
    assertTrue(fx.text("run-waiting").endsWith("the live edge is " + liveEdge + ", 3 hours to go. Nothing is "
        + "written meanwhile."),
        fx.text("run-waiting"));
    fx.shot("31-view-backfill-waits");
    String runId = console.workspace().engine().backfills().runs(console.workspace().spec()).getFirst().id();
    while (liveEdge.isBefore(b.plusHours(1))) {
      assertEquals(0, console.workspace().engine().backfills().ledger(runId).size(), "nothing before B closes");
      nextHour();
    }
    fx.waitFor(120, () -> console.backfill().drivenProperty().get() == null && fx.text("run-state").equals("Succeeded"),
        () -> fx.text("run-state") + " " + fx.text("run-message") + " " + fx.text("run-waiting"));
    assertEquals("", fx.text("run-waiting"));

    // 5. The overlap: both views write live for the spec's two hours since B.
    nextHour();
    nextHour();
    fx.waitFor(30, () -> fx.text("v2-status").equals("The corrected live writer has caught up with v1."),
        () -> fx.text("v2-status"));
    fx.shot("32-view-backfill-done");

    // 6. Reconcile: green, both versions summed per hour and key.
    fx.click("nav-reconcile");
    fx.click("reconcile-run");
    fx.waitFor(120, () -> console.reconcile().reportProperty().get() != null, () -> console.reconcile().activity().error());
    assertEquals("GREEN: every difference is explained, coverage is complete", fx.text("verdict"));

    // 7. Cutover: the gate requires the deployed view; the rollback drops it, and the gate closes.
    fx.click("nav-cutover");
    fx.waitFor(60, () -> console.cutover().gateProperty().get() != null && console.cutover().gateProperty().get()
        .open(), () -> console.cutover().activity().error() + " " + fx.text("gate-summary"));
    assertTrue(fx.node("gate-corrected-view", CheckBox.class).isSelected());
    fx.shot("33-view-cutover-gate");
    fx.click("cutover-run");
    fx.waitFor(60, () -> console.cutover().lastSwapProperty().get() != null, () -> console.cutover().activity().error());
    fx.waitFor(10, () -> fx.text("consumer-version").equals("Consumers of visits read v2 (visits_v2)."),
        () -> fx.text("consumer-version"));
    fx.click("rollback-run");
    fx.waitFor(60, () -> console.cutover().lastSwapProperty().get().action().equals("rollback"),
        () -> console.cutover().activity().error());
    assertEquals(0L, sql.queryLong("the view", "SELECT count() FROM system.tables WHERE database = ? AND name = "
        + "'visits_v2_mv'", db.profile().database()), "the rollback dropped the corrected view");
    fx.waitFor(30, () -> fx.node("gate-corrected-view", CheckBox.class) != null
        && !fx.node("gate-corrected-view", CheckBox.class).isSelected(), () -> fx.text("gate-summary"));
    fx.waitFor(30, () -> fx.text("repair-next-button").equals("Plan: Abandon repair…"), () -> fx.text("repair-next"));
    assertFalse(console.cutover().gateProperty().get().open());
    fx.shot("34-view-rolled-back");
    // The Backfill screen's card says what the next step says: the view is gone, nothing writes v2 from B.
    fx.click("nav-backfill");
    fx.waitFor(30, () -> fx.text("live-writer-instructions").startsWith("The corrected view visits_v2_mv that the "
        + "repair deployed does not exist any more"), () -> fx.text("live-writer-instructions"));
    assertTrue(fx.text("live-writer-instructions").contains("nothing writes visits_v2 live from B"),
        fx.text("live-writer-instructions"));
    assertTrue(fx.text("repair-next").contains("nothing writes visits_v2 live from B"), fx.text("repair-next"));
  }
}
