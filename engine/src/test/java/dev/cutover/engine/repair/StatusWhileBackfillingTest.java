package dev.cutover.engine.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A backfill's batch lands in v2 before its ledger line. While a run holds the repair, the status must
 * not call such an hour a second writer (the console's banner once said "two writers on one hour" for
 * every batch under way); once the run lets go, the same rows without a line are one, and are named.
 */
class StatusWhileBackfillingTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(StatusWhileBackfillingTest.class), 3);
    spec = world.spec();
    engine = new Engine(world.db);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void rowsAheadOfTheLedgerAreABatchUnderWayWhileTheRunHoldsTheRepairAndAnotherWriterAfter() throws Exception {
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withConcurrency(1).withBatchHours(1).withRowsPerSecond(1));
    RunHandle run = Procedure.start(engine, plan);
    run.pause();
    HourPartition b = plan.boundary();
    HourPartition ahead = b.plusHours(-1); // the run writes in order: its last hour is far from written
    // What a batch under way leaves for an instant: its rows in v2, its ledger line not yet written.
    world.sql.execute("rows ahead of the ledger", "INSERT INTO visits_v2 SELECT * FROM visits_v1 WHERE hour = "
        + "toDateTime(?, 'UTC')", ahead.epochSecond());
    assertTrue(world.sql.queryLong("rows", "SELECT count() FROM visits_v2 WHERE hour = toDateTime(?, 'UTC')",
        ahead.epochSecond()) > 0, "the hour before B has clicks in this world");

    LiveWriter during = engine.repairs().status(spec).liveWriter().orElseThrow();
    assertEquals(List.of(), during.belowBoundary(), during.describe());
    assertFalse(during.describe().contains("two writers"), during.describe());

    run.cancel();
    assertEquals(RunState.CANCELLED, run.await().state());
    LiveWriter after = engine.repairs().status(spec).liveWriter().orElseThrow();
    assertTrue(after.belowBoundary().contains(ahead), "rows no run of the repair wrote, once no run holds it: "
        + after.describe());
  }

  /**
   * Once a backfill has let go of the repair, the console reads who writes v2 every few seconds, and v2's sums below
   * B are read again only when its files there changed. Every way of changing an hour's rows after a first read is
   * named at the next: a second writer's insert, a mutation, a lightweight delete.
   */
  @Test
  void aWriteBelowBAfterTheStatusWasReadIsNamedAtTheNextRead() throws Exception {
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withConcurrency(1).withBatchHours(24));
    RunHandle run = Procedure.start(engine, plan);
    assertEquals(RunState.SUCCEEDED, run.await().state());
    assertEquals(List.of(), engine.repairs().status(spec).liveWriter().orElseThrow().belowBoundary());
    // The same read again: nothing changed, nothing is named.
    assertEquals(List.of(), engine.repairs().status(spec).liveWriter().orElseThrow().belowBoundary());

    HourPartition inserted = world.busyHour(3);
    HourPartition mutated = world.busyHour(7);
    HourPartition deleted = world.busyHour(11);
    world.sql.execute("a second writer", "INSERT INTO visits_v2 SELECT * FROM visits_v1 WHERE hour = "
        + "toDateTime(?, 'UTC') LIMIT 1", inserted.epochSecond());
    assertEquals(List.of(inserted), engine.repairs().status(spec).liveWriter().orElseThrow().belowBoundary());
    world.sql.execute("a mutation", "ALTER TABLE visits_v2 UPDATE clicks = clicks + 1 WHERE hour = toDateTime(?, 'UTC') "
        + "SETTINGS mutations_sync = 1", mutated.epochSecond());
    assertEquals(List.of(inserted, mutated), engine.repairs().status(spec).liveWriter().orElseThrow().belowBoundary());
    world.sql.execute("a lightweight delete", "DELETE FROM visits_v2 WHERE hour = toDateTime(?, 'UTC') AND site = "
        + "(SELECT any(site) FROM visits_v2 WHERE hour = toDateTime(?, 'UTC'))", deleted.epochSecond(),
        deleted.epochSecond());
    assertEquals(List.of(inserted, mutated, deleted),
        engine.repairs().status(spec).liveWriter().orElseThrow().belowBoundary());
  }

  /**
   * A repair that another process settled under a run, taking the run for gone (as it may a run on another host
   * whose beat is late), is recorded backfilled all the same when the run ends with every hour in its ledger:
   * nothing else would before a reconciliation, and the console would say "backfilling" of a finished history.
   */
  @Test
  void aRepairSettledUnderARunIsRecordedBackfilledWhenTheRunEnds() throws Exception {
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withConcurrency(1).withBatchHours(24));
    RunHandle run = Procedure.start(engine, plan);
    run.pause();
    RepairStore store = new RepairStore(world.sql, world.database);
    String target = world.database + ".visits_v2";
    Repair held = store.current(target).orElseThrow();
    assertEquals(run.id(), held.operation().orElseThrow().runId(), "the run holds the repair");
    store.write(Optional.of(held), held.next(RepairPhase.BACKFILLING, Optional.empty(), Operator.actor(), "settled: "
        + "the run ended with its process, as another process took it"), "settle");

    run.resume();
    assertEquals(RunState.SUCCEEDED, run.await().state());
    Repair ended = store.current(target).orElseThrow();
    assertEquals(RepairPhase.BACKFILLED, ended.phase(), ended.note());
    assertTrue(ended.operation().isEmpty());
    assertEquals("run " + run.id() + " succeeded; every hour below B is in the ledger", ended.note());
  }
}
