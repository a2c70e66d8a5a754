package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.V1Reader;
import dev.cutover.ui.dialogs.DialogService.DropRequest;
import dev.cutover.ui.dialogs.DropDialog;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Dropping v1 early needs the table's name typed and a written reason; after the horizon, the name only; and each
 * table that still uses v1 ticked.
 */
@ExtendWith(ApplicationExtension.class)
class DropDialogTest {

  private static final String SERVER = "profile prod-eu: ClickHouse 26.7.3.1 at ch-prod-1:8443 (database analytics, user ops, TLS)";
  private static final String STATEMENT = "DROP VIEW IF EXISTS `analytics`.`pnl__next`;\nDROP TABLE IF EXISTS "
      + "`analytics`.`pnl_v1`";

  @Test
  void beforeTheHorizonOkNeedsTheNameAndAReason(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<String>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = DropDialog.create(new DropRequest(SERVER, STATEMENT, "analytics.pnl_v1", "The retention horizon is "
          + "2026-11-30 09:00 UTC: consumers' caches and the reconciliation window have not passed yet. Dropping now "
          + "removes the rollback before then.", true, List.of()));
      d[0].getDialogPane().getStylesheets().setAll(Themes.class.getResource(Themes.LIGHT).toExternalForm(),
          Themes.class.getResource("console.css").toExternalForm());
      d[0].show();
    });
    Node ok = robot.lookup("#drop-ok").query();
    assertTrue(ok.getStyleClass().contains("danger"), "the confirm button looks dangerous, not routine");
    assertTrue(robot.lookup("#drop-server").queryLabeled().getText().contains("ch-prod-1:8443"),
        "the dialog names the server v1 is dropped on");
    robot.interact(() -> robot.lookup("#drop-confirmation").queryTextInputControl().setText("analytics.pnl_v1"));
    assertTrue(ok.isDisabled(), "the name alone is not enough before the horizon");
    robot.interact(() -> robot.lookup("#drop-reason").queryTextInputControl().setText("disk is full on the shard"));
    assertFalse(ok.isDisabled());
    robot.interact(() -> Screenshots.dialog(d[0], "16b-drop-v1-confirmation"));
    robot.interact(() -> ((javafx.scene.control.Button) ok).fire());
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("disk is full on the shard", d[0].getResult());
  }

  @Test
  void afterTheHorizonTheNameIsEnough(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<String>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = DropDialog.create(new DropRequest(SERVER, STATEMENT, "analytics.pnl_v1", "The retention horizon has passed.",
          false, List.of()));
      d[0].show();
    });
    Node ok = robot.lookup("#drop-ok").query();
    robot.interact(() -> robot.lookup("#drop-confirmation").queryTextInputControl().setText("analytics.pnl"));
    assertTrue(ok.isDisabled(), "a prefix is not the name");
    robot.interact(() -> robot.lookup("#drop-confirmation").queryTextInputControl().setText("analytics.pnl_v1"));
    assertFalse(ok.isDisabled());
    robot.interact(() -> ((javafx.scene.control.Button) ok).fire());
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("", d[0].getResult());
  }

  @Test
  void everyTableThatStillUsesV1IsNamedAndTickedBeforeTheDrop(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<String>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = DropDialog.create(new DropRequest(SERVER, STATEMENT, "analytics.pnl_v1", "The retention horizon has passed.",
          false, List.of(new V1Reader("analytics.pnl_alerts_mv", "materialized view"),
              new V1Reader("boards.desk_totals", "view"))));
      d[0].show();
    });
    Node ok = robot.lookup("#drop-ok").query();
    assertTrue(robot.lookup("#drop-readers").queryLabeled().getText().startsWith("These tables still use "
        + "analytics.pnl_v1 and break when it is dropped."));
    List<CheckBox> ticks = List.copyOf(robot.lookup(".drop-reader").queryAllAs(CheckBox.class));
    assertEquals(List.of("analytics.pnl_alerts_mv (materialized view)", "boards.desk_totals (view)"),
        ticks.stream().map(CheckBox::getText).toList(), "whole names, underscores and all");
    robot.interact(() -> robot.lookup("#drop-confirmation").queryTextInputControl().setText("analytics.pnl_v1"));
    assertTrue(ok.isDisabled(), "the name is not enough while a table that uses v1 is not acknowledged");
    robot.interact(() -> ticks.getFirst().setSelected(true));
    assertTrue(ok.isDisabled(), "one of two is not enough");
    robot.interact(() -> ticks.getLast().setSelected(true));
    assertFalse(ok.isDisabled());
  }
}
