package dev.cutover.engine;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.NodeStatus;
import dev.cutover.engine.api.OnNode;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairHistory;
import dev.cutover.engine.api.RepairRecords;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.repair.ConsumerView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What is read of a sharded table's repair node by node, every shard at once: each shard's status, its state
 * record, and what it keeps of the repair's past. Reads only. Where a screen must go on showing the others, a
 * shard that does not answer is named with why instead of failing the whole read.
 */
final class ClusterReadings {

  private final Shards shards;
  private final TableSpec spec;

  ClusterReadings(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /** One shard's answer to a read, or why it gave none. */
  private record Answer<T>(T value, String failure) {}

  /** {@code read} on every shard at once, each on its own: one that fails is an answer saying why. */
  private <T> Map<ShardRef, Answer<T>> eachOnItsOwn(String step, Function<Shard, T> read) {
    return ClusterRepair.byRef(shards.each(step, s -> {
      try {
        return new Answer<>(read.apply(s), null);
      } catch (RuntimeException e) {
        return new Answer<T>(null, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
      }
    }));
  }

  Map<ShardRef, NodeStatus> status() {
    return ClusterRepair.byRef(shards.each("status", this::statusOf));
  }

  /**
   * The record of the shard least advanced: none while any shard has none, since the repair as one has not begun
   * where it has not begun on every node.
   */
  Optional<Repair> leastAdvanced() {
    List<Optional<Repair>> each = List.copyOf(shards.each("repair record", s -> s.engine().repairs().settled(spec))
        .values());
    if (each.stream().anyMatch(Optional::isEmpty)) {
      return Optional.empty();
    }
    return each.stream().map(Optional::get).min(Comparator.comparing(Repair::phase));
  }

  /** Every shard's records merged, newest first; the audit trail cut to {@code auditLimit} lines over all. */
  RepairHistory history(int auditLimit) {
    Map<ShardRef, RepairRecords> kept = new LinkedHashMap<>();
    Map<ShardRef, String> silent = new LinkedHashMap<>();
    eachOnItsOwn("history", s -> s.engine().records(spec, auditLimit)).forEach((ref, a) -> {
      if (a.failure() == null) {
        kept.put(ref, a.value());
      } else {
        silent.put(ref, a.failure());
      }
    });
    return new RepairHistory(merged(kept, RepairRecords::runs, RunRecord::created, Integer.MAX_VALUE),
        merged(kept, RepairRecords::reconciliations, ReportSummary::created, Integer.MAX_VALUE),
        merged(kept, RepairRecords::sideEffects, SideEffectAcknowledgement::at, Integer.MAX_VALUE),
        merged(kept, RepairRecords::audit, AuditEntry::at, auditLimit), silent);
  }

  private static <T> List<OnNode<T>> merged(Map<ShardRef, RepairRecords> kept, Function<RepairRecords, List<T>> list,
      Function<T, Instant> when, int limit) {
    List<OnNode<T>> out = new ArrayList<>();
    kept.forEach((ref, r) -> list.apply(r).forEach(v -> out.add(new OnNode<>(Optional.of(ref), v))));
    out.sort(Comparator.comparing((OnNode<T> n) -> when.apply(n.value())).reversed());
    return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
  }

  private NodeStatus statusOf(Shard s) {
    Optional<Repair> repair = s.engine().repairs().current(spec);
    return new NodeStatus(repair, s.engine().backfills().runs(spec).stream()
        .max(Comparator.comparing(RunRecord::created)), new ConsumerView(s.database().sql(), spec).reads(),
        s.engine().repairs().liveWriterNote(spec, repair));
  }
}
