package dev.cutover.engine;

import dev.cutover.engine.api.NodeStatus;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairHistory;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.UnfinishedSwap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The repair of one target over its nodes, from {@link Engine#repair}: a table on one server is a node set of one,
 * a sharded table every node of its cluster. Every step is asked the same way on both: plan and preflight, the
 * backfill and the corrected live writer, the reconciliation and its acknowledgements, the gates, the switch and
 * what follows it. Each answers for the repair as one (on a cluster under its rules: one B, one verdict, shares of
 * the throttle, an all-or-nothing switch) and, where a node matters, for each node.
 *
 * <p>Close it when done: a cluster's holds a connection to every node. Every method reads or writes the servers:
 * call them off the FX thread.
 */
public interface TargetRepair extends AutoCloseable {

  /** The spec of the target this repair is of. */
  TableSpec spec();

  /** Every node of a cluster, in its order; empty on one server, whose node is the server the session reaches. */
  List<ShardRef> nodes();

  /** Planning, preflight, a sample of the fix, and giving the repair up. */
  PlanSteps plans();

  /** Runs, their ledgers, the backfill and the corrected live writer. */
  BackfillSteps backfills();

  /** The reconciliation of v1 and v2, its stored verdicts and acknowledgements. */
  ReconcileSteps reconciliations();

  /** The gates, the switch of consumers, retention, retiring v1 and cleaning up. */
  CutoverSteps cutovers();

  /**
   * The whole state of the repair in one read (its phase, B, live writer, runs, verdict and gate, each node's
   * version), the gate judged again unless {@code previous} was judged after everything it depends on.
   */
  RepairSnapshot snapshot(Optional<RepairSnapshot> previous);

  /**
   * What the repair keeps of its past over its nodes (runs, stored reconciliations, acknowledged side effects, the
   * newest {@code auditLimit} lines of the audit trail), each thing naming its node, newest first. On a cluster a
   * node that does not answer is named in the result, and the others are still read.
   */
  RepairHistory history(int auditLimit);

  /**
   * Each node's part of the repair at a glance, in node order, for the lines that show where nodes disagree; empty
   * on one server, where the snapshot is the node's.
   */
  Map<ShardRef, NodeStatus> eachNode();

  /**
   * The repair's state record alone, without its data: what can still be said when the data cannot be read (v1
   * gone, a table renamed), an operation whose run has ended or whose process is gone settled first. On a cluster
   * the least advanced node's, none while any node has none.
   */
  Optional<Repair> stateRecord();

  /**
   * Finishes a switch across nodes that its process left unfinished, forward or back as its record allows, and
   * says what it found and did; empty when there was none, and always on one server, whose switch is one statement.
   * Every command on a repair calls it first, and so does the console when it reads the repair.
   */
  default Optional<UnfinishedSwap> finishUnfinishedSwap() {
    return cutovers().finishUnfinished();
  }

  @Override
  void close();
}
