package dev.cutover.engine.repair;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BoundaryPinnedException;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One repair per target: its boundary pinned once, its state changed by one process at a time. */
class RepairTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(RepairTest.class), 3);
    spec = world.spec();
    engine = new Engine(world.db);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private Plan plan(Optional<HourPartition> from, Optional<HourPartition> boundary) {
    return engine.plans().plan(spec, from, Optional.empty(), boundary, engine.plans().defaults(spec));
  }

  /**
   * Finding 1: after the corrected live writer took over from B and ran for a day, a second backfill
   * with no boundary took a new default (live edge minus the margin) and wrote hours the live writer
   * had written. Now the first backfill pins B: every later plan takes it, another is refused, and
   * the live writer's hours are untouched.
   */
  @Test
  void theFirstBackfillPinsTheBoundaryAndNoLaterPlanMovesIt() throws Exception {
    Plan first = plan(Optional.empty(), Optional.empty());
    assertFalse(first.pinned(), "the first backfill will pin it");
    HourPartition b = first.boundary();
    assertEquals(RunState.SUCCEEDED, Procedure.backfill(engine, first).state());
    world.writeLiveV2(b, world.liveEdge.plusHours(1));
    world.advance(30, Optional.of(b));
    Map<HourPartition, String> liveHours = world.checksums("visits_v2", b, world.liveEdge.plusHours(1));
    // Every hour from B to the live edge that has clicks (the world's clicks depend on the hour of the day).
    assertEquals(world.sql.queryLong("hours with clicks", "SELECT uniqExact(toStartOfHour(ts)) FROM clicks WHERE "
        + "ts >= toDateTime(?, 'UTC') AND ts < toDateTime(?, 'UTC')", b.epochSecond(),
        world.liveEdge.plusHours(1).epochSecond()), (long) liveHours.size());
    assertTrue(liveHours.size() >= 30, "the live writer wrote most of the 34 hours: " + liveHours.size());

    Plan second = plan(Optional.of(b.plusHours(-3)), Optional.empty());
    assertTrue(second.pinned());
    assertEquals(b, second.boundary(), "the default is the pinned boundary, not the live edge minus the margin");
    assertEquals(3, second.hours().size());
    assertEquals(RunState.SUCCEEDED, Procedure.backfill(engine, second).state());
    assertEquals(liveHours, world.checksums("visits_v2", b, world.liveEdge.plusHours(1)),
        "the live writer's hours are as it wrote them");

    HourPartition moved = world.liveEdge.plusHours(-3);
    var refused = assertThrows(BoundaryPinnedException.class, () -> plan(Optional.empty(), Optional.of(moved)));
    assertEquals(List.of("boundary"), refused.fields());
    assertEquals(b, refused.pinned());
    assertEquals(moved, refused.asked());
    assertEquals("plan", refused.step());
    Repair repair = engine.repairs().current(spec).orElseThrow();
    assertEquals(repair.id(), refused.repairId());
    assertEquals("Keep " + b + ", or abandon the repair to start over with another boundary.", refused.whatToDo());
    assertEquals("The repair of " + world.database + ".visits_v2 pinned the boundary B = " + b + " when its first "
        + "backfill started (repair " + repair.id() + "); the corrected live writer owns every hour from " + b
        + " on, so a backfill may only write hours before it, and " + moved + " cannot replace it. Keep " + b
        + ", or abandon the repair to start over with another boundary.", refused.getMessage());

    RepairStatus status = engine.repairs().status(spec);
    assertEquals(Optional.of(b), status.repair().flatMap(Repair::boundary));
    assertTrue(status.liveWriter().orElseThrow().startsAtBoundary(), status.liveWriter().toString());
    assertEquals(Optional.of(b), status.liveWriter().get().start());
  }

  /** Abandoning frees the boundary: the next backfill starts a new repair that pins its own. */
  @Test
  void anAbandonedRepairLetsTheNextBackfillPinAnotherBoundary() throws Exception {
    Plan first = plan(Optional.empty(), Optional.empty());
    Procedure.backfill(engine, first);
    Repair before = engine.repairs().current(spec).orElseThrow();
    assertEquals(RepairPhase.BACKFILLED, before.phase(), before.note());

    var noReason = assertThrows(InvalidInputException.class, () -> engine.repairs().abandon(spec, "visits_v2", " "));
    assertEquals("reason", noReason.field());
    var wrongName = assertThrows(InvalidInputException.class, () -> engine.repairs().abandon(spec, "visits", "wrong B"));
    assertEquals("To abandon the repair, confirm with the target's name, visits_v2 (you typed 'visits').",
        wrongName.getMessage());
    Repair abandoned = engine.repairs().abandon(spec, "visits_v2", "the boundary was chosen before the live job moved");
    assertEquals(RepairPhase.ABANDONED, abandoned.phase());
    assertEquals(before.id(), abandoned.id());

    HourPartition earlier = first.boundary().plusHours(-6);
    Plan other = plan(Optional.empty(), Optional.of(earlier));
    assertFalse(other.pinned());
    Procedure.backfill(engine, other);
    Repair now = engine.repairs().current(spec).orElseThrow();
    assertTrue(!now.id().equals(before.id()), "a new repair");
    assertEquals(Optional.of(earlier), now.boundary());
    assertTrue(engine.repairs().audit(world.database + ".visits_v2", 50).stream()
        .anyMatch(a -> a.action().equals("abandon") && a.detail().contains("live job moved")));
  }

  /**
   * A corrected live writer outside the database, once declared deployed, is waited for rather than asked
   * for again; the declaration is a line of the audit trail that names its repair, so it never counts for
   * the next repair, and what the writer writes is still read from the data.
   */
  @Test
  void aDeclaredLiveWriterIsWaitedForUntilItsFirstHour() throws Exception {
    var before = assertThrows(StepRefusedException.class, () -> engine.repairs().declareLiveWriter(spec, "visits-job"));
    assertTrue(before.getMessage().startsWith("The target " + world.database + ".visits_v2 has no repair under way "
        + "with a boundary B"), before.getMessage());
    Plan first = plan(Optional.empty(), Optional.empty());
    Procedure.backfill(engine, first);
    HourPartition b = first.boundary();
    assertEquals(RepairStatus.Kind.DEPLOY_LIVE_WRITER, engine.repairs().status(spec).next().kind());

    String target = world.database + ".visits_v2";
    for (String bad : List.of(" ", "visits-job\n4.2", "v".repeat(201))) {
      var refused = assertThrows(InvalidInputException.class, () -> engine.repairs().declareLiveWriter(spec, bad));
      assertEquals("writer", refused.field());
    }
    assertTrue(declarations(target).isEmpty(), "nothing written for bad input");

    var declared = engine.repairs().declareLiveWriter(spec, "  visits-job 4.2 (the fix) ").note();
    assertEquals("visits-job 4.2 (the fix)", declared.writer());
    assertEquals(b, declared.boundary());
    assertEquals(Operator.user(), declared.actor());
    RepairStatus waiting = engine.repairs().status(spec);
    assertEquals(RepairStatus.Kind.WAIT_FOR_LIVE_WRITER, waiting.next().kind(), waiting.next().sentence());
    HourPartition v1 = waiting.live().liveEdge().orElseThrow();
    assertTrue(declared.describe().matches("The corrected live writer \\(visits-job 4\\.2 \\(the fix\\)\\) was "
        + "declared deployed from B = " + b + " by " + declared.actor() + "@" + declared.host()
        + " at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\."), declared.describe());
    assertEquals(declared.describe() + " visits_v2 holds no hour from B yet, "
        + "while v1 has written " + (java.time.Duration.between(b.start(), v1.start()).toHours() + 1) + " hour(s) "
        + "from B (up to " + v1 + "): if the writer's first hour does not come, check that it runs and starts at B.",
        waiting.next().sentence());
    assertEquals(declared.at(), engine.repairs().declareLiveWriter(spec, "visits-job 4.2 (the fix)").note().at(),
        "declared again: the first declaration stands");
    assertEquals(1, declarations(target).size());

    world.writeLiveV2(b, world.liveEdge.plusHours(1));
    assertTrue(engine.repairs().status(spec).next().kind() != RepairStatus.Kind.WAIT_FOR_LIVE_WRITER,
        "the writer's hours are read from the data once it writes");

    engine.repairs().abandon(spec, "visits_v2", "the writer is redeployed with another boundary");
    HourPartition earlier = b.plusHours(-6);
    world.sql.execute("empty v2", "TRUNCATE TABLE " + world.database + ".visits_v2");
    Procedure.backfill(engine, plan(Optional.empty(), Optional.of(earlier)));
    assertEquals(RepairStatus.Kind.DEPLOY_LIVE_WRITER, engine.repairs().status(spec).next().kind(),
        "the abandoned repair's declaration does not count for the next");
  }

  private List<dev.cutover.engine.api.AuditEntry> declarations(String target) {
    return engine.repairs().audit(target, 50).stream().filter(a -> a.action().equals(LiveWriterNotes.ACTION)).toList();
  }

  /** Two processes that read the same version cannot both write the next one; the loser is told who won. */
  @Test
  void ofTwoWritersOfOneVersionExactlyOneWins() throws Exception {
    Procedure.backfill(engine, plan(Optional.empty(), Optional.empty()));
    RepairStore store = new RepairStore(world.sql, world.database);
    String target = world.database + ".visits_v2";
    for (int round = 0; round < 5; round++) {
      Repair read = store.current(target).orElseThrow();
      CountDownLatch go = new CountDownLatch(1);
      List<String> outcomes = new CopyOnWriteArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        threads.add(Thread.ofPlatform().start(() -> {
          try {
            go.await();
            store.write(Optional.of(read), read.next(read.phase(), read.operation(), Operator.actor(), "writer "
                + writer), "test");
            outcomes.add("won " + writer);
          } catch (HeldByAnotherProcessException e) {
            outcomes.add("lost: " + e.getMessage() + " held by " + e.actor() + " at " + e.since() + ", " + e.action());
          } catch (StepRefusedException e) {
            outcomes.add("lost, not as held: " + e.getMessage());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
      }
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(1, outcomes.stream().filter(o -> o.startsWith("won")).count(), outcomes.toString());
      String winner = outcomes.stream().filter(o -> o.startsWith("won")).findFirst().orElseThrow().substring(4);
      assertTrue(outcomes.stream().filter(o -> o.startsWith("lost")).allMatch(o -> o.startsWith("lost: Another "
          + "process changed the repair of " + target + " at the same moment: ")), outcomes.toString());
      Repair now = store.current(target).orElseThrow();
      assertEquals(read.version() + 1, now.version());
      assertEquals("writer " + winner, now.note());
      // A loser is held off by the winner, who let go at once: the same exit (8, try later) as any holder's.
      String held = "held by " + now.by() + " at " + now.at() + ", recorded " + now.phase().words();
      assertTrue(outcomes.stream().filter(o -> o.startsWith("lost")).allMatch(o -> o.endsWith(held)), outcomes
          + " each " + held);
    }
    assertEquals(RepairStore.KEEP, world.sql.queryLong("count records", "SELECT count() FROM system.tables WHERE "
        + "database = ? AND startsWith(name, ?)", world.database, RepairStore.markerPrefix(target)),
        "older records are dropped; the log keeps them");
    assertTrue(store.history(target, 100).size() >= 7, "every record is in the log");
  }

  /**
   * The first backfills of a target started at once each record the repair as planned before they take it:
   * the one that lost that first record was refused as a plain step (exit 6) while a loser a moment later was
   * told the repair is held (exit 8). Whoever loses the race is now told who won it and when.
   */
  @Test
  void ofTwoWritersOfATargetsFirstRecordTheLoserIsToldWhoHoldsIt() throws Exception {
    RepairStore store = new RepairStore(world.sql, world.database);
    String target = world.database + ".first_record";
    Repair.Actor other = new Repair.Actor("alice", "console-host", 4242);
    Repair theirs = new Repair("r-theirs", target, 1, RepairPhase.PLANNED, Optional.of(world.liveEdge.plusHours(-3)),
        Optional.empty(), spec.name(), spec.transformSha256(), java.util.List.of(), Optional.empty(),
        Instant.parse("2026-11-30T09:15:00Z"), other, "planned by the other process");
    store.write(Optional.empty(), theirs, "backfill");
    Repair mine = new Repair("r-mine", target, 1, RepairPhase.PLANNED, theirs.boundary(), Optional.empty(),
        spec.name(), spec.transformSha256(), java.util.List.of(), Optional.empty(), Instant.now(), Operator.actor(),
        "planned by this process");

    var lost = assertThrows(HeldByAnotherProcessException.class, () -> store.write(Optional.empty(), mine,
        "backfill"));
    assertEquals("backfill", lost.step());
    assertEquals(other, lost.actor());
    assertEquals(theirs.at(), lost.since());
    assertEquals("recorded planned", lost.action());
    assertTrue(lost.retryable());
    assertEquals("Another process changed the repair of " + target + " at the same moment: " + other + ", who "
        + "recorded it as planned at 2026-11-30 09:15 UTC. Nothing was done; look at where the repair stands now and "
        + "decide again.", lost.getMessage());
    assertEquals("r-theirs", store.current(target).orElseThrow().id(), "the winner's record stands");
  }

  /** A record written by a process that read a version so old its successor was dropped is withdrawn. */
  @Test
  void aStaleWriterCannotResurrectADroppedVersion() throws Exception {
    Procedure.backfill(engine, plan(Optional.empty(), Optional.empty()));
    RepairStore store = new RepairStore(world.sql, world.database);
    String target = world.database + ".visits_v2";
    Repair stale = store.current(target).orElseThrow();
    Repair moving = stale;
    for (int i = 0; i < RepairStore.KEEP + 2; i++) {
      moving = store.write(Optional.of(moving), moving.next(moving.phase(), Optional.empty(), Operator.actor(),
          "step " + i), "test");
    }
    Repair resurrected = stale.next(stale.phase(), Optional.empty(), Operator.actor(), "stale");
    var lost = assertThrows(HeldByAnotherProcessException.class, () -> store.write(Optional.of(stale), resurrected,
        "test"));
    assertTrue(lost.getMessage().contains("at the same moment"), lost.getMessage());
    assertEquals(moving, store.current(target).orElseThrow(), "the newest record stands");
  }

  /**
   * Finding 8, the third part: a lock whose holder had not yet written its run record was taken as
   * stale, and another run took it over. Now the holder is the process: while it lives, its hold
   * stands, record or not; once it is gone, the next process settles the repair.
   */
  @Test
  void aHolderWhoseRunIsNotRecordedYetKeepsTheRepairWhileItsProcessLives() throws Exception {
    Procedure.backfill(engine, plan(Optional.empty(), Optional.empty()));
    RepairStore store = new RepairStore(world.sql, world.database);
    String target = world.database + ".visits_v2";
    Process starting = new ProcessBuilder("sleep", "60").start();
    try {
      Repair r = store.current(target).orElseThrow();
      Repair.Actor other = new Repair.Actor("alice", Operator.host(), starting.pid());
      store.write(Optional.of(r), r.next(RepairPhase.BACKFILLING, Optional.of(new Repair.Operation(
          Repair.Operation.BACKFILL, other, Instant.now(), "run-not-recorded-yet")), other, "starting"), "test");

      var refused = assertThrows(HeldByAnotherProcessException.class, () -> Procedure.start(engine,
          plan(Optional.empty(), Optional.empty())));
      assertTrue(refused.getMessage().startsWith("The repair of " + target + " is held by the backfill run "
          + "run-not-recorded-yet by alice@"), refused.getMessage());
      assertEquals(other, refused.holder().orElseThrow());
      assertEquals(other, refused.actor());
      assertEquals("alice", refused.user());
      assertEquals(Operator.host(), refused.host());
      assertEquals(Optional.of("run-not-recorded-yet"), refused.runId());
      assertEquals(Repair.Operation.BACKFILL, refused.action());
      assertEquals("backfill", refused.step());
      assertTrue(refused.retryable(), "a held repair can be taken once its holder ends");

      starting.destroyForcibly().waitFor();
      Repair settled = new Repairs(RepairContext.of(world.sql, new StateStore(world.sql, world.database), spec)).settled().orElseThrow();
      assertTrue(settled.operation().isEmpty(), settled.toString());
      assertTrue(settled.note().startsWith("settled: the backfill run run-not-recorded-yet"), settled.note());
      assertEquals(RunState.SUCCEEDED, Procedure.backfill(engine, plan(Optional.empty(), Optional.empty())).state());
    } finally {
      starting.destroyForcibly();
    }
  }
}
