package dev.cutover.ui.cutover;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import dev.cutover.ui.ShownWatch;
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
 * The cutover screen's reads and steps: judges the gate of the step consumers can take now (again
 * after a reconnect, and once more when a confirmation dialog opens), cuts over and rolls back once
 * the operator typed the view's name, drops v1 and cleans up the staging tables.
 */
public final class CutoverController implements ScreenController {

  private final CutoverModel model;
  private final Workspace workspace;
  private final Activity activity;
  /** While shown: the repair's record and the newest stored verdict, to tell whether the gate shown may be stale. */
  private final ShownWatch<Moves> watch;
  /** The newest stored reconciliation when the gate shown was judged. */
  private Optional<String> judgedReport = Optional.empty();
  /** The move that last made the screen judge the gate again. */
  private Moves lastMove;

  public CutoverController(CutoverModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.watch = new ShownWatch<>(workspace, activity,
        (engine, spec) -> new Moves(engine.repairs().current(spec), engine.reconciliations().newestId(spec)),
        this::judgeAgainIfMoved);
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
    watch.start();
  }

  @Override
  public void hidden() {
    watch.stop();
  }

  /**
   * Judging the gate reads the data, too much to repeat every few seconds; what another console or
   * the command line does to the repair (a cutover, a rollback, a new verdict) is cheap to see: the
   * repair's record and the newest stored reconciliation. When either moved since the gate shown was
   * judged, the gate is judged again, so that the headline never says consumers read a version they
   * no longer read.
   */
  private void judgeAgainIfMoved(Moves now) {
    // Once per move: a judgement that fails leaves the old gate, and is not tried again every few seconds.
    if (model.gateProperty().get() != null && moved(now) && !now.equals(lastMove)) {
      lastMove = now;
      refresh();
      workspace.repair().refresh(); // the banner's phase and next step, too
    }
  }

  private record Moves(Optional<Repair> repair, Optional<String> newestReport) {}

  private boolean moved(Moves now) {
    Repair judged = model.repairProperty().get();
    long judgedVersion = judged == null ? -1 : judged.version();
    return now.repair().map(Repair::version).orElse(-1L) != judgedVersion
        || !now.newestReport().equals(judgedReport);
  }

  private record State(Gate gate, String statement, Retention retention, Optional<Repair> repair, Instant at,
      Optional<String> newestReport) {}

  /** Reads the gate of the step consumers can take now, the statement and the retention horizon. */
  public void refresh() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (workspace.lost().get()) {
      return;
    }
    activity.run("check the gate", p -> read(engine, spec), s -> {
      model.statement(s.statement());
      show(s);
    });
  }

  /**
   * The rollback gate while consumers read v2 (or v1 is dropped), the cutover gate otherwise: the
   * rollback gate is read first because it is cheap, while the cutover gate checks the data.
   */
  private static State read(Engine engine, TableSpec spec) {
    // The repair and the newest verdict before the gate: a cutover or a verdict that lands while the gate is
    // judged is then newer than what the screen remembers, and the next look judges the gate again.
    Optional<Repair> repair = engine.repairs().current(spec);
    Optional<String> newest = engine.reconciliations().newestId(spec);
    Gate rollback = engine.cutovers().rollbackGate(spec);
    Gate shown = rollback.current() == Gate.Version.V2 ? rollback : engine.cutovers().gate(spec);
    return new State(shown, engine.cutovers().statement(spec), engine.cutovers().retention(spec), repair,
        Instant.now(), newest);
  }

  /** A gate that arrives after the server was lost is not shown: the gate stays unknown. */
  private void show(State s) {
    if (workspace.lost().get()) {
      return;
    }
    judgedReport = s.newestReport();
    model.judged(s.gate(), s.retention(), s.repair().orElse(null), s.at());
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
    Optional<String> typed = workspace.dialogs().confirmCutover(new SwapRequest("cutover", model.statementProperty()
        .get(), spec.consumerView().name(), Gate.Version.V1, spec.liveTable().name(), Gate.Version.V2,
        spec.targetTable().name(), freshGate(spec, workspace.engine())));
    typed.ifPresent(t -> swap("cut over", engine -> engine.cutovers().cutover(spec, t)));
  }

  /** Switches consumers back to v1 once the operator typed the view's name. */
  public void rollback() {
    TableSpec spec = workspace.spec();
    Optional<String> typed = workspace.dialogs().confirmRollback(new SwapRequest("rollback", model.statementProperty()
        .get(), spec.consumerView().name(), Gate.Version.V2, spec.targetTable().name(), Gate.Version.V1,
        spec.liveTable().name(), freshGate(spec, workspace.engine())));
    typed.ifPresent(t -> swap("roll back", engine -> engine.cutovers().rollback(spec, t)));
  }

  private void swap(String doing, java.util.function.Function<Engine, SwapResult> action) {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    // A swap runs to its end on the server whether anyone waits or not: no Cancel, and its outcome is always shown.
    activity.runToTheEnd(doing + " " + spec.consumerView(), p -> {
      SwapResult result = action.apply(engine);
      return new Swapped(result, read(engine, spec));
    }, s -> {
      model.swapped(s.result());
      show(s.state());
      workspace.repair().refresh();
    }, failure -> workspace.repair().refresh());
  }

  private record Swapped(SwapResult result, State state) {}

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
        .confirmDropV1(new DialogService.DropRequest(String.join(";\n", plan.statements()), table, words, early,
            plan.readers())).ifPresent(reason -> activity.runToTheEnd("drop " + table, p -> {
          List<String> dropped = engine.cutovers().dropV1(spec, early, reason,
              plan.readers().stream().map(V1Reader::name).toList());
          return new Dropped(dropped, read(engine, spec));
        }, d -> {
          model.dropped("Dropped " + String.join(" and ", d.dropped()) + ". Consumers read "
              + spec.targetTable() + "; there is no rollback any more.");
          show(d.state());
          workspace.repair().refresh();
        }, failure -> workspace.repair().refresh())));
  }

  private record DropPlan(List<V1Reader> readers, List<String> statements) {}

  private record Dropped(List<String> dropped, State state) {}

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
