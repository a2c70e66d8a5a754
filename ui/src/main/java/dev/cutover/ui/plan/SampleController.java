package dev.cutover.ui.plan;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.util.List;

/** The sample step's run: the hours named in the field, computed into a scratch table and compared with v1. */
public final class SampleController {

  /** Keys listed at most; a sample is a look, not a proof. */
  static final int KEY_LIMIT = 2_000;

  private final SampleModel model;
  private final Workspace workspace;
  private final Activity activity;

  SampleController(SampleModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
  }

  /** Computes and compares the hours named in the field. */
  public void run() {
    PlanSteps steps = workspace.stepsOf(TargetRepair::plans);
    if (steps == null) {
      return;
    }
    List<HourPartition> chosen;
    try {
      chosen = SampleModel.parse(model.hoursProperty().get());
    } catch (CutoverException e) {
      activity.fail(e.getMessage());
      return;
    }
    activity.run("validate " + chosen.size() + " sample hour(s) on " + steps.where(), p -> steps.sample(chosen, KEY_LIMIT),
        model::compared);
  }
}
