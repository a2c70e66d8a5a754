package dev.cutover.ui.plan;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Plan;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.util.List;

/** The preflight step's run: every check of the current plan, with the dependents acknowledged so far. */
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
    Engine engine = workspace.engine();
    if (plan == null) {
      activity.fail("There is no plan to check; make a plan on the Range tab first.");
      return;
    }
    List<String> acks = model.acknowledgedDependents();
    activity.run("run the preflight checks", p -> engine.plans().preflight(plan, acks, p), model::checked);
  }
}
