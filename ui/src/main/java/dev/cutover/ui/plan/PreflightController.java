package dev.cutover.ui.plan;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.dialogs.DialogService.SideEffectRequest;
import java.util.List;
import java.util.Optional;

/**
 * The preflight step's run: every check of the current plan, with the dependents acknowledged so far; and
 * the acknowledgements themselves, each asked with its reason and taken back on the operator's word.
 */
public final class PreflightController {

  private final PreflightModel model;
  private final Workspace workspace;
  private final Activity activity;

  PreflightController(PreflightModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
  }

  /** Runs every check of the current plan, with the dependents acknowledged so far. */
  public void run() {
    Plan plan = workspace.plan();
    PlanSteps steps = workspace.stepsOf(TargetRepair::plans);
    if (plan == null || steps == null) {
      activity.fail("There is no plan to check; make a plan on the Range tab first.");
      return;
    }
    List<AcknowledgedDependent> acks = model.acknowledgedDependents();
    activity.run("run the preflight checks on " + steps.where(), p -> steps.preflight(plan, acks, p), model::checked);
  }

  /**
   * Asks why replaying history through {@code dependent} is safe; an answer acknowledges it for the next run
   * of the checks, a declined question leaves it as it was, and a reason the engine refuses is said in its
   * sentence.
   */
  public void acknowledge(Dependent dependent) {
    TableSpec spec = workspace.spec();
    Optional<String> reason = workspace.dialogs().acknowledgeSideEffect(new SideEffectRequest(dependent.name(),
        dependent.reads(), spec.database() + "." + spec.targetTable()));
    if (reason.isEmpty()) {
      return;
    }
    try {
      model.acknowledge(new AcknowledgedDependent(dependent.name(), reason.get()));
    } catch (CutoverException refused) {
      activity.fail(refused.getMessage());
    }
  }

  /** Takes back the acknowledgement of {@code dependent}: the backfill needs the preflight run again without it. */
  public void takeBack(String dependent) {
    model.takeBack(dependent);
  }
}
