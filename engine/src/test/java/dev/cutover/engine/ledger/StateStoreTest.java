package dev.cutover.engine.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A run's state changes by compare-and-set on the server: of two writers at once, one wins. */
class StateStoreTest {

  private Database db;
  private Sql sql;
  private String database;

  @BeforeEach
  void database() {
    db = TestEngine.freshDatabase(StateStoreTest.class);
    sql = new Sql(db.dataSource());
    database = db.server().database();
    new StateStore(sql, database).ensureSchema();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private RunRecord running(String id) {
    HourPartition h = HourPartition.containing(Instant.now()).plusHours(-48);
    Instant now = Instant.now();
    RunRecord run = new RunRecord(id, "repair-1", "visits", "sha", "db.visits_v2", new HourRange(h, h.plusHours(24)),
        h.plusHours(24), "", "alice", "elsewhere", 1, "test", now, now, RunState.RUNNING, "started");
    new StateStore(sql, database).saveRun(run);
    return run;
  }

  /**
   * Two processes (two stores) move the same run at the same moment, one to succeeded and one to
   * failed. Whatever the interleaving, exactly one wins: the other is refused because it lost the
   * race, or because it came second and the run can no longer make its move. Without the
   * compare-and-set both read "running", both wrote, and both were told they had won.
   */
  @Test
  void twoTransitionsAtOnceLeaveExactlyOneWinner() throws Exception {
    int raced = 0;
    for (int round = 0; round < 12; round++) {
      String id = "race-" + round;
      RunRecord run = running(id);
      CyclicBarrier together = new CyclicBarrier(2);
      List<Future<RunRecord>> moves = new ArrayList<>();
      for (RunState to : List.of(RunState.SUCCEEDED, RunState.FAILED)) {
        StateStore store = new StateStore(sql, database);
        FutureTask<RunRecord> move = new FutureTask<>(() -> {
          together.await();
          return store.transition(run, to, to.name().toLowerCase() + " by the test");
        });
        Thread.ofVirtual().start(move);
        moves.add(move);
      }
      List<RunRecord> won = new ArrayList<>();
      List<Throwable> refused = new ArrayList<>();
      for (Future<RunRecord> move : moves) {
        try {
          won.add(move.get());
        } catch (ExecutionException e) {
          refused.add(e.getCause());
        }
      }
      assertEquals(1, won.size(), "round " + round + ": winners " + won + ", refusals " + refused);
      Throwable loser = refused.getFirst();
      assertTrue(loser instanceof StepRefusedException || loser instanceof InvalidInputException, loser.toString());
      RunState stored = new StateStore(sql, database).run(id).orElseThrow().state();
      assertEquals(won.getFirst().state(), stored, "the winner's state is the one recorded");
      if (loser instanceof StepRefusedException refusal) {
        raced++;
        assertInstanceOf(HeldByAnotherProcessException.class, refusal, "a lost race exits as held: try later");
        assertEquals("Run " + id + " is now " + stored.name().toLowerCase() + ": another writer moved it at the same "
            + "moment, so it did not become " + (stored == RunState.FAILED ? "succeeded" : "failed") + ". Nothing was "
            + "changed; look at the run again and decide.", refusal.getMessage());
      }
    }
    assertTrue(raced > 0, "no round raced; the test did not exercise the compare-and-set");
  }

  /**
   * The window of the race made deterministic: another writer has claimed the next step and not yet
   * written its record. A transition now is refused with a sentence naming the run and what the
   * other writer made of it, and the record is left as the other writer will write it.
   */
  @Test
  void aTransitionWhileAnotherWriterHoldsTheNextStepIsRefusedByName() {
    RunRecord run = running("held");
    assertTrue(new RunClaims(sql, dev.cutover.engine.api.Identifier.simple("database", database))
        .claim("held", 1, RunState.PAUSED));
    StateStore store = new StateStore(sql, database);
    HeldByAnotherProcessException refused = assertThrows(HeldByAnotherProcessException.class,
        () -> store.transition(run, RunState.CANCELLED, "cancelled by the test"));
    assertEquals("Run held is now paused: another writer moved it at the same moment, so it did not become "
        + "cancelled. Nothing was changed; look at the run again and decide.", refused.getMessage());
    // The writer that won is named, as a holder is, so the command line exits 8: try again later.
    assertEquals(new dev.cutover.engine.api.Repair.Actor(Operator.user(), Operator.host(),
        ProcessHandle.current().pid()), refused.actor());
    assertEquals(Optional.of("held"), refused.runId());
    assertTrue(refused.since().isAfter(Instant.now().minusSeconds(60)), refused.since().toString());
    assertEquals(RunState.RUNNING, store.run("held").orElseThrow().state());
  }

  /**
   * A writer that claimed a step and died before writing its record would block the run for good;
   * once its claim is older than a heartbeat's staleness, the next writer withdraws it and moves on.
   */
  @Test
  void aClaimWhoseWriterNeverWroteIsWithdrawnOnceItIsStale() {
    RunRecord run = running("abandoned");
    sql.execute("plant an abandoned claim", "CREATE TABLE `" + database + "`.`" + RunClaims.name("abandoned", 1)
        + "` (v UInt8) ENGINE = Null COMMENT 'PAUSED " + Instant.now().minus(Duration.ofHours(1)).toEpochMilli() + "'");
    StateStore store = new StateStore(sql, database);
    assertEquals(RunState.CANCELLED, store.transition(run, RunState.CANCELLED, "cancelled by the test").state());
    assertEquals(RunState.CANCELLED, store.run("abandoned").orElseThrow().state());
  }

  /**
   * A backfill killed between claiming its last state and writing it: a resume a moment later was told that
   * another writer had moved the run (the claim was not stale yet). A claim whose writer ran on this host
   * under a process that is gone is withdrawn at once; one whose writer still runs is not.
   */
  @Test
  void aFreshClaimIsWithdrawnAtOnceWhenItsWritersProcessOnThisHostIsGone() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    assertTrue(gone.waitFor(10, java.util.concurrent.TimeUnit.SECONDS));
    RunRecord killed = running("killed");
    plantClaim("killed", RunState.SUCCEEDED, gone.pid());
    StateStore store = new StateStore(sql, database);
    assertEquals(RunState.CANCELLED, store.transition(killed, RunState.CANCELLED, "cancelled by the test").state());

    Process alive = new ProcessBuilder("sleep", "60").start();
    try {
      RunRecord held = running("held-elsewhere");
      plantClaim("held-elsewhere", RunState.PAUSED, alive.pid());
      StepRefusedException refused = assertThrows(StepRefusedException.class,
          () -> store.transition(held, RunState.CANCELLED, "cancelled by the test"));
      assertTrue(refused.getMessage().startsWith("Run held-elsewhere is now paused: another writer moved it"),
          refused.getMessage());
    } finally {
      alive.destroyForcibly();
    }
  }

  private void plantClaim(String runId, RunState to, long pid) {
    sql.execute("plant a claim", "CREATE TABLE `" + database + "`.`" + RunClaims.name(runId, 1) + "` (v UInt8) ENGINE "
        + "= Null COMMENT '" + to.name() + " " + Instant.now().toEpochMilli() + " " + pid + " " + Operator.host() + "'");
  }

  /** A heartbeat rewrites the record at its step: even after the server merges the rows, the newer state stands. */
  @Test
  void aHeartbeatNeverUndoesAStateChange() {
    RunRecord run = running("beating");
    StateStore store = new StateStore(sql, database);
    store.heartbeat(run);
    store.transition(run, RunState.PAUSED, "paused by the test");
    store.heartbeat(run);
    sql.execute("merge the runs", "OPTIMIZE TABLE `" + database + "`.runs FINAL");
    RunRecord read = store.run("beating").orElseThrow();
    assertEquals(RunState.PAUSED, read.state());
    assertEquals(List.of(), sql.query("list claims", "SELECT name FROM system.tables WHERE database = ? AND "
        + "startsWith(name, 'run__beating__s') AND name != 'run__beating__s1'", rs -> rs.getString(1), database));
  }

  /** Whether this process still runs a run is the engine's to say when it reads the record. */
  @Test
  void aRunOfThisProcessThatNoLongerExecutesHereReadsAsInterrupted() {
    HourPartition h = HourPartition.containing(Instant.now()).plusHours(-48);
    Instant now = Instant.now();
    RunRecord mine = new RunRecord("mine", "repair-1", "visits", "sha", "db.visits_v2", new HourRange(h, h.plusHours(1)),
        h.plusHours(1), "", "alice", Operator.host(), ProcessHandle.current().pid(), "test", now, now, RunState.RUNNING,
        "started");
    StateStore store = new StateStore(sql, database);
    store.saveRun(mine);
    LiveRuns.started("mine");
    try {
      assertFalse(store.run("mine").orElseThrow().interrupted(Instant.now(), RunRecord.STALE_AFTER));
      assertEquals("running", store.run("mine").orElseThrow().shownState(Instant.now()));
    } finally {
      LiveRuns.ended("mine");
    }
    RunRecord ended = store.run("mine").orElseThrow();
    assertEquals(RunRecord.Process.GONE, ended.process());
    assertEquals("interrupted", ended.shownState(Instant.now()));
    assertInstanceOf(RunRecord.class, ended);
  }

  /**
   * A run's process on this host is asked, not judged by its beat alone: a beat late on a loaded machine does not
   * make a run this process runs interrupted (a resume would write its hours while it still writes them), nor one
   * whose process of this host is there until its beat is older than a process's silence could be; a process id that
   * now names a process started after the last beat is not the run's. A process on another host has its beat alone.
   */
  @Test
  void aLiveProcessOfThisHostKeepsItsRunHoweverLateItsBeat() throws Exception {
    StateStore store = new StateStore(sql, database);
    Instant late = Instant.now().plus(Duration.ofMinutes(2)); // stale for a beat judged alone
    Instant silent = Instant.now().plus(RunRecord.STALE_ON_THIS_HOST).plusSeconds(60);
    store.saveRun(beating("here", Operator.host(), ProcessHandle.current().pid(), Instant.now()));
    LiveRuns.started("here");
    try {
      RunRecord here = store.run("here").orElseThrow();
      assertEquals(RunRecord.Process.HERE, here.process());
      assertFalse(here.interrupted(silent, RunRecord.STALE_AFTER), "this process runs it");
    } finally {
      LiveRuns.ended("here");
    }

    Process other = new ProcessBuilder("sleep", "60").start();
    try {
      Instant started = other.info().startInstant().orElseThrow();
      store.saveRun(beating("there", Operator.host(), other.pid(), Instant.now()));
      RunRecord there = store.run("there").orElseThrow();
      assertEquals(RunRecord.Process.THERE, there.process());
      assertFalse(there.interrupted(late, RunRecord.STALE_AFTER), "its process of this host is there");
      assertTrue(there.interrupted(silent, RunRecord.STALE_AFTER), "its process let go of it without a word");
      store.saveRun(beating("reused", Operator.host(), other.pid(), started.minusSeconds(5)));
      RunRecord reused = store.run("reused").orElseThrow();
      assertEquals(RunRecord.Process.GONE, reused.process(), "the id names a process started after the last beat");
      assertTrue(reused.interrupted(Instant.now(), RunRecord.STALE_AFTER));
    } finally {
      other.destroy();
    }

    store.saveRun(beating("elsewhere", "another-host", ProcessHandle.current().pid(), Instant.now()));
    RunRecord elsewhere = store.run("elsewhere").orElseThrow();
    assertEquals(RunRecord.Process.UNSEEN, elsewhere.process());
    assertFalse(elsewhere.interrupted(Instant.now(), RunRecord.STALE_AFTER), "its beat is fresh");
    assertTrue(elsewhere.interrupted(late, RunRecord.STALE_AFTER), "its beat alone says, and it is stale");
  }

  private static RunRecord beating(String id, String host, long pid, Instant beat) {
    HourPartition h = HourPartition.containing(Instant.now()).plusHours(-48);
    return new RunRecord(id, "repair-1", "visits", "sha", "db.visits_v2", new HourRange(h, h.plusHours(1)),
        h.plusHours(1), "", "alice", host, pid, "test", beat.minusSeconds(60), beat, RunState.RUNNING, "started");
  }
}
