package dev.cutover.engine;

import dev.cutover.engine.api.NodeStatus;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairHistory;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The repair of a table on one server: the engine's steps of its spec, the server a node set of one. */
record ServerRepair(Engine engine, TableSpec spec) implements TargetRepair {

  @Override
  public List<ShardRef> nodes() {
    return List.of();
  }

  @Override
  public PlanSteps plans() {
    return engine.plans().of(spec);
  }

  @Override
  public BackfillSteps backfills() {
    return engine.backfills().of(spec);
  }

  @Override
  public ReconcileSteps reconciliations() {
    return engine.reconciliations().of(spec);
  }

  @Override
  public CutoverSteps cutovers() {
    return engine.cutovers().of(spec);
  }

  /** The snapshot; a gate judged open in it, now, runs the spec's {@code gate_open} hooks once per repair. */
  @Override
  public RepairSnapshot snapshot(Optional<RepairSnapshot> previous) {
    RepairSnapshot read = engine.repairs().snapshot(spec, previous);
    read.gate().filter(j -> !j.at().isBefore(read.at())).ifPresent(j -> RepairHooks.gateJudged(engine.ground(),
        spec, j.gate()));
    return read;
  }

  @Override
  public RepairHistory history(int auditLimit) {
    return RepairHistory.here(engine.records(spec, auditLimit));
  }

  @Override
  public Map<ShardRef, NodeStatus> eachNode() {
    return Map.of();
  }

  @Override
  public Optional<Repair> stateRecord() {
    return engine.repairs().settled(spec);
  }

  /** Nothing to close: the engine's pool is the session's. */
  @Override
  public void close() {}
}
