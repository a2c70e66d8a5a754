package dev.cutover.ui.plan;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
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
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    List<HourPartition> chosen;
    try {
      chosen = SampleModel.parse(model.hoursProperty().get());
    } catch (CutoverException e) {
      activity.fail(e.getMessage());
      return;
    }
    activity.run("validate " + chosen.size() + " sample hour(s)", p -> engine.plans().sample(spec, chosen, KEY_LIMIT),
        model::compared);
  }
}
