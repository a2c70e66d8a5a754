package dev.cutover.engine;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.NodeStatus;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairHistory;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.cluster.ClusterNodes;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One repair of a table sharded over a cluster: the single-node procedure on every shard at once, on the
 * shard's local tables, held together where a guarantee spans the cluster. Every shard plans the same
 * range and the same boundary B (the earliest any shard's live edge allows, or the one already pinned,
 * which every shard must agree on); the preflight adds, on every node, that a shard's hours are complete
 * from its own sources; each shard backfills its own hours into its own v2 and keeps its own ledger, so a
 * shard that fails is named and resumed alone; the reconciliation is green only when every shard's is;
 * and consumers switch node by node only once every node's gate is open, with the nodes already switched
 * switched back when one fails, so that no node is left reading the other version. Its steps are every
 * {@link TargetRepair}'s, answered as one over the shards: planning {@link ClusterPlans}, the backfill
 * {@link ClusterRuns} (each shard's part started by {@link ClusterBackfills}), the reconciliation
 * {@link ClusterReconcile}, the switch of consumers {@link ClusterCutover}; besides them it reads each shard apart
 * for the screens that show one ({@link ClusterReadings}).
 */
final class ClusterRepair implements TargetRepair {

  private final Shards shards;
  private final TableSpec spec;
  private final ClusterBackfills backfills;
  private final ClusterReconcile reconcile;
  private final ClusterReadings readings;
  private final ClusterCutover cutover;
  private final ClusterPlans plans;
  private final ClusterRuns runs;
  private final ClusterSnapshot snapshot;

  /**
   * The repair of {@code spec}'s sharded table through the cluster the session reaches: an engine on every
   * node of the spec's cluster, as the session's operator. Close it to close those connections.
   */
  static ClusterRepair open(Session session, TableSpec spec) {
    ClusterRepair.requireCluster(spec);
    ClusterNodes.Addresses addresses = session.localCluster().<ClusterNodes.Addresses>map(c -> c::jdbcUrl)
        .orElseGet(() -> ClusterNodes.Addresses.likeEntry(session.database().profile().jdbcUrl()));
    Shards shards = Shards.open(session.database(), spec.cluster().get().name(), addresses);
    try {
      return new ClusterRepair(shards, spec);
    } catch (RuntimeException e) {
      shards.close();
      throw e;
    }
  }

  private static void requireCluster(TableSpec spec) {
    if (spec.cluster().isEmpty()) {
      throw new InvalidInputException("spec.cluster", "The spec " + spec.name() + " names no cluster; a repair on one "
          + "server needs none, and a sharded one needs cluster: {name, live, target, sources} (docs/CLUSTER.md).");
    }
  }

  /** The repair over engines already open on every shard (tests reach the shards through {@code shards}). */
  ClusterRepair(Shards shards, TableSpec spec) {
    requireCluster(spec);
    this.shards = shards;
    this.spec = spec;
    this.backfills = new ClusterBackfills(shards, spec);
    this.reconcile = new ClusterReconcile(shards, spec);
    this.cutover = new ClusterCutover(shards, spec);
    this.readings = new ClusterReadings(shards, spec);
    this.plans = new ClusterPlans(shards, spec, backfills);
    this.runs = new ClusterRuns(shards, spec, backfills, plans);
    this.snapshot = new ClusterSnapshot(shards, spec);
  }

  /** Every shard, in order. */
  @Override
  public List<ShardRef> nodes() {
    return shards.all().stream().map(Shard::ref).toList();
  }

  static <T> Map<ShardRef, T> byRef(Map<Shard, T> each) {
    Map<ShardRef, T> out = new LinkedHashMap<>();
    each.forEach((s, t) -> out.put(s.ref(), t));
    return out;
  }

  /** Closes the connections to every shard. */
  @Override
  public void close() {
    shards.close();
  }

  @Override
  public RepairHistory history(int auditLimit) {
    return readings.history(auditLimit);
  }

  @Override
  public Map<ShardRef, NodeStatus> eachNode() {
    return readings.status();
  }

  /** The least advanced shard's record: where the repair as one stands, as its snapshot says. */
  @Override
  public Optional<Repair> stateRecord() {
    return readings.leastAdvanced();
  }

  /**
   * The repair's whole state over every shard in one read, as one snapshot: where its least advanced shard stands,
   * each backfill one run, consumers on a version only when every node reads it, and every node's gate as one. With
   * {@code previous} (the last snapshot read) a shard's gate judged on the same ground is kept; without, every
   * shard's gate is judged again from its data.
   */
  @Override
  public RepairSnapshot snapshot(Optional<RepairSnapshot> previous) {
    RepairSnapshot read = snapshot.read(previous);
    // Open on every node: the spec's gate_open hooks run once for the repair, claimed on the first shard.
    read.gate().filter(j -> !j.at().isBefore(read.at())).ifPresent(j -> RepairHooks.gateJudged(shards, spec,
        j.gate()));
    return read;
  }

  /**
   * The planning steps of the repair over every shard, answered as one (the plan every shard's, the preflight
   * passed only when every shard's is): what the console's Plan screen runs on a sharded table.
   */
  @Override
  public PlanSteps plans() {
    return plans;
  }

  /**
   * The backfill steps of the repair over every shard, answered as one (each backfill's parts under one run id,
   * read as one run): what the console's Backfill screen runs on a sharded table.
   */
  @Override
  public BackfillSteps backfills() {
    return runs;
  }

  /**
   * The reconciliation steps of the repair over every shard, answered as one over the whole table (each key
   * names its shard): what the console's Reconcile screen runs on a sharded table.
   */
  @Override
  public ReconcileSteps reconciliations() {
    return reconcile;
  }

  /** The spec this repair works on. */
  @Override
  public TableSpec spec() {
    return spec;
  }

  /**
   * The switch of consumers on every node as one, the shape one server's has too: what the console's Cutover
   * screen runs on a sharded table.
   */
  @Override
  public CutoverSteps cutovers() {
    return cutover;
  }

  /** The shards, to tests of the engine's own package that reach each shard's parts. */
  Shards shards() {
    return shards;
  }
}
