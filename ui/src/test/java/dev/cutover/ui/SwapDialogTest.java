package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Gate;
import dev.cutover.ui.dialogs.DialogService.GateCheck;
import dev.cutover.ui.dialogs.DialogService.Confirmed;
import dev.cutover.ui.dialogs.DialogService.SwapRequest;
import dev.cutover.ui.dialogs.SwapDialog;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.scene.Node;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The cutover confirmation: the exact statement, the versions, the gate judged again as it opens, and
 * OK only once that gate is open and the view's name is typed.
 */
@ExtendWith(ApplicationExtension.class)
class SwapDialogTest {

  private static final String SERVER = "profile prod-eu: ClickHouse 26.7.3.1 at ch-prod-1:8443 (database analytics, user ops, TLS)";
  private static final Instant JUDGED = Instant.parse("2026-11-30T10:42:07Z");
  private static final Gate OPEN = new Gate(Gate.CUTOVER, List.of(new Gate.Condition("verdict", true, "green")),
      Gate.Version.V1, Optional.empty());
  private static final Gate CLOSED = new Gate(Gate.CUTOVER, List.of(new Gate.Condition("data now", false,
      "1 changed or new (from 2026-11-29T08:00)")), Gate.Version.V1, Optional.empty());
  private static final SwapRequest CUTOVER = new SwapRequest(SERVER, "cutover",
      "EXCHANGE TABLES `analytics`.`pnl` AND `analytics`.`pnl__next`", "pnl", Gate.Version.V1, "pnl_v1",
      Gate.Version.V2, "pnl_v2", (judged, failed) -> judged.accept(OPEN, JUDGED));

  /** A gate check the test answers when it chooses, as a slow server would. */
  private static final class Pending implements GateCheck {
    BiConsumer<Gate, Instant> judged;
    Consumer<String> failed;

    @Override
    public void judge(BiConsumer<Gate, Instant> judged, Consumer<String> failed) {
      this.judged = judged;
      this.failed = failed;
    }

    SwapRequest request() {
      return new SwapRequest(SERVER, CUTOVER.action(), CUTOVER.statement(), "pnl", Gate.Version.V1, "pnl_v1", Gate.Version.V2,
          "pnl_v2", this);
    }
  }

  @Test
  void okWaitsForTheGateJudgedAsTheDialogOpensAndStaysOffWhenItIsClosed(FxRobot robot) {
    Pending slow = new Pending();
    @SuppressWarnings("unchecked")
    Dialog<Confirmed>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = SwapDialog.create(slow.request());
      d[0].show();
    });
    Node ok = robot.lookup("#swap-ok").query();
    assertTrue(ok.getStyleClass().contains("danger"), "the confirm button looks dangerous, not routine");
    assertEquals(SERVER, robot.lookup("#swap-server").queryAs(Label.class).getText(),
        "the dialog names the server whose consumers are switched");
    robot.interact(() -> robot.lookup("#swap-confirmation").queryTextInputControl().setText("pnl"));
    assertEquals("Checking the gate…", robot.lookup("#swap-gate").queryAs(Label.class).getText());
    assertTrue(ok.isDisabled(), "the name is typed, but the gate is not judged yet");

    robot.interact(() -> slow.judged.accept(CLOSED, JUDGED));
    String words = robot.lookup("#swap-gate").queryAs(Label.class).getText();
    assertEquals("Cutover gate closed, judged just now (10:42:07 UTC). The cutover is refused: data now (1 changed or "
        + "new (from 2026-11-29T08:00)). Nothing was changed.", words);
    assertTrue(ok.isDisabled(), "a closed gate confirms nothing");
    robot.interact(() -> d[0].close());

    Pending lost = new Pending();
    robot.interact(() -> {
      d[0] = SwapDialog.create(lost.request());
      d[0].show();
    });
    Node ok2 = robot.lookup("#swap-ok").query();
    robot.interact(() -> robot.lookup("#swap-confirmation").queryTextInputControl().setText("pnl"));
    robot.interact(() -> lost.failed.accept("the server does not answer; The embedded ClickHouse stopped: it was "
        + "killed."));
    assertTrue(robot.lookup("#swap-gate").queryAs(Label.class).getText().startsWith("The gate could not be judged now, "
        + "so the cutover cannot be confirmed: the server does not answer"));
    assertTrue(ok2.isDisabled());
    robot.interact(() -> lost.judged.accept(OPEN, JUDGED));
    assertEquals("Cutover gate open, judged just now (10:42:07 UTC): every condition is met.",
        robot.lookup("#swap-gate").queryAs(Label.class).getText());
    assertFalse(ok2.isDisabled(), "the gate judged now is open and the name is typed");
    robot.interact(() -> d[0].close());
  }

  @Test
  void okStaysDisabledUntilTheViewsNameIsTypedAndReturnsWhatWasTyped(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<Confirmed>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = SwapDialog.create(CUTOVER);
      d[0].getDialogPane().getStylesheets().setAll(stylesheets());
      d[0].show();
    });
    Node ok = robot.lookup("#swap-ok").query();
    assertEquals(CUTOVER.statement(), robot.lookup("#swap-statement").queryAs(TextArea.class).getText());
    assertEquals("V2 (pnl_v2)", robot.lookup("#swap-after").queryAs(Label.class).getText());
    assertTrue(ok.isDisabled(), "nothing typed yet");

    robot.clickOn("#swap-confirmation").write("pn");
    assertTrue(ok.isDisabled(), "a prefix is not the name");
    robot.write("l_v2");
    assertTrue(ok.isDisabled(), "another table's name is not the view's");
    robot.interact(() -> robot.lookup("#swap-confirmation").queryTextInputControl().setText("pnl"));
    assertFalse(ok.isDisabled());
    robot.interact(() -> Screenshots.dialog(d[0], "16-cutover-confirmation"));

    robot.clickOn(ok);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(new Confirmed("pnl", Optional.empty()), d[0].getResult(), "a cutover asks for no reason");
    assertFalse(d[0].isShowing());
  }

  @Test
  void aRollbackAsksWhyAndReturnsTheReasonForTheAuditTrail(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<Confirmed>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = SwapDialog.create(rollback());
      d[0].getDialogPane().getStylesheets().setAll(stylesheets());
      d[0].show();
    });
    Node ok = robot.lookup("#swap-ok").query();
    robot.interact(() -> robot.lookup("#swap-confirmation").queryTextInputControl().setText("pnl"));
    assertTrue(ok.isDisabled(), "the name is typed and the gate open, but no reason is written");
    robot.interact(() -> robot.lookup("#swap-reason").queryTextInputControl().setText("   "));
    assertTrue(ok.isDisabled(), "blanks are no reason");
    robot.interact(() -> robot.lookup("#swap-reason").queryTextInputControl().setText(" desk 7's totals moved "));
    assertFalse(ok.isDisabled());
    robot.interact(() -> Screenshots.dialog(d[0], "17-rollback-confirmation"));
    robot.clickOn(ok);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(new Confirmed("pnl", Optional.of("desk 7's totals moved")), d[0].getResult());
  }

  private static SwapRequest rollback() {
    return new SwapRequest(SERVER, "rollback", CUTOVER.statement(), "pnl", Gate.Version.V2, "pnl_v2", Gate.Version.V1,
        "pnl_v1", (judged, failed) -> judged.accept(new Gate(Gate.ROLLBACK, OPEN.conditions(), Gate.Version.V2,
            Optional.empty()), JUDGED));
  }

  @Test
  void cancelReturnsNothing(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<Confirmed>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = SwapDialog.create(rollback());
      d[0].show();
    });
    robot.interact(() -> robot.lookup("#swap-confirmation").queryTextInputControl().setText("pnl"));
    robot.interact(() -> ((javafx.scene.control.Button) d[0].getDialogPane().lookupButton(ButtonType.CANCEL)).fire());
    assertEquals(null, d[0].getResult());
  }

  private static java.util.List<String> stylesheets() {
    return java.util.List.of(Themes.class.getResource(Themes.LIGHT).toExternalForm(),
        Themes.class.getResource("console.css").toExternalForm());
  }
}
