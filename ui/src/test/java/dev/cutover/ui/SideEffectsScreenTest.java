package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.dialogs.FxDialogService;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Replay effect suppression in the console: a view on v1 is acknowledged on the Plan screen with the
 * operator's reason (a declined question acknowledges nothing), the reason shows until it is taken back,
 * and once the backfill started the History screen shows who acknowledged it, when, and why.
 */
@ExtendWith(ApplicationExtension.class)
class SideEffectsScreenTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(2, () -> console);
  private final ScriptedDialogs dialogs = new ScriptedDialogs();

  @Test
  void theQuestionAsksForOneLineAndOffersNoAcknowledgementWhileItIsBlank(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<String>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = FxDialogService.acknowledgeSideEffectDialog(new DialogService.SideEffectRequest("trading.pnl_alerts_mv",
          "pnl_v1", "trading.pnl_v2"));
      d[0].show();
    });
    assertEquals("Let trading.pnl_alerts_mv see the replayed history", d[0].getHeaderText());
    Node ok = robot.lookup("#side-effect-ok").query();
    assertTrue(ok.isDisabled(), "no reason typed: nothing to acknowledge");
    robot.interact(() -> robot.lookup("#side-effect-reason").queryTextInputControl().setText("   "));
    assertTrue(ok.isDisabled(), "blanks are no reason");
    robot.interact(() -> robot.lookup("#side-effect-reason").queryTextInputControl()
        .setText(" it fires on inserts into pnl_v1 only "));
    assertFalse(ok.isDisabled());
    robot.interact(() -> ((Button) ok).fire());
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("it fires on inserts into pnl_v1 only", d[0].getResult());
  }

  @Test
  void aViewOnV1IsAcknowledgedWithAReasonThatHistoryShowsOnceTheBackfillStarted(FxRobot robot) {
    disk.world().sql.execute("an alerting view", "CREATE MATERIALIZED VIEW visits_alerts_mv ENGINE = MergeTree ORDER BY "
        + "site AS SELECT site, clicks FROM visits_v1 WHERE clicks > 100");
    String name = disk.world().database + ".visits_alerts_mv";
    String id = name.replace('.', '-');
    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    Fx fx = window.fx();
    fx.click("nav-plan");
    fx.waitFor(30, () -> !fx.text("plan-boundary").isEmpty(), () -> console.plan().activity().error());
    fx.click("plan-make");
    fx.waitFor(30, () -> console.workspace().plan() != null, () -> console.plan().activity().error());
    TabPane tabs = fx.node("plan-tabs", TabPane.class);
    fx.interact(() -> tabs.getSelectionModel().select(1));
    Preflighted blocked = preflight(fx, null);
    assertFalse(blocked.passed());
    assertEquals("FAIL", fx.text("check-status-side-effects"));
    fx.waitFor(10, () -> fx.node("ack-" + id, Button.class) != null, () -> "no Acknowledge… for " + name);

    // Declined: the dependent stays unacknowledged, and the preflight still blocks the backfill.
    dialogs.sideEffectReason = null;
    DialogService.SideEffectRequest asked = dialogs.askedBy(DialogService.SideEffectRequest.class,
        () -> fx.click("ack-" + id));
    assertEquals(new DialogService.SideEffectRequest(name, "visits_v1", disk.world().database + ".visits_v2"), asked);
    assertNotNull(fx.node("ack-" + id, Button.class), "still to acknowledge");
    assertNull(fx.node("ack-reason-" + id, Label.class), "no reason shown");
    Preflighted again = preflight(fx, blocked);
    assertFalse(again.passed());
    assertFalse(again.report().dependents().getFirst().acknowledged());

    // Answered: the reason shows with a way to take it back, and the preflight passes with it.
    String why = "its alerts go to a test channel nobody reads";
    dialogs.sideEffectReason = why;
    dialogs.askedBy(DialogService.SideEffectRequest.class, () -> fx.click("ack-" + id));
    fx.waitFor(10, () -> fx.node("ack-reason-" + id, Label.class) != null, () -> "the reason is not shown");
    assertEquals("acknowledged: " + why, fx.text("ack-reason-" + id));
    assertNull(fx.node("ack-" + id, Button.class), "acknowledged once");
    Preflighted passed = preflight(fx, again);
    assertTrue(passed.passed(), passed.report().failures().toString());
    assertEquals("WARN", fx.text("check-status-side-effects"));

    // Taken back, then given again: the backfill starts only from a preflight with the reason as it stands.
    fx.click("ack-take-back-" + id);
    fx.waitFor(10, () -> fx.node("ack-" + id, Button.class) != null, () -> "not taken back");
    assertNull(console.workspace().preflightProperty().get(), "the passing preflight no longer clears the backfill");
    dialogs.askedBy(DialogService.SideEffectRequest.class, () -> fx.click("ack-" + id));
    fx.waitFor(10, () -> fx.node("ack-reason-" + id, Label.class) != null, () -> "the reason is not shown");
    assertTrue(preflight(fx, null).passed());

    // The backfill starts from it; the History screen shows who acknowledged the view, when, and why.
    fx.click("nav-backfill");
    dialogs.askedBy(DialogService.BackfillRequest.class, () -> fx.click("backfill-start"));
    fx.waitFor(120, () -> console.backfill().drivenProperty().get() == null && fx.text("run-state").equals("Succeeded"),
        () -> fx.text("run-state") + " " + fx.text("run-message") + " " + console.backfill().activity().error());
    String runId = console.workspace().engine().backfills().runs(console.workspace().spec()).getFirst().id();
    fx.click("nav-history");
    // The side effects share the lower part of the screen with the audit trail, as a tab of their own.
    fx.interact(() -> fx.node("history-trails", javafx.scene.control.TabPane.class).getSelectionModel().select(1));
    fx.waitFor(30, () -> fx.onFx(() -> fx.node("history-side-effects", TableView.class) != null
        && fx.node("history-side-effects", TableView.class).getItems().size() == 1),
        () -> console.history().activity().error() + "; the table: " + fx.node("history-side-effects", TableView.class)
            + "; the tab selected: " + fx.node("history-trails", javafx.scene.control.TabPane.class).getSelectionModel()
            .getSelectedIndex() + "; " + console.history().sideEffects().size());
    TableView<?> table = fx.node("history-side-effects", TableView.class);
    SideEffectAcknowledgement shown = fx.onFx(() -> ((dev.cutover.engine.api.OnNode<?>) table.getItems().getFirst())
        .value() instanceof SideEffectAcknowledgement a ? a : null);
    assertEquals(System.getProperty("user.name"), shown.actor());
    assertEquals(runId, shown.runId());
    assertEquals(java.util.List.of(dev.cutover.ui.common.Formats.time(shown.at()), shown.actor() + "@" + shown.host(),
        name + " (reads visits_v1)", runId, why), fx.onFx(() -> java.util.stream.IntStream.range(0, 5)
            .mapToObj(c -> String.valueOf(table.getVisibleLeafColumns().get(c).getCellData(0))).toList()),
        "when, who, the dependent, the run and the reason");
  }

  /** Runs the preflight and waits for a result other than {@code before}. */
  private Preflighted preflight(Fx fx, Preflighted before) {
    fx.click("preflight-run");
    fx.waitFor(60, () -> {
      Preflighted now = console.workspace().preflightProperty().get();
      return now != null && now != before && !console.plan().preflight().activity().running();
    }, () -> console.plan().preflight().activity().error());
    Preflighted now = console.workspace().preflightProperty().get();
    assertEquals(1, now.report().dependents().size(), now.report().dependents().toString());
    PreflightReport.Dependent only = now.report().dependents().getFirst();
    assertEquals(only.acknowledged(), now.passed(), "the view is what decides");
    return now;
  }
}
