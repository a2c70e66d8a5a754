package dev.cutover.engine;

import dev.cutover.engine.ShardedRepair.ClusterRecords;
import dev.cutover.engine.ShardedRepair.ShardReading;
import dev.cutover.engine.ShardedRepair.ShardStatus;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairRecords;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.repair.ConsumerView;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the screens read of a sharded table's repair, every shard at once: each shard's status, its latest run's
 * ledger, and what it keeps of the repair's past. Reads only. Where a screen must go on showing the others, a
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
    return ShardedRepair.byRef(shards.each(step, s -> {
      try {
        return new Answer<>(read.apply(s), null);
      } catch (RuntimeException e) {
        return new Answer<T>(null, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
      }
    }));
  }

  Map<ShardRef, ShardStatus> status() {
    return ShardedRepair.byRef(shards.each("status", this::statusOf));
  }

  Map<ShardRef, ShardReading> read() {
    Map<ShardRef, ShardReading> out = new LinkedHashMap<>();
    eachOnItsOwn("reading", s -> {
      ShardStatus status = statusOf(s);
      return new ShardReading(Optional.of(status), status.latestRun().map(r -> s.engine().backfills().ledger(r.id()))
          .orElseGet(TreeMap::new), Optional.empty());
    }).forEach((ref, a) -> out.put(ref, a.failure() == null ? a.value()
        : new ShardReading(Optional.empty(), new TreeMap<>(), Optional.of(a.failure()))));
    return out;
  }

  ClusterRecords records(int auditLimit) {
    Map<ShardRef, RepairRecords> kept = new LinkedHashMap<>();
    Map<ShardRef, String> silent = new LinkedHashMap<>();
    eachOnItsOwn("history", s -> s.engine().records(spec, auditLimit)).forEach((ref, a) -> {
      if (a.failure() == null) {
        kept.put(ref, a.value());
      } else {
        silent.put(ref, a.failure());
      }
    });
    return new ClusterRecords(kept, silent);
  }

  private ShardStatus statusOf(Shard s) {
    Optional<Repair> repair = s.engine().repairs().current(spec);
    return new ShardStatus(repair, s.engine().backfills().runs(spec).stream()
        .max(Comparator.comparing(RunRecord::created)), new ConsumerView(s.database().sql(), spec).reads(),
        s.engine().repairs().liveWriterNote(spec, repair));
  }
}
