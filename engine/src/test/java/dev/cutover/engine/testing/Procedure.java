package dev.cutover.engine.testing;

import dev.cutover.engine.ShardParts;
import dev.cutover.engine.ClearedPlan;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import java.util.List;

/** The operator's steps as the console and the command line take them: preflight first, then the backfill. */
public final class Procedure {

  private Procedure() {}

  /** The reason the operator gives here for every dependent: the test worlds' dependents send nothing anywhere. */
  public static final String REASON = "the test's views send nothing anywhere; replayed hours trigger nothing";

  /** The plan through its preflight, every dependent acknowledged; fails the test with the report if a check fails. */
  public static ClearedPlan clear(Engine engine, Plan plan) {
    List<AcknowledgedDependent> dependents = engine.plans().preflight(plan, List.of()).report().dependents().stream()
        .map(d -> new AcknowledgedDependent(d.name(), REASON)).toList();
    Preflighted checked = engine.plans().preflight(plan, dependents);
    return checked.cleared().orElseThrow(() -> new AssertionError("the preflight failed: "
        + checked.report().failures()));
  }

  /**
   * Every shard's plan through its preflight, every dependent on any shard acknowledged; fails the test with
   * each shard's failures if a check fails.
   */
  public static Preflighted clear(dev.cutover.engine.TargetRepair repair,
      dev.cutover.engine.ShardParts.ClusterPlan plan) {
    List<AcknowledgedDependent> dependents = ShardParts.of(repair).preflight(plan, List.of()).report().dependents().stream()
        .map(PreflightReport.Dependent::name).distinct()
        .map(name -> new AcknowledgedDependent(name, REASON)).toList();
    var checked = ShardParts.of(repair).preflight(plan, dependents);
    if (!checked.passed()) {
      throw new AssertionError("the preflight failed: " + checked.failures());
    }
    return checked;
  }

  public static RunHandle start(Engine engine, Plan plan) {
    return engine.backfills().start(clear(engine, plan), BackfillEvent.Listener.NONE);
  }

  /** Starts the plan's backfill through its preflight and waits for its end. */
  public static RunRecord backfill(Engine engine, Plan plan) throws InterruptedException {
    return start(engine, plan).await();
  }
}
