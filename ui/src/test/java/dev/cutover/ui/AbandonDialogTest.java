package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Safety;
import dev.cutover.ui.dialogs.AbandonDialog;
import dev.cutover.ui.dialogs.DialogService.AbandonRequest;
import dev.cutover.ui.dialogs.DialogService.Abandonment;
import java.util.Optional;
import javafx.scene.Node;
import javafx.scene.control.Dialog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/** Abandoning a repair needs the target table's name typed and a written reason; it says what it does first. */
@ExtendWith(ApplicationExtension.class)
class AbandonDialogTest {

  @Test
  void okNeedsTheTableNameAndAReason(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<Abandonment>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = AbandonDialog.create(new AbandonRequest("profile prod-eu: ClickHouse 26.7.3.1 at ch-prod-1:8443 (database analytics, user ops, TLS)", "analytics.pnl_v2", "pnl_v2", "20261130-094200-3fa2c1",
          "backfilled", Optional.of(HourPartition.parse("boundary", "2026-11-30T07:00")), Safety.ABANDON));
      d[0].getDialogPane().getStylesheets().setAll(Themes.class.getResource(Themes.LIGHT).toExternalForm(),
          Themes.class.getResource("console.css").toExternalForm());
      d[0].show();
    });
    assertEquals(Safety.ABANDON, robot.lookup("#abandon-consequence").queryLabeled().getText());
    assertEquals("On " + "profile prod-eu: ClickHouse 26.7.3.1 at ch-prod-1:8443 (database analytics, user ops, TLS)" + ".", robot.lookup("#abandon-server").queryLabeled().getText(),
        "the dialog names the server the repair is given up on");
    Node ok = robot.lookup("#abandon-ok").query();
    assertTrue(ok.getStyleClass().contains("danger"), "the confirm button looks dangerous, not routine");
    assertTrue(ok.isDisabled());
    robot.interact(() -> robot.lookup("#abandon-confirmation").queryTextInputControl().setText("pnl_v2"));
    assertTrue(ok.isDisabled(), "the name alone is not enough: a reason goes to the audit trail");
    robot.interact(() -> robot.lookup("#abandon-reason").queryTextInputControl().setText("  the fix was wrong  "));
    assertFalse(ok.isDisabled());
    robot.interact(() -> robot.lookup("#abandon-confirmation").queryTextInputControl().setText("analytics.pnl_v2"));
    assertTrue(ok.isDisabled(), "the table's name, without its database");
    robot.interact(() -> robot.lookup("#abandon-confirmation").queryTextInputControl().setText("pnl_v2"));
    robot.interact(() -> Screenshots.dialog(d[0], "04d-abandon-confirmation"));
    robot.interact(() -> ((javafx.scene.control.Button) ok).fire());
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(new Abandonment("pnl_v2", "the fix was wrong"), d[0].getResult());
  }
}
