package dev.cutover.ui.plan;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService.AbandonRequest;
import dev.cutover.ui.dialogs.DialogService.Abandonment;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.util.Optional;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The plan screen's reads and steps: the reprocessing window and the live edge (read again every few
 * seconds while the screen is shown), the plan the engine makes of the chosen range and boundary, and
 * abandoning the repair once the operator confirmed. The preflight and sample tabs' steps are {@link
 * PreflightController} and {@link SampleController}, made here.
 */
public final class PlanController implements ScreenController {

  static final Duration LIVE_REFRESH = Duration.ofSeconds(5);

  private final PlanModel model;
  private final Workspace workspace;
  private final Activity activity;
  private final PreflightController preflight;
  private final SampleController sample;
  private TableSpec loadedFor;
  private TaskExecutor.Handle poll;
  private boolean polling;

  public PlanController(PlanModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.preflight = new PreflightController(model.preflight());
    this.sample = new SampleController(model.sample());
  }

  @Override
  public void shown() {
    if (workspace.spec() != loadedFor) {
      loadWindow();
    } else if (!workspace.lost().get()) {
      // What changed while the screen was hidden (a repair started or given up) shows at once, not at the next poll.
      refreshLive();
    }
    poll = workspace.executor().every(LIVE_REFRESH, () -> {
      if (!workspace.lost().get()) {
        refreshLive();
      }
    });
  }

  /**
   * After a reconnect: reads the reprocessing window, the live edge and the repair again, keeping the
   * range the operator chose; a preflight made before no longer clears the backfill (see {@link
   * PreflightModel#expire()}).
   */
  @Override
  public void reread() {
    TableSpec spec = workspace.spec();
    PlanSteps steps = steps();
    model.preflight().expire();
    if (spec == null || steps == null || loadedFor != spec) {
      return;
    }
    polling = false;
    activity.run("read the reprocessing window and the live edge again", p -> new Window(steps.reprocessingStart(),
        steps.live(), steps.openRepair()), w -> {
          model.live().set(w.live());
          model.repair().set(w.repair().orElse(null));
          model.windowStart().set(w.start().orElse(null));
          model.liveError().set("");
        });
  }

  @Override
  public ObservableBooleanValue reading() {
    return activity.runningProperty();
  }

  @Override
  public void hidden() {
    if (poll != null) {
      poll.cancel();
      poll = null;
    }
  }

  /** Reads the reprocessing window and the live edge, and proposes the default range and boundary. */
  public void loadWindow() {
    TableSpec spec = workspace.spec();
    PlanSteps steps = steps();
    if (steps == null) {
      return;
    }
    loadedFor = spec;
    activity.run("read the reprocessing window and the live edge on " + steps.where(), p -> {
      Optional<HourPartition> start = steps.reprocessingStart();
      return new Window(start, steps.live(), steps.openRepair());
    }, w -> {
      model.live().set(w.live());
      model.repair().set(w.repair().orElse(null));
      model.windowStart().set(w.start().orElse(null));
      if (w.start().isEmpty()) {
        activity.fail("The sources of " + spec.name() + " hold no rows, so there is nothing to recompute.");
        return;
      }
      if (w.live().liveEdge().isEmpty()) {
        activity.fail("The live table " + spec.liveTable() + " holds no rows, so there is no live edge to place the "
            + "boundary behind; start the live writer first.");
        return;
      }
      model.resetBoundary();
      model.fromProperty().set(w.start().get());
      model.toProperty().set(model.boundaryInForce());
    });
  }

  private record Window(Optional<HourPartition> start, LiveStatus live, Optional<Repair> repair) {}

  private record Live(LiveStatus live, Optional<Repair> repair) {}

  /**
   * The planning steps of the loaded spec's repair: the server's, or every shard's as one for a sharded table; null
   * while there are none.
   */
  private PlanSteps steps() {
    return workspace.stepsOf(TargetRepair::plans);
  }

  /** Reads the live edge again; at most one read at a time. */
  public void refreshLive() {
    PlanSteps steps = steps();
    if (polling || steps == null) {
      return;
    }
    polling = true;
    workspace.executor().submit(p -> new Live(steps.live(), steps.openRepair()), (message, fraction) -> {},
        read -> {
          polling = false;
          model.liveError().set("");
          model.live().set(read.live());
          model.repair().set(read.repair().orElse(null));
        }, failure -> {
      polling = false;
      model.liveError().set(Errors.sentence(failure, "read the live edge"));
    });
  }

  /**
   * Asks the engine for a plan of the chosen range and boundary; bad input is refused with its
   * sentence. While the repair has pinned its boundary, the engine plans with that one (whatever the
   * field says), so that a repair pinned meanwhile by another process is kept too.
   */
  public void makePlan() {
    PlanSteps steps = steps();
    if (steps == null) {
      return;
    }
    HourPartition b;
    try {
      b = HourPartition.parse("boundary", model.boundaryProperty().get());
    } catch (CutoverException e) {
      activity.fail(e.getMessage());
      return;
    }
    Optional<HourPartition> chosen = PlanModel.pinned(model.repairProperty().get()).isPresent() ? Optional.empty()
        : Optional.of(b);
    Optional<HourPartition> f = Optional.ofNullable(model.fromProperty().get());
    Optional<HourPartition> t = Optional.ofNullable(model.toProperty().get()).map(x -> b.isBefore(x) ? b : x);
    workspace.planProperty().set(null);
    activity.run("plan the backfill on " + steps.where(), p -> steps.plan(f, t, chosen), plan -> {
      workspace.planProperty().set(plan);
      model.boundaryProperty().set(plan.boundary().toString());
      model.fromProperty().set(plan.range().from());
      model.toProperty().set(plan.range().to());
      model.sample().suggest(plan);
    });
  }

  /**
   * Gives up the repair once the operator typed the target table's name and wrote a reason: its
   * boundary and ledger stop counting, the plan made with its boundary is dropped, and the
   * boundary field offers the safe default again.
   */
  public void abandon() {
    TableSpec spec = workspace.spec();
    PlanSteps steps = steps();
    Repair r = model.repairProperty().get();
    if (r == null || steps == null) {
      activity.fail("No repair of " + spec.database() + "." + spec.targetTable() + " is under way; there is nothing "
          + "to abandon.");
      return;
    }
    Optional<Abandonment> answer = workspace.dialogs().confirmAbandon(new AbandonRequest(workspace.server(),
        spec.database() + "." + spec.targetTable(), spec.targetTable().name(), r.id(), r.phase().words(), r.boundary(),
        Safety.ABANDON));
    if (answer.isEmpty()) {
      return;
    }
    activity.run("abandon repair " + r.id(), p -> {
      steps.abandon(answer.get().typedName(), answer.get().reason());
      return new Live(steps.live(), steps.openRepair());
    }, read -> {
      workspace.planProperty().set(null);
      model.live().set(read.live());
      model.repair().set(read.repair().orElse(null));
      model.resetBoundary();
      // A range that ended at the old boundary ends at the new one.
      if (r.boundary().isPresent() && r.boundary().get().equals(model.toProperty().get())) {
        model.toProperty().set(model.boundaryInForce());
      }
      workspace.repair().refresh();
    }, failure -> workspace.repair().refresh());
  }

  /** The preflight tab's step. */
  public PreflightController preflight() {
    return preflight;
  }

  /** The sample tab's step. */
  public SampleController sample() {
    return sample;
  }
}
