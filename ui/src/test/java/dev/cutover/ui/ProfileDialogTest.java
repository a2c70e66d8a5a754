package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.dialogs.ProfileDialog;
import java.util.Optional;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/** The profile dialog keeps itself open with the engine's sentence until its fields pass. */
@ExtendWith(ApplicationExtension.class)
class ProfileDialogTest {

  @Test
  void aUrlWithCredentialsIsRefusedInTheDialogAndAFixedOneIsSaved(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<SavedProfile>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = ProfileDialog.create(Optional.empty());
      d[0].getDialogPane().getStylesheets().setAll(
          Themes.class.getResource(Themes.LIGHT).toExternalForm(), Themes.class.getResource("console.css").toExternalForm());
      d[0].show();
    });
    robot.clickOn("#profile-name").write("prod-eu");
    robot.clickOn("#profile-url").write("jdbc:clickhouse://ops:hunter2@ch.eu.internal:8443?ssl=true");
    robot.clickOn("#profile-user").write("ops");
    robot.clickOn("#profile-database").write("analytics");
    robot.interact(() -> robot.lookup("#profile-save").queryAs(Button.class).fire());

    String error = robot.lookup("#profile-error").queryAs(Label.class).getText();
    assertTrue(error.startsWith("The JDBC URL carries a user or password"), error);
    assertTrue(d[0].isShowing(), "the dialog stays open until the fields pass");
    WaitForAsyncUtils.waitForFxEvents();
    robot.interact(() -> Screenshots.dialog(d[0], "01c-profile-dialog"));

    // A mistyped scheme used to repeat the whole URL, password included; the sentence shows it masked.
    String planted = "PLANTED-" + java.util.UUID.randomUUID();
    robot.interact(() -> {
      robot.lookup("#profile-url").queryTextInputControl().setText("jdbc:clickhous://ops:" + planted
          + "@ch.eu.internal:8443/analytics?password=" + planted);
      robot.lookup("#profile-save").queryAs(Button.class).fire();
    });
    WaitForAsyncUtils.waitForFxEvents();
    String masked = robot.lookup("#profile-error").queryAs(Label.class).getText();
    assertEquals("The JDBC URL 'jdbc:clickhous://***@ch.eu.internal:8443/analytics?password=***' is not a ClickHouse "
        + "URL; write it as jdbc:clickhouse://HOST:PORT (add ?ssl=true or use jdbc:clickhouse:https:// for TLS).",
        masked);

    robot.interact(() -> {
      robot.lookup("#profile-url").queryTextInputControl().setText("jdbc:clickhouse://ch.eu.internal:8443?ssl=true");
      @SuppressWarnings("unchecked")
      ChoiceBox<SavedProfile.Password> password = robot.lookup("#profile-password").queryAs(ChoiceBox.class);
      password.setValue(SavedProfile.Password.ENVIRONMENT);
      robot.lookup("#profile-password-ref").queryTextInputControl().setText("CH_EU_PASSWORD");
      robot.lookup("#profile-save").queryAs(Button.class).fire();
    });
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(SavedProfile.of("prod-eu", "jdbc:clickhouse://ch.eu.internal:8443?ssl=true", "ops", "analytics",
        SavedProfile.Password.ENVIRONMENT, "CH_EU_PASSWORD"), d[0].getResult());
  }

  @Test
  void cancellingThePasswordDialogReturnsNothing(FxRobot robot) {
    @SuppressWarnings("unchecked")
    Dialog<char[]>[] d = new Dialog[1];
    robot.interact(() -> {
      d[0] = ProfileDialog.password(SavedProfile.of("prod-eu", "jdbc:clickhouse://ch:8123", "ops", "analytics",
          SavedProfile.Password.ASK, ""));
      d[0].show();
    });
    robot.clickOn("#password-field").write("typed");
    robot.interact(() -> ((Button) d[0].getDialogPane().lookupButton(javafx.scene.control.ButtonType.CANCEL)).fire());
    assertNull(d[0].getResult());
  }
}
