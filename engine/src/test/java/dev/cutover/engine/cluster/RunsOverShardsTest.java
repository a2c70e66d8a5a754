package dev.cutover.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.ShardRef;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Two shards' parts of one backfill read as one run, from values built here (no server): what the Backfill screen
 * shows of a sharded table's run, its grid and its counts.
 */
class RunsOverShardsTest {

  private static final HourPartition H = HourPartition.parse("hour", "2026-06-01T00:00");
  private static final ShardRef ONE = new ShardRef(1, "shard 1 (n1:9000)");
  private static final ShardRef TWO = new ShardRef(2, "shard 2 (n2:9000)");
  private static final Instant T = Instant.parse("2026-06-02T10:00:00Z");

  private static RunRecord run(String id, RunState state, Instant created, Instant heartbeat, String message) {
    return new RunRecord(id, "repair-1", "visits", "sha", "world.visits_v2", new HourRange(H, H.plusHours(3)),
        H.plusHours(3), "concurrency=1", "ops", "host", 1, "1.0", created, heartbeat, state, message);
  }

  private static <T> Map<ShardRef, T> both(T one, T two) {
    Map<ShardRef, T> each = new LinkedHashMap<>();
    each.put(ONE, one);
    each.put(TWO, two);
    return each;
  }

  private static LedgerEntry written(int hour, long rows, long checksum) {
    return new LedgerEntry("r", H.plusHours(hour), LedgerEntry.State.WRITTEN, rows, checksum, 1, T, "");
  }

  @Test
  void theRunIsActiveWhileAnyShardsPartIsAndSucceededOnlyOnceEveryPartDid() {
    RunRecord done = run("r", RunState.SUCCEEDED, T, T.plusSeconds(60), "succeeded");
    RunRecord running = run("r", RunState.RUNNING, T.plusSeconds(1), T.plusSeconds(30), "running");
    RunRecord one = RunsOverShards.run("r", both(done, running));
    assertEquals(RunState.RUNNING, one.state());
    assertEquals(T, one.created(), "started when its first part did");
    assertEquals(T.plusSeconds(30), one.heartbeat(), "as alive as its active part");
    assertEquals("1 of 2 shards' parts succeeded; shard 2 (n2:9000) (running): running", one.message());

    assertEquals(RunState.SUCCEEDED, RunsOverShards.run("r", both(done, done)).state());
    assertEquals("succeeded", RunsOverShards.run("r", both(done, done)).message(), "said once when every part says it");
    assertEquals("every shard's part succeeded (2 shards; each shard's own words in History)", RunsOverShards.run("r",
        both(done, run("r", RunState.SUCCEEDED, T, T, "44 hours written, 43 rows"))).message());
    RunRecord failed = run("r", RunState.FAILED, T, T, "hour 03:00 failed");
    assertEquals(RunState.FAILED, RunsOverShards.run("r", both(done, failed)).state());
    RunRecord cancelled = run("r", RunState.CANCELLED, T, T, "cancelled");
    assertEquals(RunState.CANCELLED, RunsOverShards.run("r", both(done, cancelled)).state());
    RunRecord paused = run("r", RunState.PAUSED, T, T, "paused");
    assertEquals(RunState.PAUSED, RunsOverShards.run("r", both(paused, done)).state(), "paused only when every active part is");
    assertEquals(RunState.RUNNING, RunsOverShards.run("r", both(paused, running)).state());
  }

  @Test
  void aShardsPartWhoseProcessIsGoneInterruptsTheWholeRun() {
    RunRecord stale = run("r", RunState.RUNNING, T, T, "running");
    RunRecord fresh = run("r", RunState.RUNNING, T, T.plusSeconds(600), "running");
    RunRecord one = RunsOverShards.run("r", both(fresh, stale));
    assertTrue(one.interrupted(T.plusSeconds(610), RunRecord.STALE_AFTER), "shard 2's beat is 610 s old");
    assertFalse(RunsOverShards.run("r", both(fresh, fresh)).interrupted(T.plusSeconds(610), RunRecord.STALE_AFTER));

    // A part this process runs counts for that, not for its beat; the whole is as alive as its least alive part.
    RunRecord hereStale = as(stale, RunRecord.Process.HERE);
    assertFalse(RunsOverShards.run("r", both(hereStale, as(fresh, RunRecord.Process.HERE))).interrupted(
        T.plusSeconds(610), RunRecord.STALE_AFTER), "this process runs both parts");
    assertFalse(RunsOverShards.run("r", both(hereStale, fresh)).interrupted(T.plusSeconds(610), RunRecord.STALE_AFTER),
        "the part judged by its beat beats");
    assertTrue(RunsOverShards.run("r", both(hereStale, stale)).interrupted(T.plusSeconds(610), RunRecord.STALE_AFTER),
        "the part judged by its beat is 610 s old");
    assertTrue(RunsOverShards.run("r", both(as(fresh, RunRecord.Process.GONE), fresh)).interrupted(T.plusSeconds(1),
        RunRecord.STALE_AFTER), "one part's process is gone");
  }

  private static RunRecord as(RunRecord r, RunRecord.Process process) {
    return new RunRecord(r.id(), r.repairId(), r.specName(), r.specHash(), r.target(), r.range(), r.boundary(),
        r.parameters(), r.osUser(), r.host(), r.pid(), r.toolVersion(), r.created(), r.heartbeat(), r.state(),
        r.message(), process);
  }

  @Test
  void eachShardsPartHasAnIdOfItsOwnAndTheirRunIsReadUnderTheRunsId() {
    String part = RunsOverShards.partId("20261204-223909-771970fb", TWO);
    assertEquals("20261204-223909-771970fb-s2", part);
    assertEquals("20261204-223909-771970fb", RunsOverShards.runOf(part));
    assertEquals("20261204-223909-771970fb", RunsOverShards.runOf("20261204-223909-771970fb"), "a run of its own");
    List<RunRecord> runs = RunsOverShards.runs(both(List.of(run("x-s1", RunState.SUCCEEDED, T, T, "done")),
        List.of(run("x-s2", RunState.RUNNING, T, T, "running"))));
    assertEquals(List.of("x"), runs.stream().map(RunRecord::id).toList());
    assertEquals(RunState.RUNNING, runs.getFirst().state());
  }

  @Test
  void runsAreOnePerIdNewestFirstAndARunOfOneShardNamesIt() {
    RunRecord older = run("a", RunState.SUCCEEDED, T, T, "succeeded");
    RunRecord newer = run("b", RunState.CANCELLED, T.plusSeconds(3600), T.plusSeconds(3600), "cancelled");
    List<RunRecord> runs = RunsOverShards.runs(both(List.of(newer, older), List.of(older)));
    assertEquals(List.of("b", "a"), runs.stream().map(RunRecord::id).toList());
    assertEquals(RunState.FAILED, runs.getFirst().state(), "run b has no part on shard 2: never succeeded");
    assertEquals("no part on shard 2 (n2:9000) (its start did not reach it: start a new backfill); shard 1 (n1:9000): "
        + "cancelled", runs.getFirst().message());
    RunRecord succeededOnOne = RunsOverShards.run("c", Map.of(ONE, run("c-s1", RunState.SUCCEEDED, T, T, "done")),
        List.of(ONE, TWO));
    assertEquals(RunState.FAILED, succeededOnOne.state(), "a run whose start did not reach a shard is not succeeded");
  }

  @Test
  void anHourIsWrittenOnceEveryShardWroteItWithRowsAndChecksumsAddedAndFailedWhenOneFailedIt() {
    SortedMap<HourPartition, LedgerEntry> one = new TreeMap<>(Map.of(H, written(0, 10, 7), H.plusHours(1),
        written(1, 5, -1), H.plusHours(2), written(2, 3, 1)));
    SortedMap<HourPartition, LedgerEntry> two = new TreeMap<>(Map.of(H, written(0, 20, 8), H.plusHours(2),
        new LedgerEntry("r", H.plusHours(2), LedgerEntry.State.FAILED, 0, 0, 3, T, "timeout")));
    SortedMap<HourPartition, LedgerEntry> merged = RunsOverShards.ledger("r", both(one, two));
    assertEquals(List.of(H, H.plusHours(2)), List.copyOf(merged.keySet()), "hour 01:00 waits for shard 2");
    assertEquals(30, merged.get(H).rows());
    assertEquals(15, merged.get(H).checksum());
    assertTrue(merged.get(H).complete());
    LedgerEntry failed = merged.get(H.plusHours(2));
    assertFalse(failed.complete());
    assertEquals("shard 2 (n2:9000): timeout", failed.error());
    assertEquals(3, failed.attempts());

    assertEquals(Map.of(), RunsOverShards.ledger("r", Map.of(ONE, one), 2).entrySet().stream()
        .filter(e -> e.getValue().complete()).collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
        Map.Entry::getValue)), "no hour is written while a shard has no part");
    SortedMap<HourPartition, LedgerEntry> carried = RunsOverShards.ledger("r", both(
        new TreeMap<>(Map.of(H, new LedgerEntry("r", H, LedgerEntry.State.CARRIED, 4, 1, 1, T, ""))),
        new TreeMap<>(Map.of(H, new LedgerEntry("r", H, LedgerEntry.State.CARRIED, 6, 2, 1, T, "")))));
    assertTrue(carried.get(H).carried(), "carried when every shard carried it");
  }
}
