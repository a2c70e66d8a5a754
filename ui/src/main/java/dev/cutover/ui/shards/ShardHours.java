package dev.cutover.ui.shards;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.ui.backfill.HourStates;
import dev.cutover.ui.backfill.HourStates.Cell;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The hours of the shards' latest runs as one grid: a single shard's ledger as it is, or every shard's
 * merged, where an hour is written only once every shard wrote it, failed as soon as one shard's
 * attempt failed, and pending otherwise. A merged hour's rows are the sum over the shards.
 */
final class ShardHours {

  /** One shard's latest run and its ledger. */
  record Ledger(RunRecord run, SortedMap<HourPartition, LedgerEntry> entries) {}

  private ShardHours() {}

  /**
   * Lays out {@code states} over the runs' range and boundary, up to the hour after {@code now}, and
   * marks each hour as the ledgers of {@code shards} shards merge (a shard with no run, or never read,
   * holds no hour: its hours stay pending); with no run, an empty grid.
   */
  static void fill(HourStates states, Collection<Ledger> ledgers, int shards, HourPartition now) {
    if (ledgers.isEmpty()) {
      states.layout(now, now, now, now);
      states.changed();
      return;
    }
    List<RunRecord> runs = ledgers.stream().map(Ledger::run).toList();
    HourPartition from = runs.stream().map(r -> r.range().from()).min(HourPartition::compareTo).orElseThrow();
    HourPartition to = runs.stream().map(r -> r.range().to()).max(HourPartition::compareTo).orElseThrow();
    HourPartition boundary = runs.stream().map(RunRecord::boundary).min(HourPartition::compareTo).orElseThrow();
    HourPartition end = now.plusHours(1).isBefore(boundary) ? boundary.plusHours(1) : now.plusHours(1);
    states.layout(from, to, boundary, end);
    SortedMap<HourPartition, List<LedgerEntry>> byHour = new TreeMap<>();
    for (Ledger l : ledgers) {
      l.entries().forEach((h, e) -> byHour.computeIfAbsent(h, k -> new ArrayList<>()).add(e));
    }
    byHour.forEach((hour, entries) -> merged(entries, shards)
        .ifPresent(cell -> states.set(hour, cell, entries.stream().mapToLong(LedgerEntry::rows).sum())));
    states.changed();
  }

  /** The cell of an hour that {@code entries} of {@code shards} ledgers hold; empty while it is still pending. */
  static Optional<Cell> merged(List<LedgerEntry> entries, int shards) {
    if (entries.stream().anyMatch(e -> e.state() == LedgerEntry.State.FAILED)) {
      return Optional.of(Cell.FAILED);
    }
    if (entries.size() < shards) {
      return Optional.empty();
    }
    if (entries.stream().allMatch(e -> e.state() == LedgerEntry.State.EMPTIED)) {
      return Optional.of(Cell.EMPTIED);
    }
    if (entries.stream().allMatch(e -> e.state() == LedgerEntry.State.CARRIED)) {
      return Optional.of(Cell.CARRIED);
    }
    return Optional.of(Cell.WRITTEN);
  }
}
