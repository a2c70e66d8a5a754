package dev.cutover.ui.connection;

import dev.cutover.engine.Engine;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Loading the spec the console works on: the file the operator names or chooses, checked on the
 * server, and read again after a reconnect, where a spec that did not change is kept as it is so that
 * the screens keep what they made of it. Writes into {@link SpecChoice}.
 */
final class SpecController {

  private final SpecChoice choice;
  private final Workspace workspace;
  private final Activity loading;

  SpecController(SpecChoice choice, Workspace workspace) {
    this.choice = choice;
    this.workspace = workspace;
    this.loading = choice.loading();
  }

  /** Asks for a spec file and loads it. */
  void choose() {
    workspace.dialogs().chooseSpecFile(choice.path()).ifPresent(p -> {
      choice.fileProperty().set(p.toString());
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
    Optional<Path> path = choice.path();
    if (path.isEmpty()) {
      loading.fail("Give the path of a spec file (YAML), or choose one with Browse.");
      return;
    }
    if (!Files.isRegularFile(path.get())) {
      loading.fail("There is no file at " + path.get().toAbsolutePath() + "; check the path or choose the spec "
          + "with Browse.");
      return;
    }
    var demo = workspace.demo();
    loading.run("load the spec " + path.get().getFileName(), p -> {
      Path actual = demo.map(d -> d.spec(path.get())).orElse(path.get());
      return new Loaded(oneServer(engine.specs().load(actual), actual), actual);
    }, loaded -> {
      if (!loaded.path().equals(path.get())) {
        choice.fileProperty().set(loaded.path().toString());
      }
      choice.show(loaded.spec(), loaded.path());
    });
  }

  private record Loaded(dev.cutover.engine.api.TableSpec spec, Path path) {}

  /**
   * The console repairs a table on one server: every screen reads one engine. A sharded table's spec is
   * refused here rather than shown as if shard 1 were the whole table.
   */
  private static dev.cutover.engine.api.TableSpec oneServer(dev.cutover.engine.api.TableSpec spec, Path path) {
    if (spec.cluster().isPresent()) {
      throw new dev.cutover.engine.api.InvalidInputException("spec", "The spec " + spec.name() + " names the cluster "
          + spec.cluster().get().name() + ": its table is sharded, and the console shows one server, so no screen "
          + "here would be true of every shard. Run the repair with ./cutover cluster plan|backfill|reconcile|"
          + "cutover|rollback|status --spec " + path + " (docs/CLUSTER.md).");
    }
    return spec;
  }

  /** Reads the spec file again after a reconnect and checks it on the server; an unchanged spec is kept. */
  void reread() {
    Engine engine = workspace.engine();
    Optional<Path> path = choice.path();
    if (engine == null || workspace.spec() == null || path.isEmpty()) {
      return;
    }
    loading.run("read the spec " + path.get().getFileName() + " again", p -> oneServer(engine.specs().load(path.get()),
        path.get()), spec -> {
      if (!spec.equals(workspace.spec())) {
        choice.show(spec, path.get());
      }
    });
  }
}
