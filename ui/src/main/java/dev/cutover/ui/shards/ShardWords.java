package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ClusterPlan;
import dev.cutover.engine.ShardedRepair.ClusterPreflight;
import dev.cutover.engine.ShardedRepair.ClusterVerdict;
import dev.cutover.engine.ShardedRepair.ShardReading;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.shards.ShardsModel.ShardRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/** What the Shards screen says of each shard, its preflight, and its verdict, in sentences. */
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

  static List<String> preflight(ClusterPlan p, ClusterPreflight f) {
    List<String> lines = new ArrayList<>();
    lines.add("Range " + p.range() + ", boundary B = " + p.boundary() + " UTC on every shard; "
        + Formats.count(p.range().hours()) + " hours per shard.");
    f.reports().forEach((s, r) -> {
      long failed = r.failures().size();
      lines.add(s + ": " + (failed == 0 ? "preflight passed (" + r.checks().size() + " checks)"
          : failed + " check(s) failed"));
      r.failures().forEach(c -> lines.add("    " + c.name() + ": " + c.finding() + (c.fix().isBlank() ? ""
          : " Fix: " + c.fix())));
    });
    lines.add(f.passed() ? "Every shard passed: the backfill may start." : "The backfill is refused until every shard "
        + "passes; no shard was written.");
    return lines;
  }

  /** Each shard's verdict, keys and coverage, and its hours with unexpected keys no acknowledgement accepts. */
  static List<String> verdict(ClusterVerdict v) {
    List<String> lines = new ArrayList<>();
    v.shards().forEach((s, r) -> {
      lines.add(s + ": " + r.verdict().name().toLowerCase(Locale.ROOT) + "; " + Formats.count(r.expectedKeys())
          + " expected and " + Formats.count(r.unexpectedKeys()) + " unexpected key(s); " + (r.coverage().isEmpty()
          ? "coverage complete" : r.coverage().size() + " coverage problem(s)") + " over " + r.window() + ".");
      for (Reconciliation.CoverageIssue c : r.coverage()) {
        lines.add("    coverage " + c.hour() + " " + c.kind() + ": " + c.detail());
      }
      unexpected(r).forEach(h -> lines.add("    " + h + ": " + r.unexpectedIn(h) + " unexpected key(s) not "
          + "acknowledged"));
    });
    return lines;
  }

  /** The hours with unexpected keys no acknowledgement accepts, on any shard. */
  static List<HourPartition> unexpected(ClusterVerdict v) {
    TreeSet<HourPartition> hours = new TreeSet<>();
    v.shards().values().forEach(r -> hours.addAll(unexpected(r)));
    return List.copyOf(hours);
  }

  private static List<HourPartition> unexpected(Reconciliation r) {
    return new TreeSet<>(r.counts().keySet()).stream().filter(h -> r.unexpectedIn(h) > 0).toList();
  }
}
