package dev.cutover.engine;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The switch of one repair's consumers, whether its table lies on one server or is sharded over a cluster:
 * the gate of the step consumers can take now, judged from the data, the statement the switch runs, the
 * retention of v1, and the cutover and rollback themselves. On a cluster the gate is open only when every
 * node's is and every shard's repair has one B, and the switch is all or nothing, node by node, with an intent
 * written on every node first ({@code cluster.ClusterSwap}). {@link Cutovers#of} gives one server's;
 * {@link ClusterRepair#cutovers()} a cluster's.
 */
public interface CutoverSteps {

  /** One node as the gate found it: which version its consumers read, and its own gate. */
  record Node(ShardRef node, Gate.Version reads, Gate gate) {}

  /**
   * The gate of the step consumers can take now (the rollback gate once they read v2), as one over every node,
   * with each node's; {@code nodes} is empty on one server, where the gate is the server's own.
   */
  record Judged(Gate gate, List<Node> nodes, Instant at) {
    public Judged {
      nodes = List.copyOf(nodes);
    }
  }

  /** Where the switch runs, for sentences: {@code the server}, {@code every node of cluster c (3 nodes)}. */
  String where();

  /** The number of nodes whose consumers the switch moves: 1 on one server. */
  int nodes();

  /** Judges the gate now, from the data. */
  Judged judge();

  /**
   * Judges the gate of the step toward {@code version} now, whatever consumers read: the cutover gate toward v2,
   * the rollback gate toward v1 (what {@code cutover --check} and {@code rollback --check} show).
   */
  Judged judge(Gate.Version toward);

  /** The statement that switches consumers, as each node runs it. */
  String statement();

  /** How long v1 is kept after the cutover; on a cluster, until the last node's horizon. */
  Retention retention();

  /**
   * Switches consumers to v2 once {@code confirmation} names the consumer view, the gate judged again inside
   * the step; {@code progress} hears its steps, and {@code switched} each node of a cluster once it switched and
   * was verified.
   */
  SwapResult cutover(String confirmation, Progress progress, BiConsumer<ShardRef, SwapResult> switched);

  /**
   * Switches consumers back to v1, as {@link #cutover} does forward; {@code reason}, the operator's why, goes to
   * the audit trail (of every node) with the switch.
   */
  SwapResult rollback(String confirmation, Optional<String> reason, Progress progress,
      BiConsumer<ShardRef, SwapResult> switched);

  /**
   * Arms the cutover: consumers switch to v2 by themselves the first time the gate opens within {@code window} from
   * now, at a turn of the command that armed it or of a console open on the repair ({@link #armedTurn}). Refused,
   * nothing written, unless {@code confirmation} names the consumer view, consumers read v1, the window is between a
   * minute and a day, and nothing is armed yet; and always on a cluster, whose switch the operator makes.
   */
  dev.cutover.engine.api.Armed arm(String confirmation, java.time.Duration window);

  /** Removes the arm with the operator's why in the audit trail; empty when nothing was armed. */
  Optional<dev.cutover.engine.api.Armed> disarm(String why);

  /**
   * One turn of the armed cutover: past its window the arm is removed and nothing switches; inside it, the gate is
   * judged and, when open, the ordinary cutover runs and the arm is removed. Nothing is ever armed on a cluster.
   */
  dev.cutover.engine.api.Armed.Turn armedTurn(Progress progress);

  /**
   * Finishes a switch across nodes that its process left unfinished (it died after some nodes switched), and
   * says what it found and did; empty when there was none, and always on one server, whose switch is one
   * statement.
   */
  Optional<dev.cutover.engine.api.UnfinishedSwap> finishUnfinished();

  /** The tables that still use v1 and break when it is dropped (on a cluster, any node's, once each). */
  List<dev.cutover.engine.api.V1Reader> v1Readers();

  /** The statements that drop v1 and the rollback handle, as each node runs them. */
  List<String> dropV1Statements();

  /**
   * Drops v1 and the rollback handle (on every node): refused before the retention horizon unless forced with a
   * reason, and while a table that still uses v1 is not acknowledged by name. On a cluster every node's checks
   * pass before any node drops, and a node where v1 is gone already is left as it is. Returns what was dropped.
   */
  List<String> dropV1(boolean force, String reason, List<String> acknowledged);

  /** Drops the staging and sample tables that runs left (on every node); returns what was dropped. */
  List<String> cleanup();
}
