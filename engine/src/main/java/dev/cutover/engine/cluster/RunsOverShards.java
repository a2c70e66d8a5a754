package dev.cutover.engine.cluster;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.ShardRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One backfill of a sharded table read as one run: each shard starts its part of it under the run's id with the
 * shard's number after it ({@link #partId}: {@code 20261204-223909-771970fb-s2}), keeping its own record and ledger,
 * and these are read together here. The parts' ids differ so that nothing this process keeps per run (which runs
 * execute here, which operations are under way) takes one shard's part for another's. The run is active while any shard's part
 * is (paused only when every active part is), succeeded once every part did, failed when a part failed, and
 * interrupted when an active part's process is gone; an hour is written once every part wrote it, with their rows
 * and checksums added (a checksum is a sum of row hashes modulo 2^64, so the sum is the whole table's), and failed
 * as soon as one part failed it, naming the shard. Nothing here is stored.
 */
public final class RunsOverShards {

  private RunsOverShards() {}

  /** The id of {@code shard}'s part of run {@code runId}. */
  public static String partId(String runId, ShardRef shard) {
    return runId + PART + shard.shard();
  }

  /** The run a part's id belongs to; a run that a shard ran alone, before parts had ids of their own, is its own. */
  public static String runOf(String partId) {
    return partId.replaceFirst(java.util.regex.Pattern.quote(PART) + "\\d+$", "");
  }

  private static final String PART = "-s";

  /** The runs of every shard, one per run over the shards that ran its parts, newest first. */
  public static List<RunRecord> runs(Map<ShardRef, List<RunRecord>> each) {
    Map<String, Map<ShardRef, RunRecord>> byId = new LinkedHashMap<>();
    each.forEach((shard, runs) -> runs.forEach(r -> byId.computeIfAbsent(runOf(r.id()), id -> new LinkedHashMap<>())
        .put(shard, r)));
    List<ShardRef> every = List.copyOf(each.keySet());
    return byId.entrySet().stream().map(e -> run(e.getKey(), e.getValue(), every))
        .sorted(Comparator.comparing(RunRecord::created).reversed()).toList();
  }

  /** The parts of run {@code runId} this process drives, one per shard, read as one run of that id. */
  public static RunRecord run(String runId, Map<ShardRef, RunRecord> parts) {
    return run(runId, parts, List.copyOf(parts.keySet()));
  }

  /**
   * The parts of run {@code runId}, one per shard of {@code every} that has one, read as one run of that id. A shard
   * with no part (the run's start did not reach it, or the run is from before parts had ids of their own) has written
   * none of its hours: once no part is active the run failed, naming that shard, and never reads succeeded.
   */
  public static RunRecord run(String runId, Map<ShardRef, RunRecord> parts, List<ShardRef> every) {
    List<RunRecord> all = List.copyOf(parts.values());
    List<ShardRef> missing = every.stream().filter(s -> !parts.containsKey(s)).toList();
    RunRecord first = all.getFirst();
    List<RunRecord> active = all.stream().filter(r -> r.state().active()).toList();
    RunState state = !active.isEmpty()
        ? (active.stream().allMatch(r -> r.state() == RunState.PAUSED) ? RunState.PAUSED : RunState.RUNNING)
        : !missing.isEmpty() ? RunState.FAILED
        : all.stream().allMatch(r -> r.state() == RunState.SUCCEEDED) ? RunState.SUCCEEDED
        : all.stream().anyMatch(r -> r.state() == RunState.FAILED) ? RunState.FAILED : RunState.CANCELLED;
    // An active run is as alive as its least alive active part, by what is known of each part's process (Process
    // orders them, the most certain first): one shard's process gone interrupts the whole run, and so does the stale
    // beat of the least certain kind.
    RunRecord.Process process = active.stream().map(RunRecord::process).max(Comparator.naturalOrder())
        .orElse(first.process());
    List<RunRecord> beating = active.isEmpty() ? all : active.stream().filter(r -> r.process() == process).toList();
    Instant heartbeat = beating.stream().map(RunRecord::heartbeat).min(Comparator.naturalOrder()).orElseThrow();
    Instant created = all.stream().map(RunRecord::created).min(Comparator.naturalOrder()).orElseThrow();
    return new RunRecord(runId, first.repairId(), first.specName(), first.specHash(), first.target(), first.range(),
        first.boundary(), first.parameters(), first.osUser(), first.host(), first.pid(), first.toolVersion(), created,
        heartbeat, state, (missing.isEmpty() || !active.isEmpty() ? "" : "no part on " + String.join(", ",
        missing.stream().map(ShardRef::toString).toList()) + " (its start did not reach it: start a new backfill); ")
        + message(parts), process);
  }

  /**
   * One message when every part says the same (a part alone names its shard); when the parts stand alike but say
   * it in their own words (their own counts), how many stand so; else how many succeeded and each other shard's
   * own message, with its state.
   */
  private static String message(Map<ShardRef, RunRecord> parts) {
    if (parts.values().stream().map(RunRecord::message).distinct().count() == 1) {
      String one = parts.values().iterator().next().message();
      return parts.size() == 1 ? parts.keySet().iterator().next() + ": " + one : one;
    }
    if (parts.values().stream().map(RunRecord::state).distinct().count() == 1) {
      return "every shard's part " + words(parts.values().iterator().next().state()) + " (" + parts.size()
          + " shards; each shard's own words in History)";
    }
    long succeeded = parts.values().stream().filter(r -> r.state() == RunState.SUCCEEDED).count();
    List<String> each = new ArrayList<>();
    parts.forEach((s, r) -> {
      if (r.state() != RunState.SUCCEEDED) {
        each.add(s + " (" + words(r.state()) + "): " + r.message());
      }
    });
    return (succeeded == 0 ? "" : succeeded + " of " + parts.size() + " shards' parts succeeded; ")
        + String.join("; ", each);
  }

  private static String words(RunState state) {
    return state.name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The parts' ledgers of one run as one: an hour every part wrote, with their rows and checksums added (carried or
   * emptied when every part's was); an hour any part failed, with each failing shard's error; an hour some part has
   * not written yet is left out.
   */
  public static SortedMap<HourPartition, LedgerEntry> ledger(String runId,
      Map<ShardRef, ? extends SortedMap<HourPartition, LedgerEntry>> parts) {
    return ledger(runId, parts, parts.size());
  }

  /** As {@link #ledger(String, Map)}, over {@code shards} shards: an hour is written only once each of them wrote it. */
  public static SortedMap<HourPartition, LedgerEntry> ledger(String runId,
      Map<ShardRef, ? extends SortedMap<HourPartition, LedgerEntry>> parts, int shards) {
    Map<HourPartition, Map<ShardRef, LedgerEntry>> byHour = new TreeMap<>();
    parts.forEach((shard, ledger) -> ledger.forEach((hour, e) -> byHour.computeIfAbsent(hour,
        h -> new LinkedHashMap<>()).put(shard, e)));
    TreeMap<HourPartition, LedgerEntry> out = new TreeMap<>();
    byHour.forEach((hour, entries) -> {
      List<String> failed = new ArrayList<>();
      entries.forEach((shard, e) -> {
        if (!e.complete()) {
          failed.add(shard + ": " + e.error());
        }
      });
      if (failed.isEmpty() && entries.size() < shards) {
        return;
      }
      int attempts = entries.values().stream().mapToInt(LedgerEntry::attempts).max().orElse(0);
      Instant at = entries.values().stream().map(LedgerEntry::at).max(Comparator.naturalOrder()).orElseThrow();
      if (!failed.isEmpty()) {
        out.put(hour, new LedgerEntry(runId, hour, LedgerEntry.State.FAILED, 0, 0, attempts, at,
            String.join("; ", failed)));
        return;
      }
      LedgerEntry.State state = entries.values().stream().map(LedgerEntry::state).distinct().count() == 1
          ? entries.values().iterator().next().state() : LedgerEntry.State.WRITTEN;
      out.put(hour, new LedgerEntry(runId, hour, state, entries.values().stream().mapToLong(LedgerEntry::rows).sum(),
          entries.values().stream().mapToLong(LedgerEntry::checksum).sum(), attempts, at, ""));
    });
    return out;
  }
}
