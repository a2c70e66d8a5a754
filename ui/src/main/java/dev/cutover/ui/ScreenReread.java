package dev.cutover.ui;

import dev.cutover.engine.Engine;
import dev.cutover.ui.common.ScreenController;
import java.util.List;
import java.util.stream.Stream;
import javafx.beans.InvalidationListener;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;

/**
 * After the console reconnected (by itself or by the Connect button), every screen reads again what
 * it shows, and the screens' actions stay off until all have: a gate, a run list or a repair phase
 * read before the outage says nothing about the server as it is now. A reconnect is a new engine on
 * the same server and spec; a connection to another server starts from nothing instead.
 */
final class ScreenReread {

  private final Workspace workspace;
  private final List<ScreenController> controllers;
  private final BooleanBinding reading;
  private InvalidationListener waiting;

  ScreenReread(Workspace workspace, List<ScreenController> controllers) {
    this.workspace = workspace;
    this.controllers = List.copyOf(controllers);
    Observable[] flags = Stream.concat(controllers.stream().map(ScreenController::reading),
        Stream.of(workspace.repair().readingProperty())).toArray(Observable[]::new);
    this.reading = Bindings.createBooleanBinding(() -> workspace.repair().readingProperty().get()
        || this.controllers.stream().anyMatch(m -> m.reading().get()), flags);
    workspace.engineProperty().addListener((o, was, is) -> {
      if (was != null && is != null && workspace.spec() != null) {
        start(is);
      }
    });
  }

  /** Marks the screens stale, asks each to read again, and marks them fresh once no read runs. */
  private void start(Engine engine) {
    if (waiting != null) {
      reading.removeListener(waiting);
      waiting = null;
    }
    workspace.freshProperty().set(false);
    workspace.repair().refresh();
    controllers.forEach(ScreenController::reread);
    if (!reading.get()) {
      workspace.freshProperty().set(true);
      return;
    }
    waiting = o -> {
      if (!reading.get() && workspace.engine() == engine) {
        reading.removeListener(waiting);
        waiting = null;
        workspace.freshProperty().set(true);
      }
    };
    reading.addListener(waiting);
  }
}
