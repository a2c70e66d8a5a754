package dev.cutover.ui.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class DependentsTest {

  @Test
  void readsTheDependentsTheSideEffectsCheckNames() {
    var report = new PreflightReport(List.of(new Check("roles", Status.PASS, "Consumers read pnl (reads nothing).", ""),
        new Check("side effects", Status.FAIL, "These dependents react to writes: analytics.pnl_mv (reads pnl_v1), "
            + "analytics.alerts (reads pnl_v2). The backfill writes only the target by REPLACE PARTITION, which fires "
            + "no materialized view, but anything that reads these tables must not re-emit effects for replayed "
            + "history.", "Review each one, then acknowledge it with --acknowledge analytics.pnl_mv (once per "
            + "dependent).")));
    assertEquals(List.of(new Dependents.Dependent("analytics.pnl_mv", "pnl_v1"),
        new Dependents.Dependent("analytics.alerts", "pnl_v2")), Dependents.of(report));
  }

  @Test
  void acknowledgedDependentsStayListed() {
    var report = new PreflightReport(List.of(new Check("side effects", Status.WARN,
        "Acknowledged dependents: analytics.pnl_mv (reads pnl_v1).", "")));
    assertEquals(List.of(new Dependents.Dependent("analytics.pnl_mv", "pnl_v1")), Dependents.of(report));
  }
}
