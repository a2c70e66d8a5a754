package dev.cutover.engine;

import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import dev.cutover.engine.cluster.ClusterSwap;
import dev.cutover.engine.cluster.OverNodes;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The switch of a sharded table's consumers on every node, as one: each node's gate judged at once and read as
 * one ({@link OverNodes}), and the cutover and rollback all or nothing through {@link ClusterSwap}, which writes
 * its intent on every node before the first switches; a switch left unfinished by a process that died is
 * finished before anything else is judged or switched.
 */
final class ClusterCutover implements CutoverSteps {

  private final Shards shards;
  private final TableSpec spec;

  ClusterCutover(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  @Override
  public String where() {
    return "every node of cluster " + spec.cluster().map(c -> c.name()).orElse("?") + " (" + nodes() + " nodes)";
  }

  @Override
  public int nodes() {
    return shards.all().size();
  }

  /**
   * The rollback gate once every node reads v2, else the cutover gate, of every node: each node's rollback gate
   * is read first because it is cheap, the cutover gates (which check the data) only when they are the step.
   */
  @Override
  public Judged judge() {
    Map<ShardRef, Gate> rollback = rollbackGates();
    boolean allV2 = rollback.values().stream().allMatch(g -> g.current() == Gate.Version.V2);
    return judged(rollback, allV2 ? rollback : cutoverGates());
  }

  @Override
  public Judged judge(Gate.Version toward) {
    Map<ShardRef, Gate> rollback = rollbackGates();
    return judged(rollback, toward == Gate.Version.V2 ? cutoverGates() : rollback);
  }

  private Map<ShardRef, Gate> rollbackGates() {
    return ClusterRepair.byRef(shards.each("rollback gate", s -> s.engine().cutovers().rollbackGate(spec)));
  }

  private Map<ShardRef, Gate> cutoverGates() {
    return ClusterRepair.byRef(shards.each("cutover gate", s -> s.engine().cutovers().gate(spec)));
  }

  /** Every node's {@code shown} gate read as one, each node named with what its consumers read. */
  private Judged judged(Map<ShardRef, Gate> rollback, Map<ShardRef, Gate> shown) {
    Map<ShardRef, Optional<HourPartition>> boundaries = ClusterRepair.byRef(shards.each("read the repairs",
        s -> s.engine().repairs().current(spec).flatMap(Repair::boundary)));
    List<Node> nodes = new ArrayList<>();
    shown.forEach((ref, g) -> nodes.add(new Node(ref, rollback.get(ref).current(), g)));
    Judged judged = new Judged(OverNodes.gate(shown, boundaries), nodes, Instant.now());
    RepairHooks.gateJudged(shards, spec, judged.gate());
    return judged;
  }

  /**
   * Refused, nothing written: an armed cutover switches one server by itself, and a cluster's switch, node by node
   * with its intent on every node, is the operator's.
   */
  @Override
  public Armed arm(String confirmation, Duration window) {
    throw new InvalidInputException("arm", "An armed cutover is for one server's table; on a sharded table, cut "
        + "over every node once the gate is open, typing " + spec.consumerView().name() + " to confirm.");
  }

  /** Nothing is ever armed on a cluster. */
  @Override
  public Optional<Armed> disarm(String why) {
    return Optional.empty();
  }

  /** Nothing is ever armed on a cluster. */
  @Override
  public Armed.Turn armedTurn(Progress progress) {
    return new Armed.Turn(Armed.Outcome.NOT_ARMED, Optional.empty(), Optional.empty(), Optional.empty(),
        "Nothing is armed: a sharded table's cutover is not armed.");
  }

  @Override
  public String statement() {
    return "On each of the " + nodes() + " nodes in turn, each verified, all or nothing:\n"
        + shards.all().getFirst().engine().cutovers().statement(spec);
  }

  @Override
  public Retention retention() {
    return OverNodes.retention(ClusterRepair.byRef(shards.each("retention of v1",
        s -> s.engine().cutovers().retention(spec))));
  }

  @Override
  public SwapResult cutover(String confirmation, Progress progress, BiConsumer<ShardRef, SwapResult> switched) {
    return RepairHooks.switched(RepairHooks.onShards(shards, spec), spec, true, confirmation,
        () -> judge(Gate.Version.V2).gate().open(),
        () -> OverNodes.swap(each(true, confirmation, Optional.empty(), told(progress, "Cut over", switched))));
  }

  @Override
  public SwapResult rollback(String confirmation, Optional<String> reason, Progress progress,
      BiConsumer<ShardRef, SwapResult> switched) {
    return RepairHooks.switched(RepairHooks.onShards(shards, spec), spec, false, confirmation,
        () -> judge(Gate.Version.V1).gate().open(),
        () -> OverNodes.swap(each(false, confirmation, reason, told(progress, "Rolled back", switched))));
  }

  /** {@code switched}, with {@code progress} told of each node as it switches: its share of every node. */
  private BiConsumer<ShardRef, SwapResult> told(Progress progress, String done,
      BiConsumer<ShardRef, SwapResult> switched) {
    java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
    return (node, result) -> {
      progress.update(done + " " + node + " (" + count.incrementAndGet() + " of " + nodes() + ")",
          (double) count.get() / nodes());
      switched.accept(node, result);
    };
  }

  /**
   * Every node's switch, to v2 when {@code forward}, each node's result by its node; a rollback's reason, checked
   * before any node switches, goes to every node's audit trail.
   */
  Map<ShardRef, SwapResult> each(boolean forward, String confirmation, Optional<String> reason,
      BiConsumer<ShardRef, SwapResult> switched) {
    Optional<String> why = Reasons.rollback(reason); // refused here, before any node switches
    finishUnfinished(); // a switch left unfinished is finished first; the gates then judge what it left
    return ClusterRepair.byRef(new ClusterSwap(shards, spec).swap(forward, confirmation, why,
        (s, r) -> switched.accept(s.ref(), r)));
  }

  @Override
  public List<V1Reader> v1Readers() {
    Map<String, V1Reader> once = new LinkedHashMap<>();
    shards.each("tables that use v1", s -> s.engine().cutovers().v1Readers(spec)).values()
        .forEach(list -> list.forEach(r -> once.putIfAbsent(r.name(), r)));
    return List.copyOf(once.values());
  }

  @Override
  public List<String> dropV1Statements() {
    return shards.all().getFirst().engine().cutovers().dropV1Statements(spec);
  }

  /**
   * Every node's checks first, so that a refusal on any node drops nothing anywhere; then each node in turn. A node
   * that fails after others dropped is named with them: those have no rollback any more, and the drop run again
   * goes on with the nodes where v1 is still there.
   */
  @Override
  public List<String> dropV1(boolean force, String reason, List<String> acknowledged) {
    Map<Shard, Retention> each = shards.each("retention of v1", s -> s.engine().cutovers().retention(spec));
    List<Shard> left = shards.all().stream().filter(s -> each.get(s).droppedAt().isEmpty()).toList();
    if (left.isEmpty()) {
      throw new StepRefusedException("drop-v1", spec.liveTable() + " was dropped already on every node.");
    }
    for (Shard s : left) {
      try {
        s.engine().cutovers().checkDropV1(spec, force, reason, acknowledged);
      } catch (dev.cutover.engine.api.InvalidInputException e) {
        throw e;
      } catch (dev.cutover.engine.api.CutoverException e) {
        throw new StepRefusedException("drop-v1", s.name() + ": " + e.getMessage() + " Nothing was dropped on any "
            + "node.", List.of(s.name()), Optional.empty());
      }
    }
    List<String> dropped = new ArrayList<>();
    List<String> done = new ArrayList<>();
    for (Shard s : left) {
      try {
        s.engine().cutovers().dropV1(spec, force, reason, acknowledged).forEach(d -> dropped.add(s.name() + ": " + d));
        done.add(s.name());
      } catch (RuntimeException e) {
        throw new StepRefusedException("drop-v1", "v1 could not be dropped on " + s.name() + ": " + e.getMessage()
            + (done.isEmpty() ? " Nothing was dropped on any node." : " It was dropped on " + String.join(", ", done)
            + ", which have no rollback any more; drop it again to go on with the other nodes."), List.of(s.name()),
            Optional.empty());
      }
    }
    return dropped;
  }

  @Override
  public List<String> cleanup() {
    List<String> dropped = new ArrayList<>();
    shards.each("staging left by runs", s -> s.engine().cutovers().cleanup(spec))
        .forEach((s, list) -> list.forEach(d -> dropped.add(s.name() + ": " + d)));
    return dropped;
  }

  @Override
  public Optional<dev.cutover.engine.api.UnfinishedSwap> finishUnfinished() {
    return new ClusterSwap(shards, spec).finishUnfinished(spec.consumerView().name());
  }
}
