package dev.cutover.engine;

import dev.cutover.engine.api.PreflightReport;
import java.util.Optional;

/**
 * The outcome of a preflight: every check, and the plan it cleared for a backfill when none failed.
 *
 * @param cleared present exactly when {@code report.passed()}
 */
public record Preflighted(PreflightReport report, Optional<ClearedPlan> cleared) {

  public boolean passed() {
    return cleared.isPresent();
  }
}
