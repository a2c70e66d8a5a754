package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Safety;
import dev.cutover.ui.dialogs.FxDialogService;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Dialog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/** Declaring the corrected live writer deployed needs the writer's name; it says what the declaration is first. */
@ExtendWith(ApplicationExtension.class)
class DeclareLiveWriterDialogTest {

  @Test
  void okNeedsTheWritersName(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<String>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = FxDialogService.declareLiveWriterDialog(HourPartition.parse("boundary", "2026-11-30T07:00"),
          "analytics.pnl_v2");
      d[0].show();
    });
    assertEquals("Your corrected live writer writes analytics.pnl_v2 from B = 2026-11-30 07:00 UTC",
        d[0].getHeaderText());
    assertTrue(((javafx.scene.control.Label) ((javafx.scene.layout.VBox) d[0].getDialogPane().getContent())
        .getChildren().getFirst()).getText().endsWith(Safety.DECLARE_LIVE));
    Node ok = robot.lookup("#declare-live-writer-ok").query();
    assertTrue(ok.isDisabled(), "nothing typed: nothing to declare");
    robot.interact(() -> robot.lookup("#declare-live-writer-text").queryTextInputControl().setText("   "));
    assertTrue(ok.isDisabled(), "blanks are not a writer");
    robot.interact(() -> robot.lookup("#declare-live-writer-text").queryTextInputControl().setText(" pnl-job 2.4.1 "));
    assertFalse(ok.isDisabled());
    robot.interact(() -> ((Button) ok).fire());
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("pnl-job 2.4.1", d[0].getResult());
  }
}
