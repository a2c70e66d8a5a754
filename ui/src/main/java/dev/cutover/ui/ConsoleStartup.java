package dev.cutover.ui;

import dev.cutover.engine.connect.Session;
import dev.cutover.engine.embedded.EngineProgress;

/**
 * What the console needs to start: a description of where it connects, and how to open that
 * connection (on a background thread, reporting progress).
 */
public record ConsoleStartup(String target, Connector connector) {

  /** Opens a session; may take seconds (fetching and starting the embedded engine). Never called on the FX thread. */
  @FunctionalInterface
  public interface Connector {
    Session open(EngineProgress progress);
  }
}
