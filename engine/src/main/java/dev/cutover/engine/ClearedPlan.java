package dev.cutover.engine;

import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;

/**
 * A plan that passed its preflight: the only thing a backfill accepts. It comes only from
 * {@link Engine#preflight}, which plans again through the planner from the plan's own request, so
 * whatever a caller hands in, what runs is what the planner decided and the checks passed. A
 * resumed run goes through the same door.
 */
public final class ClearedPlan {

  private final Plan plan;
  private final PreflightReport report;

  ClearedPlan(Plan plan, PreflightReport report) {
    if (!report.passed()) {
      throw new IllegalArgumentException("a plan whose preflight failed is not cleared");
    }
    this.plan = plan;
    this.report = report;
  }

  public Plan plan() {
    return plan;
  }

  public PreflightReport report() {
    return report;
  }
}
