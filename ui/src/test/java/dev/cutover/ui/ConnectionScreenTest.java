package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.connect.Session;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.connection.ConnectionModel.State;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
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
      console.connection().closeSession();
    }
  }

  private Scene show(FxRobot robot, ConsoleStartup startup) throws Exception {
    console = new CutoverConsole();
    Scene[] scene = new Scene[1];
    robot.interact(() -> {
      Stage stage = new Stage();
      scene[0] = console.createScene(startup);
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

    Path[] png = new Path[1];
    robot.interact(() -> {
      try {
        png[0] = Screenshots.write(scene, "01-connection");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    assertTrue(Files.size(png[0]) > 10_000, "a real picture was written: " + png[0]);
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

    robot.interact(() -> {
      try {
        Screenshots.write(scene, "02-connection-failed");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }
}
