package dev.cutover.ui.connection;

import dev.cutover.engine.Engine;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.tasks.TaskExecutor;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Loading the spec the console works on: the file the operator names or chooses, checked on the
 * server, and read again after a reconnect, where a spec that did not change is kept as it is so that
 * the screens keep what they made of it. A spec that names a cluster opens its repair on every node of
 * that cluster, for every screen. Writes into {@link SpecChoice}.
 */
final class SpecController {

  private final SpecChoice choice;
  private final Workspace workspace;
  private final Activity loading;
  /** Repairs opened by a load whose result is not shown yet; see {@link #closeUnclaimed}. */
  private final java.util.Set<TargetRepair> unclaimed = java.util.concurrent.ConcurrentHashMap.newKeySet();

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
    if (workspace.drivingShardsProperty().get()) {
      loading.fail("A step runs on the shards of the loaded spec (a backfill, a swap or a check) and holds its "
          + "connections; wait for it, or cancel the backfill on the Backfill screen, before loading a spec.");
      return;
    }
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
      TableSpec spec = engine.specs().load(actual);
      return new Loaded(spec, actual, sharded(engine, spec, p));
    }, loaded -> {
      if (!loaded.path().equals(path.get())) {
        choice.fileProperty().set(loaded.path().toString());
      }
      show(loaded);
    });
  }

  private record Loaded(TableSpec spec, Path path, Optional<TargetRepair> sharded) {}

  /**
   * A spec that names a cluster is repaired on every node of it: the repair is opened here, off the FX
   * thread, and a node that does not answer refuses the spec, by name.
   */
  private Optional<TargetRepair> sharded(Engine engine, TableSpec spec, TaskExecutor.Progress progress) {
    if (spec.cluster().isEmpty()) {
      return Optional.empty();
    }
    progress.update("open a connection to every node of the cluster " + spec.cluster().get().name(), -1);
    TargetRepair opened = engine.repair(spec);
    unclaimed.add(opened);
    return Optional.of(opened);
  }

  private void show(Loaded loaded) {
    loaded.sharded().ifPresent(unclaimed::remove);
    closeUnclaimed();
    workspace.openRepairProperty().set(loaded.sharded().orElse(null));
    choice.show(loaded.spec(), loaded.path());
  }

  /**
   * Closes the repairs opened for a load whose result was never shown (cancelled, or overtaken by a
   * later load): only the newest load's result is shown, so every other one opened before it is done with.
   */
  private void closeUnclaimed() {
    List<TargetRepair> closing = List.copyOf(unclaimed);
    unclaimed.removeAll(closing);
    if (!closing.isEmpty()) {
      workspace.executor().submit(p -> {
        closing.forEach(TargetRepair::close);
        return closing.size();
      }, closed -> {}, failure -> {});
    }
  }

  /** Reads the spec file again after a reconnect and checks it on the server; an unchanged spec is kept. */
  void reread() {
    Engine engine = workspace.engine();
    Optional<Path> path = choice.path();
    if (engine == null || workspace.spec() == null || path.isEmpty()) {
      return;
    }
    if (workspace.drivingShardsProperty().get()) {
      return; // the repair's connections are in use by a step; the operator loads the spec again once it has ended
    }
    TableSpec before = workspace.spec();
    loading.run("read the spec " + path.get().getFileName() + " again", p -> {
      TableSpec spec = engine.specs().load(path.get());
      return new Loaded(spec, path.get(), spec.equals(before) ? Optional.empty() : sharded(engine, spec, p));
    }, loaded -> {
      if (!loaded.spec().equals(workspace.spec())) {
        show(loaded);
      } else {
        closeUnclaimed();
      }
    });
  }
}
