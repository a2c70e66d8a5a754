package dev.cutover.engine.backfill;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process running a backfill is killed (SIGKILL) at random points, again and again; resuming
 * each time ends with exactly the target an uninterrupted run writes, and a consistent ledger.
 * {@code -Dcutover.kills=N} sets the number of kills (default 4; the reliability suite runs more).
 */
class KillAndResumeTest {

  @TempDir Path dir;

  @Test
  void resumingAfterEveryKillGivesTheSameTargetAsAnUninterruptedRun() throws Exception {
    int kills = Integer.getInteger("cutover.kills", 4);
    // About ten hours are written between two kills: more kills need a longer history to land in.
    HourlyWorld world = HourlyWorld.create(TestEngine.freshDatabase(KillAndResumeTest.class),
        Math.max(4, kills / 2 + 1));
    TableSpec spec = world.spec();
    Path specFile = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
    StateStore store = new StateStore(world.sql, world.database);
    long seed = Long.getLong("cutover.seed", System.nanoTime());
    Random random = new Random(seed);
    System.out.println("[kill-and-resume] seed " + seed + ", " + kills + " kills");

    String runId = null;
    int resumes = 0;
    Map<HourPartition, String> expected = null;
    List<Integer> writtenBeforeKill = new ArrayList<>();
    for (int k = 0; k < kills; k++) {
      Process p = probe(world, specFile, runId == null ? List.of("start") : List.of("resume", runId));
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
      String first = out.readLine();
      assertTrue(first != null && first.startsWith("run "), "probe said " + first);
      resumes += runId == null ? 0 : 1;
      runId = first.substring(4);
      Thread.sleep(50 + random.nextInt(1200));
      p.destroyForcibly();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      writtenBeforeKill.add(store.hours().ledger(runId).size());
      RunRecord killed = store.run(runId).orElseThrow();
      if (expected == null) {
        expected = world.expected(killed.range().from(), killed.range().to());
      }
      assertConsistentAfterKill(world, store, killed, expected);
      if (killed.state() == RunState.SUCCEEDED) {
        break; // the kill came after the end: nothing left to interrupt
      }
    }
    System.out.println("[kill-and-resume] ledger sizes after each kill: " + writtenBeforeKill + " of "
        + store.run(runId).orElseThrow().range().hours() + " hours");

    if (store.run(runId).orElseThrow().state() != RunState.SUCCEEDED) {
      Backfill backfill = new Backfill(world.sql, store);
      RunRecord end = backfill.start(new Planner(RepairContext.of(world.sql, store, spec)).resume(backfill.check(runId, spec),
          BackfillSettings.from(spec.throttle())), BackfillEvent.Listener.NONE).await();
      assertEquals(RunState.SUCCEEDED, end.state(), end.message());
      resumes++;
    }

    RunRecord run = store.run(runId).orElseThrow();
    Map<HourPartition, String> actual = world.checksums("visits_v2", run.range().from(), run.range().to());
    assertEquals(expected, actual, "seed " + seed);
    var ledger = store.hours().ledger(runId);
    assertEquals(run.range().list(), List.copyOf(ledger.keySet()), "every hour recorded exactly once");
    for (LedgerEntry e : ledger.values()) {
      assertTrue(e.complete(), "hour " + e.hour() + " " + e.state());
      assertEquals(expected.getOrDefault(e.hour(), "0:0"), e.rows() + ":" + e.checksum(), "ledger of " + e.hour());
    }
    assertEquals(0L, world.sql.queryLong("rows at or after the boundary", "SELECT count() FROM visits_v2 "
        + "WHERE hour >= toDateTime(?, 'UTC')", run.boundary().epochSecond()));
    // A kill after the run's last state but before it let go leaves a claim of a gone process: the next
    // reader settles it from the ledger, and every process sees the same repair afterwards.
    var repair = new dev.cutover.engine.repair.Repairs(dev.cutover.engine.ledger.RepairContext.of(world.sql, store, spec)).settled().orElseThrow();
    assertTrue(repair.operation().isEmpty(), "the run let go of the repair, or it was settled: " + repair);
    assertEquals(dev.cutover.engine.api.RepairPhase.BACKFILLED, repair.phase(), repair.note());
    var audit = store.auditTrail(runId, 10_000);
    assertEquals(1, audit.stream().filter(a -> a.action().equals("start")).count(), "one start in the audit trail");
    assertEquals(resumes, audit.stream().filter(a -> a.action().equals("resume")).count(),
        "one resume in the audit trail for each of the " + resumes + " resumes");
    String view = world.sql.queryOne("read the consumer view", "SELECT as_select FROM system.tables WHERE "
        + "database = ? AND name = 'visits'", rs -> rs.getString(1), world.database);
    assertTrue(view.contains("visits_v1") && !view.contains("visits_v2"), "consumers still read v1 only: " + view);
    world.db.close();
  }

  /**
   * What a kill may leave: hours the ledger calls complete hold exactly what the ledger says and
   * what an uninterrupted run writes; nothing at or after the boundary; consumers untouched.
   */
  private static void assertConsistentAfterKill(HourlyWorld world, StateStore store, RunRecord run,
      Map<HourPartition, String> expected) {
    Map<HourPartition, String> actual = world.checksums("visits_v2", run.range().from(), run.range().to());
    for (LedgerEntry e : store.hours().ledger(run.id()).values()) {
      if (e.complete()) {
        String recorded = e.rows() + ":" + e.checksum();
        assertEquals(expected.getOrDefault(e.hour(), "0:0"), recorded, "ledger of " + e.hour());
        assertEquals(recorded, actual.getOrDefault(e.hour(), "0:0"), "data of " + e.hour() + " matches its ledger");
      }
    }
    assertEquals(0L, world.sql.queryLong("rows at or after the boundary", "SELECT count() FROM visits_v2 "
        + "WHERE hour >= toDateTime(?, 'UTC')", run.boundary().epochSecond()));
    assertEquals(world.checksums("visits_v1", run.range().from(), run.range().to()),
        world.checksums("visits", run.range().from(), run.range().to()), "consumers read v1, untouched");
  }

  private static Process probe(HourlyWorld world, Path spec, List<String> mode) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", System.getProperty("java.class.path"),
        BackfillProbe.class.getName(), TestEngine.server().jdbcUrl(), world.database, spec.toString()));
    command.addAll(mode);
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }
}
