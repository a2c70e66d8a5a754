package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Statements;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The repair of a table that a materialized view feeds ({@code demo seed --live mv}): the corrected
 * view is deployed with a boundary B in the future, the backfill waits for B to close and then writes
 * the hours before it, while trades keep arriving, late ones included. No hour is missing or counted
 * twice at B: proven against the corrected transform computed from every trade, from the ledger, and
 * by the engine's own coverage proof.
 */
class ViewFedRepairTest {

  private static final Instant END = Instant.parse("2026-11-30T09:00:00Z");
  /** Late trades carry ids from here, apart from the generator's. */
  private static final long LATE_IDS = 9_000_000_000_000_000L;

  @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir;
  private Database database;
  private DemoWorld world;
  private Sql sql;
  private TableSpec spec;
  private Engine engine;
  private LiveJob job;
  private final Random random = new Random(11);
  private long lateSeq;

  @BeforeEach
  void viewFedWorld() {
    database = TestEngine.freshDatabase(ViewFedRepairTest.class);
    world = DemoWorld.in(database.profile().database());
    sql = new Sql(Statements.over(database));
    new Seeder(Statements.over(database), world).seed(new SeedOptions(29, 0.03, 2, END, 0, true), SeedProgress.NONE);
    spec = dev.cutover.engine.Specs.read(ShortOverlap.in(DemoSpec.export(dir, world.database().name(), true, true)));
    engine = new Engine(database);
    job = LiveJob.open(Statements.over(database), world, new LiveOptions(Duration.ofSeconds(1), s -> { }, e -> { }));
  }

  @AfterEach
  void close() {
    job.close();
    database.close();
  }

  @Test
  void theViewOwnsEveryHourFromAFutureBoundaryAndTheBackfillEveryHourBefore() throws Exception {
    assertTrue(world.viewFed(Statements.over(database)));
    assertThrows(StepRefusedException.class, () -> engine.plans().plan(spec, Optional.empty(), Optional.empty(),
        Optional.empty(), engine.plans().defaults(spec)), "a view-fed spec is not planned behind the live edge");

    LiveDeployment deployed = engine.repairs().deployLive(spec);
    HourPartition b = deployed.boundary();
    Instant newest = deployed.newestEvent();
    assertEquals(HourPartition.containing(newest.plus(spec.safetyMargin())).plusHours(1), b, "B: the next whole hour "
        + "after the newest event plus the margin");
    assertTrue(viewExists("pnl_v2_mv") && viewExists("pnl_v2_fees_mv"), "one corrected view per source");
    assertEquals(RepairPhase.PLANNED, engine.repairs().current(spec).orElseThrow().phase());
    assertTrue(engine.repairs().deployLive(spec).exists(), "deploying again changes nothing");

    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withBatchHours(6));
    assertEquals(b, plan.boundary(), "the deployment pinned B");
    RunHandle run = Procedure.start(engine, plan);

    HourPartition closes = b.plusHours(spec.safetyMargin().toHours());
    long lateBelow = 0;
    long lateFrom = 0;
    while (!run.completion().isDone() || job.state().clock().isBefore(ShortOverlap.settled(spec, b))) {
      HourPartition edge = HourPartition.containing(job.state().clock().minusSeconds(1));
      if (edge.isBefore(closes)) {
        assertEquals(0, engine.backfills().ledger(run.id()).size(), "nothing is written before B has closed (edge "
            + edge + ")");
      }
      job.step();
      HourPartition late = lateTrades(job.state().clock());
      if (late.isBefore(b)) {
        lateBelow++;
      } else {
        lateFrom++;
      }
    }
    RunRecord end = run.completion().get();
    assertEquals(RunState.SUCCEEDED, end.state(), end.message());
    assertTrue(lateBelow > 0 && lateFrom > 0, "late trades fell on both sides of B: " + lateBelow + ", " + lateFrom);

    // The ledger: every hour before B, written by the backfill, and none from B on.
    TreeMap<HourPartition, LedgerEntry> ledger = engine.backfills().ledger(end.id());
    assertEquals(plan.range().list(), List.copyOf(ledger.keySet()));
    assertEquals(b, plan.range().to());
    assertTrue(ledger.values().stream().allMatch(LedgerEntry::complete));

    // The data: v2, folded per hour and key, is the corrected transform of every trade, in every hour.
    HourPartition last = HourPartition.containing(job.state().clock().minusSeconds(1));
    assertEquals(0, mismatches(), "v2 differs from the corrected transform of every trade");
    assertTrue(count("pnl_v2 WHERE hour >= toDateTime(?, 'UTC')", b.epochSecond()) > 0, "the view wrote from B");
    assertEquals(count("(SELECT DISTINCT toStartOfHour(event_time) FROM " + world.trades().sql() + ")"),
        count("(SELECT DISTINCT hour FROM " + world.pnlV2().sql() + ")"), "every hour with trades is in v2");
    assertEquals(last, HourPartition.ofEpochSecond(sql.queryLong("v2's newest hour", "SELECT toUnixTimestamp(max(hour)) "
        + "FROM " + world.pnlV2().sql())), "v2 reaches the live edge");

    // The engine's proof: the view starts at B, wrote nothing below it, and the backfill nothing from it.
    RepairStatus status = engine.repairs().status(spec);
    assertTrue(status.correctedViewExists(), "the deployed view exists");
    LiveWriter writer = status.liveWriter().orElseThrow();
    assertTrue(writer.startsAtBoundary(), writer.describe());
    assertEquals(List.of(), writer.belowBoundary());
    assertEquals(List.of(), writer.backfilledFromBoundary());
    Reconciliation r = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 100_000);
    assertEquals(Reconciliation.Verdict.GREEN, r.verdict(), r.coverage() + " " + r.counts());
    assertEquals(List.of(), r.coverage());
    assertTrue(r.expectedKeys() > 0);
    // Only settled hours are judged: the views write v1 and v2 at two moments of an insert, and late trades
    // still arrive within the safety margin, so the window ends at the hour of the newest trade less the margin.
    Instant newestTrade = Instant.ofEpochSecond(sql.queryLong("the newest trade", "SELECT toUnixTimestamp(max("
        + "event_time)) FROM " + world.trades().sql()));
    assertEquals(HourPartition.containing(newestTrade.minus(spec.safetyMargin())), r.window().to(),
        "the reconciliation judged hours that may still change");

    // Cutover, rollback: the rollback drops the view it deployed, and the gate then stays closed.
    engine.cutovers().cutover(spec, "pnl");
    assertEquals(RepairPhase.CUT_OVER, engine.repairs().current(spec).orElseThrow().phase());
    assertTrue(viewExists("pnl_v1_mv") && viewExists("pnl_v1_fees_mv"), "the cutover leaves v1's views running");
    engine.cutovers().rollback(spec, "pnl");
    assertFalse(viewExists("pnl_v2_mv") || viewExists("pnl_v2_fees_mv"), "the rollback dropped both corrected views");
    assertFalse(engine.cutovers().gate(spec).open());
    RepairStatus rolledBack = engine.repairs().status(spec);
    assertEquals(RepairStatus.Kind.ABANDON, rolledBack.next().kind());
    assertFalse(rolledBack.correctedViewExists(), "status says the view the rollback dropped is gone");
    engine.repairs().abandon(spec, "pnl_v2", "the fix is taken back");
    assertEquals(RepairStatus.Kind.DEPLOY_VIEW, engine.repairs().status(spec).next().kind());
  }

  @Test
  void retiringV1DropsTheViewThatWritesItAndAbandoningDropsTheCorrectedOne() throws Exception {
    engine.repairs().deployLive(spec);
    engine.repairs().abandon(spec, "pnl_v2", "deployed by mistake");
    assertFalse(viewExists("pnl_v2_mv") || viewExists("pnl_v2_fees_mv"), "abandon dropped both corrected views");

    engine.repairs().deployLive(spec);
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    RunHandle run = Procedure.start(engine, plan);
    while (!run.completion().isDone() || job.state().clock().isBefore(ShortOverlap.settled(spec, plan.boundary()))) {
      job.step();
    }
    assertEquals(RunState.SUCCEEDED, run.completion().get().state());
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR,
        1_000).verdict());
    engine.cutovers().cutover(spec, "pnl");
    List<String> statements = engine.cutovers().dropV1Statements(spec);
    assertTrue(statements.subList(0, 2).stream().anyMatch(s -> s.contains("pnl_v1_mv`"))
        && statements.subList(0, 2).stream().anyMatch(s -> s.contains("pnl_v1_fees_mv`")),
        "the drop names v1's views first: " + statements);
    assertEquals(List.of(), engine.cutovers().v1Readers(spec), "v1's own writers do not hold the drop back");
    List<String> dropped = engine.cutovers().dropV1(spec, true, "a test", List.of());
    String db = world.database().name();
    assertEquals(java.util.Set.of(db + ".pnl_v1_mv", db + ".pnl_v1_fees_mv"), java.util.Set.copyOf(dropped.subList(0,
        2)), "v1's writers are dropped before v1: " + dropped);
    assertFalse(viewExists("pnl_v1_mv") || viewExists("pnl_v1_fees_mv"));
    long v2Rows = count("pnl_v2");
    job.step(); // trades still go in, and the corrected view still writes v2
    assertTrue(count("pnl_v2") > v2Rows);
  }

  /**
   * A deployment killed between its record and its view leaves a repair that names a missing view:
   * deployed again, the same repair gets its view with the same B; once an event of B has arrived, the
   * view could no longer see all of B, and the step says to abandon.
   */
  @Test
  void aViewOfTheCorrectedNameThatNoOpenRepairDeployedIsNotTakenForTheNewOne() {
    sql.execute("a view left by a repair given up", "CREATE VIEW " + world.database().quoted() + ".pnl_v2_mv AS SELECT 1");
    var refused = assertThrows(StepRefusedException.class, () -> engine.repairs().deployLive(spec));
    assertTrue(refused.getMessage().contains("pnl_v2_mv` exists already, and no open repair deployed it"),
        refused.getMessage());
    assertTrue(engine.repairs().current(spec).isEmpty(), "no repair was recorded");
  }

  @Test
  void aDeploymentThatDidNotCreateItsViewIsCompletedOnlyWhileBIsStillAhead() {
    LiveDeployment first = engine.repairs().deployLive(spec);
    sql.execute("the view lost", "DROP VIEW " + world.database().quoted() + ".pnl_v2_mv");
    RepairStatus status = engine.repairs().status(spec);
    assertEquals(RepairStatus.Kind.DEPLOY_VIEW, status.next().kind());
    assertTrue(status.next().sentence().contains("which does not exist (its deployment was interrupted)"),
        status.next().sentence());
    LiveDeployment again = engine.repairs().deployLive(spec);
    assertEquals(first.boundary(), again.boundary());
    assertEquals(first.repairId(), again.repairId());
    assertTrue(viewExists("pnl_v2_mv"));

    sql.execute("the view lost again", "DROP VIEW " + world.database().quoted() + ".pnl_v2_mv");
    sql.execute("an event of B", "INSERT INTO " + world.trades().sql() + " SELECT ? , toDateTime(?, 'UTC'), book, "
        + "instrument, side, quantity, price, fee, currency FROM " + world.trades().sql() + " LIMIT 1", LATE_IDS,
        first.boundary().epochSecond());
    var refused = assertThrows(StepRefusedException.class, () -> engine.repairs().deployLive(spec));
    assertTrue(refused.getMessage().endsWith("Repair " + first.repairId().orElseThrow() + " pinned that B when its "
        + "deployment began; abandon it, then deploy again with a B of its own."), refused.getMessage());
    assertFalse(viewExists("pnl_v2_mv"));
  }

  /**
   * The B the operator confirmed moved before the deployment (an event arrived in it): the step says so, in the
   * words of a confirmation that no longer holds, and deploys nothing.
   */
  @Test
  void aDeploymentWhoseConfirmedBMovedIsRefusedAndNothingIsDeployed() {
    var steps = engine.backfills().of(spec);
    HourPartition confirmed = steps.liveDeployment().boundary();
    sql.execute("an event of B", "INSERT INTO " + world.trades().sql() + " SELECT ? , toDateTime(?, 'UTC'), book, "
        + "instrument, side, quantity, price, fee, currency FROM " + world.trades().sql() + " LIMIT 1", LATE_IDS,
        confirmed.epochSecond());
    HourPartition now = steps.liveDeployment().boundary();
    assertTrue(confirmed.isBefore(now), "the event moved B: " + confirmed + " -> " + now);
    var refused = assertThrows(StepRefusedException.class, () -> steps.deployLive(java.util.Optional.of(confirmed)));
    assertEquals("B is now " + now + ", not " + confirmed + " as confirmed: events arrived meanwhile. Nothing was "
        + "deployed; confirm the new B.", refused.getMessage());
    assertFalse(viewExists("pnl_v2_mv"));
    assertTrue(engine.repairs().current(spec).isEmpty(), "no repair was recorded");
  }

  /**
   * A few trades of the hour before the clock's, arriving now: at most an hour late, within the spec's
   * safety margin. Returns the hour they fell in.
   */
  private HourPartition lateTrades(Instant clock) {
    Instant at = clock.minus(Duration.ofMinutes(60)).plusSeconds(random.nextInt(50 * 60));
    long first = LATE_IDS + 10 * lateSeq++;
    sql.execute("insert late trades", "INSERT INTO " + world.trades().sql() + " SELECT ? + rowNumberInAllBlocks(), "
        + "toDateTime(?, 'UTC'), book, instrument, side, quantity, price, fee, currency FROM " + world.trades().sql()
        + " WHERE trade_id < ? ORDER BY trade_id LIMIT 3 OFFSET ?", first, at.getEpochSecond(), LATE_IDS,
        random.nextInt(500));
    return HourPartition.containing(at);
  }

  /** Keys whose folded v2 row differs from the corrected transform of all trades, or that one side lacks. */
  private long mismatches() {
    return CorrectedTransform.mismatches(sql, world);
  }

  private long count(String fromAndWhere, Object... params) {
    String from = fromAndWhere.startsWith("(") ? fromAndWhere : world.database().quoted() + "." + fromAndWhere;
    return sql.queryLong("count", "SELECT count() FROM " + from, params);
  }

  private boolean viewExists(String name) {
    return sql.queryLong("look for " + name, "SELECT count() FROM system.tables WHERE database = ? AND name = ?",
        world.database().name(), name) > 0;
  }
}
