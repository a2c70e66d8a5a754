package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ShardReading;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.shards.ShardsModel.ShardRow;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What the Shards screen says of each shard and of its hours, in sentences. */
final class ShardWords {

  private ShardWords() {}

  static String version(Gate.Version v) {
    return v.name().toLowerCase(Locale.ROOT);
  }

  /** A shard's line as last read at {@code at}, and why the latest read failed, if it did. */
  static ShardRow row(ShardRef s, ShardReading reading, Instant at, Optional<String> silent) {
    var status = reading.status();
    String phase = status.flatMap(ShardedRepair.ShardStatus::repair).map(r -> r.phase().name().toLowerCase(Locale.ROOT)
        .replace('_', ' ')).orElse(status.isPresent() ? "no repair" : "unknown")
        + status.flatMap(ShardedRepair.ShardStatus::declaredWriter).map(d -> " · writer declared").orElse("");
    String boundary = status.flatMap(ShardedRepair.ShardStatus::repair).flatMap(r -> r.boundary())
        .map(HourPartition::toString).orElse("—");
    Optional<RunRecord> run = status.flatMap(ShardedRepair.ShardStatus::latestRun);
    String runWords = run.map(r -> r.id() + " · " + r.shownState(Instant.now())).orElse("—");
    String hours = run.map(r -> Formats.count(reading.ledger().values().stream().filter(LedgerEntry::complete)
        .count()) + " of " + Formats.count(r.range().hours())).orElse("—");
    String reads = status.map(st -> version(st.reads())).orElse("unknown");
    String read = silent.map(why -> status.isPresent() ? "not answering; line as of " + Formats.clock(at)
        : "not answering; never read").orElse("read at " + Formats.clock(at));
    return new ShardRow("Shard " + s.shard(), s.toString(), phase, boundary, runWords, hours, reads, read);
  }

  /** What the grid shows: {@code choice} 0 for every shard merged, n for shard n; {@code stale} the shards not answering. */
  static String grid(int choice, boolean noRun, List<String> stale) {
    if (noRun && stale.isEmpty()) {
      return "No backfill has run on " + (choice == 0 ? "any shard" : "this shard") + " yet.";
    }
    String which = choice == 0 ? "Every shard's latest run, merged: an hour is written once every shard wrote it, "
        + "failed when any shard's attempt failed." : "Shard " + choice + "'s latest run, from its own ledger.";
    return which + (stale.isEmpty() ? "" : " Not answering: " + String.join(", ", stale) + ".");
  }
}
