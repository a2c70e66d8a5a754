package dev.cutover.engine;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.OverNodes;
import dev.cutover.engine.cluster.RunsOverShards;
import dev.cutover.engine.cluster.Shards;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A sharded repair's whole state in one read, as one snapshot: every shard's read at once, and the repair stands
 * where its least advanced shard stands (the phase, B, live writer, verdict and next step are that shard's, the
 * next step naming it when the shards stand apart), the live writer where its slowest shard is, each backfill one
 * run over its shards, consumers on a version only when every node reads it, and the gate every node's as one.
 * Each shard's gate is kept from its last snapshot as one server's is ({@link RepairBook#snapshot}).
 */
final class ClusterSnapshot {

  private final Shards shards;
  private final TableSpec spec;
  private final Map<ShardRef, RepairSnapshot> last = new ConcurrentHashMap<>();

  ClusterSnapshot(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /**
   * Reads every shard's snapshot and returns them as one; with {@code previous} empty every shard's gate is judged
   * again from its data. Reads only, except settling an operation whose process is gone, as one server's does.
   */
  RepairSnapshot read(Optional<RepairSnapshot> previous) {
    Map<ShardRef, RepairSnapshot> each = ClusterRepair.byRef(shards.each("read of the repair", s -> s.engine().repairs()
        .snapshot(spec, previous.isEmpty() ? Optional.empty() : Optional.ofNullable(last.get(s.ref())))));
    last.putAll(each);
    return asOne(each);
  }

  static RepairSnapshot asOne(Map<ShardRef, RepairSnapshot> each) {
    // A shard whose repair was given up stands behind every other: the others' phase would hide it.
    Map.Entry<ShardRef, RepairSnapshot> behind = each.entrySet().stream().min(Comparator.comparing(
        (Map.Entry<ShardRef, RepairSnapshot> e) -> e.getValue().status().phase().map(p -> p == RepairPhase.ABANDONED
            ? -2 : p.ordinal()).orElse(-1))
        .thenComparing(e -> e.getValue().status().verdict().map(v -> v.verdict().allowsCutover()).orElse(false)))
        .orElseThrow();
    RepairStatus b = behind.getValue().status();
    boolean together = each.values().stream().map(s -> s.status().phase()).distinct().count() == 1
        && each.values().stream().map(s -> s.status().next().kind()).distinct().count() == 1;
    // The run a step is about is the run over every shard; a resume continues every part that did not succeed.
    String runId = b.next().kind() == RepairStatus.Kind.RESUME ? "" : RunsOverShards.runOf(b.next().runId());
    RepairStatus.NextStep next = new RepairStatus.NextStep(b.next().kind(), together ? b.next().sentence()
        : behind.getKey() + " is the shard furthest behind: " + b.next().sentence(), runId, b.next().from());
    Instant at = each.values().stream().map(RepairSnapshot::at).min(Comparator.naturalOrder()).orElseThrow();
    LiveStatus live = ClusterPlans.asOne(each.values().stream().map(s -> s.status().live()).toList());
    RepairStatus status = new RepairStatus(b.target(), at, b.repair(), live, b.liveWriter(), b.declaredWriter(),
        b.verdict(), each.values().stream().allMatch(s -> s.status().correctedViewExists()), next);
    List<Gate.Version> reads = each.values().stream().map(RepairSnapshot::reads).distinct().toList();
    Gate.Version read = reads.size() == 1 ? reads.getFirst() : Gate.Version.UNKNOWN;
    return new RepairSnapshot(at, status, RunsOverShards.runs(runs(each)), read, gate(each, read), Optional.empty());
  }

  private static Map<ShardRef, List<dev.cutover.engine.api.RunRecord>> runs(Map<ShardRef, RepairSnapshot> each) {
    Map<ShardRef, List<dev.cutover.engine.api.RunRecord>> out = new LinkedHashMap<>();
    each.forEach((s, r) -> out.put(s, r.runs()));
    return out;
  }

  /** Every node's gate as one, judged when the oldest of them was; none while the nodes read different versions. */
  private static Optional<RepairSnapshot.Judged> gate(Map<ShardRef, RepairSnapshot> each, Gate.Version read) {
    if (read == Gate.Version.UNKNOWN || each.values().stream().anyMatch(s -> s.gate().isEmpty())) {
      return Optional.empty();
    }
    Map<ShardRef, Gate> gates = new LinkedHashMap<>();
    Map<ShardRef, Optional<HourPartition>> boundaries = new LinkedHashMap<>();
    each.forEach((s, r) -> {
      gates.put(s, r.gate().orElseThrow().gate());
      boundaries.put(s, r.status().repair().filter(x -> !x.phase().ended()).flatMap(Repair::boundary));
    });
    Instant judged = each.values().stream().map(s -> s.gate().orElseThrow().at()).min(Comparator.naturalOrder())
        .orElseThrow();
    return Optional.of(new RepairSnapshot.Judged(OverNodes.gate(gates, boundaries), judged));
  }
}
