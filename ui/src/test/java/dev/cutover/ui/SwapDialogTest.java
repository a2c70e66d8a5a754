package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Gate;
import dev.cutover.ui.dialogs.DialogService.SwapRequest;
import dev.cutover.ui.dialogs.SwapDialog;
import java.io.IOException;
import java.io.UncheckedIOException;
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

/** The cutover confirmation: the exact statement, the versions, and OK only once the view's name is typed. */
@ExtendWith(ApplicationExtension.class)
class SwapDialogTest {

  private static final SwapRequest CUTOVER = new SwapRequest("cutover",
      "EXCHANGE TABLES `analytics`.`pnl` AND `analytics`.`pnl__next`", "pnl", Gate.Version.V1, "pnl_v1",
      Gate.Version.V2, "pnl_v2");

  @Test
  void okStaysDisabledUntilTheViewsNameIsTypedAndReturnsWhatWasTyped(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<String>[] d = new Dialog[1];
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
    robot.interact(() -> {
      try {
        Screenshots.write(d[0].getDialogPane().getScene(), "16-cutover-confirmation");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });

    robot.clickOn(ok);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("pnl", d[0].getResult());
    assertFalse(d[0].isShowing());
  }

  @Test
  void cancelReturnsNothing(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<String>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = SwapDialog.create(new SwapRequest("rollback", CUTOVER.statement(), "pnl", Gate.Version.V2, "pnl_v2",
          Gate.Version.V1, "pnl_v1"));
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
