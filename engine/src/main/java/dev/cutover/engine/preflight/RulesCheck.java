package dev.cutover.engine.preflight;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.reconcile.Rules;
import dev.cutover.engine.sql.Sql;

/** Whether every expected-difference rule of the spec compiles against both versions' columns. */
final class RulesCheck {

  private final Sql sql;
  private final TableSpec spec;

  RulesCheck(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  Check check() {
    if (spec.expectedDifferences().isEmpty()) {
      return new Check("rules", Status.PASS, "The spec states no expected difference: every difference between v1 "
          + "and v2 will be unexpected until acknowledged.", "");
    }
    try {
      new Rules(sql, spec).compile(true);
    } catch (InvalidInputException e) {
      return new Check("rules", Status.FAIL, e.getMessage(), "Fix that field of the rule in the spec and run preflight "
          + "again.");
    }
    return new Check("rules", Status.PASS, "Every where, check and delta of the " + spec.expectedDifferences().size()
        + " rule(s) is one expression that resolves against the columns of " + spec.liveTable() + " and "
        + spec.targetTable() + ".", "");
  }
}
