package dev.cutover.ui.cutover;

import dev.cutover.engine.CutoverSteps;
import dev.cutover.engine.Engine;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.dialogs.DialogService;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What follows a cutover on one server: dropping v1 and the rollback handle once the operator typed the table's
 * name (before the retention horizon only with a written reason), and cleaning up the staging and sample tables
 * that runs left. Every read and drop runs off the FX thread; the repair's snapshot is read again in the same task
 * as a drop, so that the screen's retention and the banner change together.
 */
final class RetireController {

  private final CutoverModel model;
  private final Workspace workspace;
  private final Activity activity;
  /** Told the snapshot a drop was read with: the retention shown now holds for it. */
  private final Consumer<RepairSnapshot> retentionRead;

  RetireController(CutoverModel model, Consumer<RepairSnapshot> retentionRead) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.retentionRead = retentionRead;
  }

  /**
   * Drops v1 and the rollback handle once the operator typed the table's name; before the retention
   * horizon only with a written reason, which goes to the audit trail.
   */
  void dropV1() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    TargetRepair repair = workspace.targetRepair();
    if (repair == null) {
      return;
    }
    CutoverSteps on = repair.cutovers();
    boolean nodes = spec.cluster().isPresent();
    Retention r = model.retentionProperty().get();
    if (r == null || r.keepUntil().isEmpty()) {
      activity.fail("Consumers still read " + spec.liveTable() + "; v1 can be dropped only after the cutover.");
      return;
    }
    Instant horizon = r.keepUntil().get();
    boolean early = horizon.isAfter(Instant.now());
    String table = spec.database() + "." + spec.liveTable() + (nodes ? " on " + on.where() : "");
    String words = early
        ? "The retention horizon is " + Formats.time(horizon) + ": consumers' caches and the reconciliation window "
            + "have not passed yet. Dropping now removes the rollback before then."
        : "The retention horizon " + Formats.time(horizon) + " has passed; the rollback is no longer needed.";
    // The dialog names every table that still uses v1 and the statements it runs; both come from the engine,
    // so they are read first, off this thread.
    activity.run("find what still uses " + table, p -> new DropPlan(on.v1Readers(), on.dropV1Statements()),
        plan -> workspace.dialogs()
        .confirmDropV1(new DialogService.DropRequest(workspace.server(), String.join(";\n", plan.statements()), table,
            words, early, plan.readers())).ifPresent(reason -> activity.runToTheEnd("drop " + table, p -> {
          List<String> dropped = on.dropV1(early, reason, plan.readers().stream().map(V1Reader::name).toList());
          // The snapshot read after the drop, in the same task: every panel follows the drop at once.
          return new Dropped(dropped, repair.snapshot(Optional.empty()), on.retention());
        }, d -> {
          model.dropped("Dropped " + String.join(" and ", d.dropped()) + ". Consumers read "
              + spec.targetTable() + (nodes ? " on every node" : "") + "; there is no rollback any more.");
          model.retention(d.retention());
          retentionRead.accept(d.snapshot());
          workspace.repair().take(engine, spec, d.snapshot());
        }, failure -> workspace.repair().refresh())));
  }

  private record Dropped(List<String> dropped, RepairSnapshot snapshot, Retention retention) {}

  private record DropPlan(List<V1Reader> readers, List<String> statements) {}

  /** Drops the staging and sample tables left by runs, once the operator confirmed. */
  void cleanup() {
    TableSpec spec = workspace.spec();
    CutoverSteps on = workspace.stepsOf(TargetRepair::cutovers);
    if (on != null && workspace.dialogs().confirmCleanup(spec.database() + "." + spec.targetTable()
        + (spec.cluster().isPresent() ? " on " + on.where() : ""))) {
      activity.run("clean up staging tables", p -> on.cleanup(),
          dropped -> model.cleanedUp(words(dropped)));
    }
  }

  static String words(List<String> dropped) {
    return dropped.isEmpty() ? "Nothing to drop: no staging or sample table is left."
        : "Dropped " + dropped.size() + " table(s): " + String.join(", ", dropped) + ".";
  }
}
