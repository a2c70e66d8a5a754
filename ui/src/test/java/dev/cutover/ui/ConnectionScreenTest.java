package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.ServerAccess;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.connection.ConnectionModel.State;
import dev.cutover.ui.connection.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/** The console's first screen, headless, against the real embedded engine. */
@ExtendWith(ApplicationExtension.class)
class ConnectionScreenTest {

  private CutoverConsole console;

  @AfterEach
  void close() throws Exception {
    if (console != null) {
      console.sessions().closeSession();
    }
  }

  @TempDir Path config;

  private Scene show(FxRobot robot, ConsoleStartup startup) throws Exception {
    return show(robot, startup, new ScriptedDialogs());
  }

  private Scene show(FxRobot robot, ConsoleStartup startup, ScriptedDialogs dialogs) throws Exception {
    console = new CutoverConsole();
    Scene[] scene = new Scene[1];
    robot.interact(() -> {
      Stage stage = new Stage();
      scene[0] = console.createScene(startup.withProfiles(new ProfileStore(config.resolve("profiles.yaml"))), dialogs);
      stage.setScene(scene[0]);
      stage.show();
    });
    return scene[0];
  }

  @Test
  void showsTheServerVersionStateAndDataDirectoryOfTheEmbeddedEngine(FxRobot robot) throws Exception {
    Path data = TestEngine.server().dataDirectory();
    Scene scene = show(robot, new ConsoleStartup("embedded ClickHouse (data: " + data + ")",
        progress -> Session.embedded(data, EngineLibrary.fromEnvironment(), progress)));

    WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> console.connection().stateProperty().get() != State.CONNECTING);

    assertEquals("Connected", robot.lookup("#connection-state").queryAs(Label.class).getText());
    assertEquals("ClickHouse " + TestEngine.session().server().version(),
        robot.lookup("#connection-version").queryAs(Label.class).getText());
    assertEquals("127.0.0.1:" + TestEngine.server().port(), robot.lookup("#connection-address").queryAs(Label.class).getText());
    assertEquals("cutover (Atomic), user default", robot.lookup("#connection-database").queryAs(Label.class).getText());
    assertEquals(data.toString(), robot.lookup("#connection-data-directory").queryAs(Label.class).getText());

    Path png = new Fx(robot, scene).shot("01-connection");
    assertTrue(Files.size(png) > 10_000, "a real picture was written: " + png);
  }

  @Test
  void aSavedProfileIsCreatedConnectedToWithAnAskedPasswordAndDeleted(FxRobot robot) throws Exception {
    Path data = TestEngine.server().dataDirectory();
    Path otherData = Files.createTempDirectory("cutover-profile-server-");
    char[] secret = "correct horse battery staple".toCharArray();
    try (Session other = Session.embedded(otherData, EngineLibrary.fromEnvironment(),
        ServerAccess.open().withUser("analyst", secret), EngineProgress.NONE)) {
      try (var c = other.database().dataSource().getConnection(); var st = c.createStatement()) {
        st.execute("CREATE DATABASE IF NOT EXISTS desk ENGINE = Atomic");
      }
      ScriptedDialogs dialogs = new ScriptedDialogs();
      Scene scene = show(robot, new ConsoleStartup("embedded ClickHouse (data: " + data + ")",
          progress -> Session.embedded(data, EngineLibrary.fromEnvironment(), progress)), dialogs);
      Fx fx = new Fx(robot, scene);
      fx.waitFor(60, () -> console.connection().stateProperty().get() == State.CONNECTED, () -> "launch target");

      SavedProfile desk = SavedProfile.of("desk server", other.embeddedServer().orElseThrow().jdbcUrl(), "analyst", "desk",
          SavedProfile.Password.ASK, "");
      dialogs.profile = desk;
      robot.clickOn("#profile-new");
      fx.waitFor(20, () -> console.connection().selectedProperty().get() instanceof Target.Saved,
          () -> "profile saved and chosen: " + console.connection().profiles().activity().error());
      String saved = Files.readString(config.resolve("profiles.yaml"));
      assertTrue(saved.contains("name: desk server") && saved.contains("password_from: ask"), saved);
      assertFalse(saved.contains("correct horse"), "no password on disk");

      dialogs.password = "wrong";
      robot.clickOn("#connection-connect");
      fx.waitFor(60, () -> console.connection().stateProperty().get() == State.FAILED, () -> "wrong password refused");
      assertTrue(fx.text("connection-error").contains("analyst"), fx.text("connection-error"));
      assertTrue(dialogs.asked.contains("password desk server"), "the password was asked for");
      assertNull(console.workspace().engine(), "no engine while not connected");

      dialogs.password = new String(secret);
      robot.clickOn("#connection-connect");
      fx.waitFor(60, () -> console.connection().stateProperty().get() == State.CONNECTED, () -> "profile connects");
      assertEquals("desk (Atomic), user analyst", fx.text("connection-database"));
      assertEquals(desk.describe(), fx.text("connection-target"));
      assertTrue(fx.text("connection-mode").startsWith("Saved profile desk server"), fx.text("connection-mode"));
      assertTrue(console.workspace().demo().isEmpty(), "the demo's controls belong to the embedded demo only");

      // Connecting again to the same profile replaces the session; the engine works on the new one.
      var firstEngine = console.workspace().engine();
      robot.clickOn("#connection-connect");
      fx.waitFor(60, () -> console.connection().stateProperty().get() == State.CONNECTED
          && console.workspace().engine() != firstEngine, () -> "reconnected");
      assertEquals(List.of(), console.workspace().engine().repairs().audit(null, 10),
          "the new engine reads the server (nothing audited there yet)");
      fx.shot("01b-connection-profile");

      robot.interact(() -> console.connection().selectedProperty().set(console.connection().targets().get(0)));
      robot.clickOn("#connection-connect");
      fx.waitFor(60, () -> console.connection().stateProperty().get() == State.CONNECTED
          && fx.text("connection-database").endsWith("user default"), () -> "back on the launch target");

      robot.interact(() -> console.connection().selectedProperty().set(console.connection().targets().get(1)));
      robot.clickOn("#profile-delete");
      fx.waitFor(20, () -> console.connection().targets().size() == 1, () -> "profile deleted");
      assertFalse(Files.readString(config.resolve("profiles.yaml")).contains("desk server"));
    } finally {
      java.util.Arrays.fill(secret, ' ');
    }
  }

  @Test
  void aFailedConnectionIsShownAsASentenceWithRetry(FxRobot robot) throws Exception {
    int closed;
    try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    var profile = ConnectionProfile.of("jdbc:clickhouse://127.0.0.1:" + closed, "default", PasswordSource.none(), "default");
    Scene scene = show(robot, new ConsoleStartup(profile.jdbcUrl(), progress -> Session.connect(profile)));

    WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> console.connection().stateProperty().get() == State.FAILED);

    assertEquals("Not connected", robot.lookup("#connection-state").queryAs(Label.class).getText());
    assertEquals("Nothing answers at 127.0.0.1:" + closed + "; check the host and port in the JDBC URL (the HTTP port, "
        + "8123 by default, or 8443 with TLS) and that the server is running.",
        robot.lookup("#connection-error").queryAs(Label.class).getText());
    assertTrue(robot.lookup("#connection-retry").query().isVisible());

    new Fx(robot, scene).shot("02-connection-failed");
  }
}
