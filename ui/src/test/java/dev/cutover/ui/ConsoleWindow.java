package dev.cutover.ui;

import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.dialogs.DialogService;
import java.nio.file.Path;
import java.util.Optional;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;

/** A console window on the test engine's embedded server with a spec loaded, as a screen test opens it. */
record ConsoleWindow(CutoverConsole console, Fx fx) {

  static ConsoleWindow open(FxRobot robot, Path specFile, DialogService dialogs) {
    return open(robot, specFile, dialogs, Optional.empty());
  }

  /** The same, with the demo world's controls, as the console has them on the embedded demo. */
  static ConsoleWindow open(FxRobot robot, Path specFile, DialogService dialogs, Optional<DemoControls> demo) {
    ConsoleWindow window = shown(robot, specFile, dialogs, demo);
    window.fx().waitFor(60, () -> window.console().workspace().spec() != null,
        () -> window.console().connection().specLoading().error());
    return window;
  }

  /** The console as {@code startup} opens it, shown. */
  static ConsoleWindow shown(FxRobot robot, ConsoleStartup startup, DialogService dialogs) {
    CutoverConsole console = new CutoverConsole();
    Scene[] scene = new Scene[1];
    robot.interact(() -> {
      Stage stage = new Stage();
      scene[0] = console.createScene(startup, dialogs);
      stage.setScene(scene[0]);
      stage.show();
    });
    return new ConsoleWindow(console, new Fx(robot, scene[0]));
  }

  /** The console on the engine's test server with {@code specFile} as its spec, shown, whether the spec loads or not. */
  static ConsoleWindow shown(FxRobot robot, Path specFile, DialogService dialogs, Optional<DemoControls> demo) {
    Path data = TestEngine.server().dataDirectory();
    CutoverConsole console = new CutoverConsole();
    Scene[] scene = new Scene[1];
    robot.interact(() -> {
      Stage stage = new Stage();
      ConsoleStartup startup = new ConsoleStartup("embedded ClickHouse", progress -> Session.embedded(data,
          EngineLibrary.fromEnvironment(), progress)).withDefaultSpec(specFile)
          .withProfiles(new ProfileStore(specFile.resolveSibling("profiles-" + ProcessHandle.current().pid() + ".yaml")));
      scene[0] = console.createScene(demo.map(startup::withDemo).orElse(startup), dialogs);
      stage.setScene(scene[0]);
      stage.show();
    });
    return new ConsoleWindow(console, new Fx(robot, scene[0]));
  }
}
