package dev.cutover.ui.cutover;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.dialogs.DialogService.SwapRequest;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The cutover screen's steps, over the repair's snapshot: the gate it shows is the one in the console's one
 * snapshot of the repair ({@link dev.cutover.ui.repair.RepairWatch}), read with the banner's phase, the next
 * step and the badges, so that none of them says another thing; it judges the gate again only as a
 * confirmation dialog opens (and the swap once more itself). It cuts over and rolls back once the operator
 * typed the view's name, drops v1 and cleans up the staging tables.
 */
public final class CutoverController implements ScreenController {

  private final CutoverModel model;
  private final Workspace workspace;
  private final Activity activity;
  /** The repair's version and what consumers read when the retention shown was read: it changes with a swap. */
  private Optional<String> retentionRead = Optional.empty();

  public CutoverController(CutoverModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    workspace.repair().snapshotProperty().subscribe(this::follow);
  }

  @Override
  public void reread() {
    if (workspace.spec() != null && workspace.engine() != null) {
      refresh();
    }
  }

  @Override
  public ObservableBooleanValue reading() {
    return activity.runningProperty();
  }

  @Override
  public void shown() {
    refresh();
  }

  @Override
  public void hidden() {
  }

  /**
   * A new snapshot of the repair: its gate, with when it was judged, and the repair it was read with. The
   * retention of v1 moves only with a swap: it is read again when the repair or what consumers read moved.
   */
  private void follow(RepairSnapshot snapshot) {
    if (snapshot == null || snapshot.gate().isEmpty() || workspace.lost().get()) {
      return;
    }
    RepairSnapshot.Judged judged = snapshot.gate().get();
    Repair repair = snapshot.status().repair().orElse(null);
    String ground = ground(snapshot);
    if (retentionRead.equals(Optional.of(ground)) && model.retentionProperty().get() != null) {
      model.judged(judged.gate(), model.retentionProperty().get(), repair, judged.at());
      return;
    }
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    workspace.executor().submit(p -> engine.cutovers().retention(spec), (m, f) -> {}, retention -> {
      if (snapshot == workspace.repair().snapshotProperty().get()) {
        retentionRead = Optional.of(ground);
        model.judged(judged.gate(), retention, repair, judged.at());
      }
    }, failure -> activity.fail(Errors.sentence(failure, "read the retention of v1")));
  }

  /** What the retention of v1 depends on: the repair's record and what consumers read. */
  private static String ground(RepairSnapshot snapshot) {
    return snapshot.status().repair().map(r -> r.id() + "/" + r.version()).orElse("none") + "/" + snapshot.reads();
  }

  private record State(Gate gate, String statement, Retention retention, Optional<Repair> repair, Instant at) {}

  /** Reads the statement the swap runs, and the repair's snapshot again, with its gate. */
  public void refresh() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (workspace.lost().get()) {
      return;
    }
    activity.run("read the statement of the swap", p -> engine.cutovers().statement(spec), model::statement);
    workspace.repair().judgeAgain();
  }

  /**
   * The rollback gate while consumers read v2 (or v1 is dropped), the cutover gate otherwise, judged now for a
   * confirmation dialog: the rollback gate is read first because it is cheap, while the cutover gate checks the
   * data.
   */
  private static State read(Engine engine, TableSpec spec) {
    Optional<Repair> repair = engine.repairs().current(spec);
    Gate rollback = engine.cutovers().rollbackGate(spec);
    Gate shown = rollback.current() == Gate.Version.V2 ? rollback : engine.cutovers().gate(spec);
    return new State(shown, engine.cutovers().statement(spec), engine.cutovers().retention(spec), repair,
        Instant.now());
  }

  /** A gate judged for a dialog is shown too, and the snapshot read again so that every panel follows it. */
  private void show(State s) {
    if (workspace.lost().get()) {
      return;
    }
    model.judged(s.gate(), s.retention(), s.repair().orElse(null), s.at());
    workspace.repair().refresh();
  }

  /**
   * The gate judged again, now, for a confirmation dialog; the screen shows it too. Refused at once
   * while the server does not answer.
   */
  private DialogService.GateCheck freshGate(TableSpec spec, Engine engine) {
    return (judged, failed) -> {
      if (workspace.lost().get()) {
        failed.accept("the server does not answer; " + workspace.linkProperty().get().sentence());
        return;
      }
      workspace.executor().submit(p -> read(engine, spec), (message, fraction) -> {}, s -> {
        if (workspace.lost().get()) {
          failed.accept("the server stopped answering while the gate was judged.");
          return;
        }
        show(s);
        judged.accept(s.gate(), s.at());
      }, failure -> failed.accept(Errors.sentence(failure, "judge the gate")));
    };
  }

  /** Switches consumers to v2 once the operator typed the view's name. */
  public void cutover() {
    TableSpec spec = workspace.spec();
    Optional<String> typed = workspace.dialogs().confirmCutover(new SwapRequest(workspace.server(), "cutover",
        model.statementProperty().get(), spec.consumerView().name(), Gate.Version.V1, spec.liveTable().name(),
        Gate.Version.V2, spec.targetTable().name(), freshGate(spec, workspace.engine())));
    typed.ifPresent(t -> swap("cut over", engine -> engine.cutovers().cutover(spec, t)));
  }

  /** Switches consumers back to v1 once the operator typed the view's name. */
  public void rollback() {
    TableSpec spec = workspace.spec();
    Optional<String> typed = workspace.dialogs().confirmRollback(new SwapRequest(workspace.server(), "rollback",
        model.statementProperty().get(), spec.consumerView().name(), Gate.Version.V2, spec.targetTable().name(),
        Gate.Version.V1, spec.liveTable().name(), freshGate(spec, workspace.engine())));
    typed.ifPresent(t -> swap("roll back", engine -> engine.cutovers().rollback(spec, t)));
  }

  private void swap(String doing, java.util.function.Function<Engine, SwapResult> action) {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    // A swap runs to its end on the server whether anyone waits or not: no Cancel, and its outcome is always shown.
    // The snapshot is read in the same task, after the swap: the result, the gate, the badge and the banner then
    // change together, never a gate judged before the swap beside the swap's result.
    activity.runToTheEnd(doing + " " + spec.consumerView(), p -> {
      SwapResult result = action.apply(engine);
      return new Swapped(result, engine.repairs().snapshot(spec, Optional.empty()), engine.cutovers().retention(spec));
    }, s -> {
      model.swapped(s.result());
      model.retention(s.retention());
      retentionRead = Optional.of(ground(s.snapshot()));
      workspace.repair().take(engine, spec, s.snapshot());
    }, failure -> workspace.repair().refresh());
  }

  private record Swapped(SwapResult result, RepairSnapshot snapshot, Retention retention) {}

  /**
   * Drops v1 and the rollback handle once the operator typed the table's name; before the retention
   * horizon only with a written reason, which goes to the audit trail.
   */
  public void dropV1() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    Retention r = model.retentionProperty().get();
    if (r == null || r.keepUntil().isEmpty()) {
      activity.fail("Consumers still read " + spec.liveTable() + "; v1 can be dropped only after the cutover.");
      return;
    }
    Instant horizon = r.keepUntil().get();
    boolean early = horizon.isAfter(Instant.now());
    String table = spec.database() + "." + spec.liveTable();
    String words = early
        ? "The retention horizon is " + Formats.time(horizon) + ": consumers' caches and the reconciliation window "
            + "have not passed yet. Dropping now removes the rollback before then."
        : "The retention horizon " + Formats.time(horizon) + " has passed; the rollback is no longer needed.";
    // The dialog names every table that still uses v1 and the statements it runs; both come from the engine,
    // so they are read first, off this thread.
    activity.run("find what still uses " + table, p -> new DropPlan(engine.cutovers().v1Readers(spec),
        engine.cutovers().dropV1Statements(spec)), plan -> workspace.dialogs()
        .confirmDropV1(new DialogService.DropRequest(workspace.server(), String.join(";\n", plan.statements()), table,
            words, early, plan.readers())).ifPresent(reason -> activity.runToTheEnd("drop " + table, p -> {
          List<String> dropped = engine.cutovers().dropV1(spec, early, reason,
              plan.readers().stream().map(V1Reader::name).toList());
          return new Dropped(dropped, engine.repairs().snapshot(spec, Optional.empty()),
              engine.cutovers().retention(spec));
        }, d -> {
          model.dropped("Dropped " + String.join(" and ", d.dropped()) + ". Consumers read "
              + spec.targetTable() + "; there is no rollback any more.");
          model.retention(d.retention());
          retentionRead = Optional.of(ground(d.snapshot()));
          workspace.repair().take(engine, spec, d.snapshot());
        }, failure -> workspace.repair().refresh())));
  }

  private record Dropped(List<String> dropped, RepairSnapshot snapshot, Retention retention) {}

  private record DropPlan(List<V1Reader> readers, List<String> statements) {}

  /** Drops the staging and sample tables left by runs, once the operator confirmed. */
  public void cleanup() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (workspace.dialogs().confirmCleanup(spec.database() + "." + spec.targetTable())) {
      activity.run("clean up staging tables", p -> engine.cutovers().cleanup(spec),
          dropped -> model.cleanedUp(words(dropped)));
    }
  }

  static String words(List<String> dropped) {
    return dropped.isEmpty() ? "Nothing to drop: no staging or sample table is left."
        : "Dropped " + dropped.size() + " table(s): " + String.join(", ", dropped) + ".";
  }
}
