package dev.cutover.ui.connection;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Which spec the console works on, on the FX thread: the file named on the connection screen, what
 * the spec loaded says in one sentence, and the status line's part about it. {@link SpecController}
 * loads the file (checked on the server) and reads it again after a reconnect.
 */
final class SpecChoice {

  private final Workspace workspace;
  private final Activity loading;
  private final StringProperty file = new SimpleStringProperty("");
  private final StringProperty summary = new SimpleStringProperty("No spec loaded.");
  private final StringProperty status = new SimpleStringProperty(" · no spec loaded");

  SpecChoice(Workspace workspace, Optional<Path> initial) {
    this.workspace = workspace;
    this.loading = new Activity(workspace.executor());
    initial.ifPresent(p -> file.set(p.toString()));
    workspace.specProperty().addListener((o, was, is) -> {
      if (is == null) {
        status.set(" · no spec loaded");
      }
    });
  }

  /** The spec loaded from {@code path}: every screen works on it now. */
  void show(TableSpec spec, Path path) {
    workspace.specProperty().set(spec);
    summary.set(summary(spec));
    status.set(" · spec " + spec.name() + " (" + path.toAbsolutePath() + ")");
  }

  /** Whether a file is named that the console would load once connected. */
  boolean named() {
    return !file.get().isBlank();
  }

  static String summary(TableSpec s) {
    return s.name() + ": " + s.database() + "." + s.liveTable() + " (v1) is repaired into " + s.database() + "."
        + s.targetTable() + " (v2); consumers read " + s.consumerView() + ". Keys " + names(s.keys()) + ", measures "
        + names(s.measures()) + ", safety margin " + s.safetyMargin().toHours() + " h, spec sha256 "
        + s.sha256().substring(0, Math.min(12, s.sha256().length())) + "…" + s.cluster().map(c -> " The table is "
        + "sharded over cluster " + c.name() + ": every screen works on every shard at once, read as one; the "
        + "Reconcile screen names each key's shard, the Cutover screen each node's gate and switch, and History "
        + "every shard's runs, verdicts and audit trail.").orElse("");
  }

  private static String names(List<Identifier> ids) {
    return String.join(", ", ids.stream().map(Identifier::name).toList());
  }

  /** The path named in the field, if it names one. */
  Optional<Path> path() {
    return parse(file.get());
  }

  private static Optional<Path> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(text.strip()));
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  StringProperty fileProperty() {
    return file;
  }

  ReadOnlyStringProperty summaryProperty() {
    return summary;
  }

  /** The status line's part about the spec: " · spec NAME (PATH)", or that none is loaded. */
  ReadOnlyStringProperty statusProperty() {
    return status;
  }

  Activity loading() {
    return loading;
  }
}
