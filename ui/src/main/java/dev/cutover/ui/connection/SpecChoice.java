package dev.cutover.ui.connection;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Which spec the console works on: the file named on the connection screen, loading it (checked on
 * the server), what it says in one sentence, and reading it again after a reconnect, where a spec
 * that did not change is kept as it is so that the screens keep what they made of it.
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

  /** Asks for a spec file and loads it. */
  void choose() {
    workspace.dialogs().chooseSpecFile(parse(file.get())).ifPresent(p -> {
      file.set(p.toString());
      load();
    });
  }

  /** Loads and validates the spec named in the field, in the background. */
  void load() {
    Engine engine = workspace.engine();
    if (engine == null) {
      loading.fail("Connect first: the spec is checked against the server.");
      return;
    }
    Optional<Path> path = parse(file.get());
    if (path.isEmpty()) {
      loading.fail("Give the path of a spec file (YAML), or choose one with Browse.");
      return;
    }
    if (!Files.isRegularFile(path.get())) {
      loading.fail("There is no file at " + path.get().toAbsolutePath() + "; check the path or choose the spec "
          + "with Browse.");
      return;
    }
    loading.run("load the spec " + path.get().getFileName(), p -> engine.specs().load(path.get()),
        spec -> show(spec, path.get()));
  }

  /** Reads the spec file again after a reconnect and checks it on the server; an unchanged spec is kept. */
  void reread() {
    Engine engine = workspace.engine();
    Optional<Path> path = parse(file.get());
    if (engine == null || workspace.spec() == null || path.isEmpty()) {
      return;
    }
    loading.run("read the spec " + path.get().getFileName() + " again", p -> engine.specs().load(path.get()), spec -> {
      if (!spec.equals(workspace.spec())) {
        show(spec, path.get());
      }
    });
  }

  private void show(TableSpec spec, Path path) {
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
        + s.sha256().substring(0, Math.min(12, s.sha256().length())) + "…";
  }

  private static String names(List<Identifier> ids) {
    return String.join(", ", ids.stream().map(Identifier::name).toList());
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
