package dev.cutover.engine.preflight;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TargetTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The checks before a backfill, run in order and assembled into one report. They only read (the
 * sample hour is computed in a SELECT); the target is created by the backfill itself, and the
 * report says so when it is absent. Each check is its own class in this package.
 */
public final class Preflight {

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final TableSpec spec;
  private final TargetTables tables;
  private final StateStore store;

  public Preflight(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.spec = on.spec();
    this.tables = new TargetTables(on.sql(), on.spec());
    this.store = on.state();
  }

  /**
   * Runs every check for a plan.
   *
   * @param acknowledgedDependents dependents of the target or of v1 the operator has acknowledged, each with its reason
   */
  public PreflightReport run(Plan plan, List<AcknowledgedDependent> acknowledgedDependents) {
    return run(plan, acknowledgedDependents, Progress.NONE);
  }

  /** Runs every check for a plan, reporting each as it starts; stops between checks when cancelled. */
  public PreflightReport run(Plan plan, List<AcknowledgedDependent> acknowledgedDependents, Progress progress) {
    SideEffectsCheck sideEffects = new SideEffectsCheck(sql, spec);
    List<Dependent> dependents = sideEffects.dependents(acknowledgedDependents);
    List<Map.Entry<String, Supplier<Check>>> steps = List.of(
        Map.entry("partition key", () -> new PartitionCheck(spec, tables).check(plan)),
        Map.entry("transform", () -> new TransformColumnsCheck(sql, spec, tables).check()),
        Map.entry("rules", () -> new RulesCheck(sql, spec).check()),
        Map.entry("roles", () -> new RolesCheck(sql, spec, tables).check()),
        Map.entry("boundary", () -> new BoundaryCheck(on).check(plan)),
        Map.entry("live writer", () -> new LiveWriterCheck(on).check(plan)),
        Map.entry("reprocessing window", () -> new ReprocessingWindowCheck(on).check(plan)),
        Map.entry("side effects", () -> sideEffects.check(dependents)),
        Map.entry("determinism (a sample hour, twice)", () -> new DeterminismCheck(sql, spec).check(plan)),
        Map.entry("privileges", () -> new Privileges(sql, spec, store.database()).check()),
        Map.entry("disk", () -> new DiskCheck(sql, spec).check(plan)));
    List<Check> checks = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      progress.check("checking " + steps.get(i).getKey());
      progress.update("Checking " + steps.get(i).getKey() + " (" + (i + 1) + " of " + steps.size() + ")",
          (double) i / steps.size());
      checks.add(steps.get(i).getValue().get());
    }
    return new PreflightReport(checks, dependents);
  }
}
