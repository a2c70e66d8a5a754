package dev.cutover.ui;

import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.EngineProgress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What the console needs to start: a description of where it connects first, how to open that connection
 * (on a background thread, reporting progress), the spec to load once connected, if any, and the
 * demo world's controls, if it runs on the demo.
 *
 * <pre>{@code
 * var startup = new ConsoleStartup("embedded ClickHouse", progress -> Session.embedded(dir, library, progress))
 *     .withDefaultSpec(Path.of("pnl.yaml"));
 * }</pre>
 */
public record ConsoleStartup(String target, Connector connector, Optional<Path> defaultSpec,
    Optional<DemoControls> demo, ProfileStore profiles) {

  public ConsoleStartup {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(connector, "connector");
    Objects.requireNonNull(defaultSpec, "defaultSpec");
    Objects.requireNonNull(demo, "demo");
    Objects.requireNonNull(profiles, "profiles");
  }

  /** Starts on {@code target}, with this user's saved profiles to choose from. */
  public ConsoleStartup(String target, Connector connector) {
    this(target, connector, Optional.empty(), Optional.empty(), ProfileStore.forUser());
  }

  /** The spec file the connection screen proposes and loads once connected. */
  public ConsoleStartup withDefaultSpec(Path spec) {
    return new ConsoleStartup(target, connector, Optional.of(spec), demo, profiles);
  }

  /** Controls of the demo world, such as deploying the corrected live writer. */
  public ConsoleStartup withDemo(DemoControls controls) {
    return new ConsoleStartup(target, connector, defaultSpec, Optional.of(controls), profiles);
  }

  /** The saved profiles the connection screen offers besides {@code target}. */
  public ConsoleStartup withProfiles(ProfileStore store) {
    return new ConsoleStartup(target, connector, defaultSpec, demo, store);
  }

  /** Opens a session; may take seconds (fetching and starting the embedded engine). Never called on the FX thread. */
  @FunctionalInterface
  public interface Connector {
    Session open(EngineProgress progress);
  }
}
