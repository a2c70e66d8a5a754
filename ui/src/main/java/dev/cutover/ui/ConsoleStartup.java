package dev.cutover.ui;

import dev.cutover.engine.connect.Session;
import dev.cutover.engine.embedded.EngineProgress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What the console needs to start: a description of where it connects, how to open that connection
 * (on a background thread, reporting progress), the spec to load once connected, if any, and the
 * demo world's controls, if it runs on the demo.
 *
 * <pre>{@code
 * var startup = new ConsoleStartup("embedded ClickHouse", progress -> Session.embedded(dir, library, progress))
 *     .withDefaultSpec(Path.of("pnl.yaml"));
 * }</pre>
 */
public record ConsoleStartup(String target, Connector connector, Optional<Path> defaultSpec,
    Optional<DemoControls> demo) {

  public ConsoleStartup {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(connector, "connector");
    Objects.requireNonNull(defaultSpec, "defaultSpec");
    Objects.requireNonNull(demo, "demo");
  }

  public ConsoleStartup(String target, Connector connector) {
    this(target, connector, Optional.empty(), Optional.empty());
  }

  /** The spec file the connection screen proposes and loads once connected. */
  public ConsoleStartup withDefaultSpec(Path spec) {
    return new ConsoleStartup(target, connector, Optional.of(spec), demo);
  }

  /** Controls of the demo world, such as deploying the corrected live writer. */
  public ConsoleStartup withDemo(DemoControls controls) {
    return new ConsoleStartup(target, connector, defaultSpec, Optional.of(controls));
  }

  /** Opens a session; may take seconds (fetching and starting the embedded engine). Never called on the FX thread. */
  @FunctionalInterface
  public interface Connector {
    Session open(EngineProgress progress);
  }
}
