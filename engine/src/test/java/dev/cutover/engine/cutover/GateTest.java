package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.GateClosedException;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.BackfillRun;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The gates judge the data as it is now, over the whole repair, under the spec the verdict was made with. */
class GateTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;
  private Plan plan;

  @BeforeEach
  void backfilledWithTheCorrectedLiveWriter() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(GateTest.class), 3);
    spec = world.spec();
    engine = new Engine(world.db);
    plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
    Procedure.backfill(engine, plan);
    world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private Gate.Condition condition(Gate gate, String name) {
    return gate.conditions().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * Finding 2: a reconciliation of 37 recent hours was green and the gate took it as "the latest
   * reconciliation". Now only a verdict over the whole repair counts; narrower ones are stored and
   * shown but never open the gate, and a red whole-repair verdict stays red whatever a narrower one says.
   */
  @Test
  void aNarrowerReconciliationNeverOpensTheGate() {
    HourPartition incident = world.busyHour(4);
    world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        incident.epochSecond());
    Reconciliation overlap = engine.reconciliations().reconcile(spec, Scope.OVERLAP, 10_000);
    assertEquals(Reconciliation.Verdict.GREEN, overlap.verdict());
    assertEquals(new HourRange(plan.boundary(), world.liveEdge.plusHours(1)), overlap.window());
    Gate gate = engine.cutovers().gate(spec);
    assertFalse(gate.open());
    assertTrue(condition(gate, "verdict").detail().startsWith("No reconciliation of the whole repair "),
        condition(gate, "verdict").detail());
    // Not reconciled yet is the way there, not a finding: not yet, and no condition of this gate is violated.
    assertEquals(Gate.Standing.NOT_YET, condition(gate, "verdict").standing());
    assertEquals(List.of(), gate.violated(), gate.unmet().toString());

    Reconciliation whole = engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.RED, whole.verdict());
    assertEquals(world.first, whole.window().from(), "the whole repair, from its first backfilled hour");
    Reconciliation range = engine.reconciliations().reconcile(spec, Scope.RANGE, Optional.of(new HourRange(world.liveEdge.plusHours(-6),
        world.liveEdge.plusHours(1))), 10_000, dev.cutover.engine.api.Progress.NONE);
    assertEquals(Reconciliation.Verdict.GREEN, range.verdict());
    gate = engine.cutovers().gate(spec);
    assertFalse(gate.open());
    assertTrue(condition(gate, "verdict").detail().contains(whole.id()) && condition(gate, "verdict").detail()
        .contains("it is red"), condition(gate, "verdict").detail());
    assertEquals(Gate.Standing.VIOLATED, condition(gate, "verdict").standing(), "a red verdict found differences");
    assertEquals(Gate.Standing.NOT_YET, condition(gate, "data now").standing(), "judged once the verdict allows it");
    // The line under it does not say there is no verdict: it says why the data are not judged against that one.
    assertTrue(condition(gate, "data now").detail().startsWith("Not judged: the verdict above allows no cutover"),
        condition(gate, "data now").detail());
    assertThrows(StepRefusedException.class, () -> engine.cutovers().cutover(spec, "visits"));
  }

  /**
   * Finding 3: after an acknowledged reconciliation one hour of v2 was dropped, the gate trusted the
   * stored report and the cutover swapped consumers to a table with a missing hour. Now the gate
   * compares each hour's checksums with those the verdict saw.
   */
  @Test
  void anHourLostAfterTheVerdictClosesTheGate() {
    HourPartition incident = world.busyHour(4);
    world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        incident.epochSecond());
    engine.reconciliations().acknowledge(spec, incident, List.of(), "v1 appended this hour twice on a retry");
    assertEquals(Reconciliation.Verdict.ACKNOWLEDGED, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict());
    Gate open = engine.cutovers().gate(spec);
    assertTrue(open.open(), open.unmet().toString());
    assertTrue(condition(open, "data now").detail().contains(" 0 changed or new"), condition(open, "data now").detail());

    HourPartition lost = world.busyHour(20);
    world.sql.execute("lose an hour", "ALTER TABLE visits_v2 DROP PARTITION ID '" + lost.partitionId() + "'");
    Gate gate = engine.cutovers().gate(spec);
    assertFalse(gate.open());
    assertEquals(List.of("data now"), gate.unmet().stream().map(Gate.Condition::name).toList());
    String detail = condition(gate, "data now").detail();
    assertTrue(detail.contains("1 changed or new (from " + lost + ")"), detail);
    assertTrue(detail.contains("coverage issue(s), first " + lost + ": owner"), detail);
    var refused = assertThrows(GateClosedException.class, () -> engine.cutovers().cutover(spec, "visits"));
    assertTrue(refused.getMessage().startsWith("The cutover is refused: data now ("), refused.getMessage());
    assertEquals("cutover", refused.gate());
    assertEquals(List.of("data now"), refused.unmetConditions().stream().map(Gate.Condition::name).toList());
    assertTrue(refused.getMessage().endsWith(refused.whatToDo()), refused.getMessage());
    assertEquals(Gate.Version.V1, engine.cutovers().gate(spec).current(), "consumers still read v1");
  }

  /**
   * Mutation guard: an hour below B that the repair's ledger does not hold is a gap, even when v2
   * has its rows (a ledger row lost, or an hour some other writer filled): nothing proves who wrote it.
   */
  @Test
  void anHourBelowTheBoundaryMissingFromTheLedgerIsAGap() {
    HourPartition unrecorded = world.busyHour(7);
    world.sql.execute("lose a ledger row", "ALTER TABLE ledger DELETE WHERE hour = toDateTime(?, 'UTC') SETTINGS "
        + "mutations_sync = 1", unrecorded.epochSecond());
    Reconciliation r = engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.RED, r.verdict());
    assertEquals(List.of(unrecorded), r.coverage().stream().map(Reconciliation.CoverageIssue::hour).toList(),
        r.coverage().toString());
    assertEquals("gap", r.coverage().getFirst().kind());
    assertTrue(r.coverage().getFirst().detail().startsWith("no completed backfill hour in the repair's ledger"),
        r.coverage().getFirst().detail());
    assertEquals(Reconciliation.HourStatus.GAP, r.classes().stream().filter(c -> c.hour().equals(unrecorded))
        .findFirst().orElseThrow().status());
  }

  /** A value v1 changes after the verdict, without a rule to explain it, closes the gate; new live hours do not. */
  @Test
  void hoursChangedOrAddedAfterTheVerdictAreReconciledOnTheSpot() {
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict());
    world.advance(2, Optional.of(plan.boundary()));
    Gate later = engine.cutovers().gate(spec);
    assertTrue(later.open(), later.unmet().toString());
    assertTrue(condition(later, "data now").detail().contains(" 2 changed or new"), condition(later, "data now")
        .detail());
    assertEquals(new HourRange(world.first, world.liveEdge.plusHours(1)), later.judged().orElseThrow());

    HourPartition changed = world.busyHour(10);
    bump(changed, "north");
    Gate gate = engine.cutovers().gate(spec);
    assertFalse(gate.open());
    assertTrue(condition(gate, "data now").detail().contains("1 unexpected key(s) in 1 hour(s) from " + changed),
        condition(gate, "data now").detail());
  }

  /** Finding 7, the second part: a verdict made under another version of the spec does not count. */
  @Test
  void aVerdictCountsOnlyUnderTheSpecItWasMadeWith() {
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict());
    assertTrue(engine.cutovers().gate(spec).open());
    TableSpec edited = SpecLoader.parse(world.specYaml().replace("tolerance: 0.000001", "tolerance: 0.5"), "visits.yaml");
    Gate gate = engine.cutovers().gate(edited);
    assertFalse(gate.open());
    assertTrue(condition(gate, "verdict").detail().contains("it was made under another version of the spec"),
        condition(gate, "verdict").detail());
  }

  /** Mutation guard: the gate's "no backfill running" condition sees a run that holds the target. */
  @Test
  void aRunningBackfillKeepsTheGateClosed() throws Exception {
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict());
    assertTrue(engine.cutovers().gate(spec).open());
    Plan again = engine.plans().plan(spec, Optional.of(plan.boundary().plusHours(-12)), Optional.empty(), Optional.empty(),
        BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(1));
    RunHandle run = Procedure.start(engine, again);
    run.pause();
    try {
      Gate gate = engine.cutovers().gate(spec);
      assertFalse(condition(gate, "no backfill running").met(), condition(gate, "no backfill running").detail());
      assertEquals(Gate.Standing.NOT_YET, condition(gate, "no backfill running").standing(),
          "a backfill running is the normal way to the cutover, not two writers on one hour");
      assertTrue(condition(gate, "no backfill running").detail().startsWith("Run " + run.id() + " is "),
          condition(gate, "no backfill running").detail());
      var refused = assertThrows(HeldByAnotherProcessException.class, () -> engine.cutovers().cutover(spec, "visits"));
      assertTrue(refused.getMessage().contains("held by the backfill run " + run.id()), refused.getMessage());
      assertEquals(java.util.Optional.of(run.id()), refused.runId());
      assertEquals("cutover", refused.step());
    } finally {
      run.resume();
      run.await();
    }
  }

  /**
   * Mutation guard: the swap's verification compares the consumer view with the version it should
   * read, hour by hour. A consumer view that filters rows returns other rows than v2, and the result
   * says so instead of "verified".
   */
  @Test
  void theVerificationComparesTheViewWithTheVersionItShouldRead() {
    world.sql.execute("filtered view", "CREATE OR REPLACE VIEW visits AS SELECT * FROM visits_v1 WHERE site != 'web'");
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict());
    SwapResult cut = engine.cutovers().cutover(spec, "visits");
    assertEquals(Gate.Version.V2, cut.after());
    assertFalse(cut.verified());
    assertTrue(cut.verification().startsWith("NOT verified: visits does not return visits_v2's rows in "),
        cut.verification());
    assertEquals(RepairPhase.CUT_OVER, engine.repairs().current(spec).orElseThrow().phase(), "the swap happened, and says so");
  }

  /**
   * Finding 6, the handle: afterwards both views read v2 and every rollback failed. A rollback whose
   * handle does not read v1 is refused before the exchange, with the statement that mends it.
   */
  @Test
  void aRollbackHandleThatDoesNotReadV1IsRefusedWithTheStatementThatMendsIt() {
    engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    engine.cutovers().cutover(spec, "visits");
    Gate rollback = engine.cutovers().rollbackGate(spec);
    assertTrue(rollback.open(), rollback.unmet().toString());
    assertEquals(Gate.ROLLBACK, rollback.step());

    world.sql.execute("break the handle", "CREATE OR REPLACE VIEW visits__next AS SELECT * FROM visits_v2");
    Gate broken = engine.cutovers().rollbackGate(spec);
    assertEquals(List.of("rollback handle"), broken.unmet().stream().map(Gate.Condition::name).toList());
    String mend = "CREATE OR REPLACE VIEW `" + world.database + "`.`visits__next` AS SELECT * FROM " + world.database
        + ".visits_v1";
    assertTrue(condition(broken, "rollback handle").detail().contains(mend), condition(broken, "rollback handle").detail());
    var refused = assertThrows(GateClosedException.class, () -> engine.cutovers().rollback(spec, "visits"));
    assertTrue(refused.getMessage().startsWith("The rollback is refused: rollback handle ("), refused.getMessage());
    assertEquals("rollback", refused.gate());
    assertEquals(List.of("rollback handle"), refused.unmetConditions().stream().map(Gate.Condition::name).toList());
    assertEquals(Gate.Version.V2, engine.cutovers().gate(spec).current(), "consumers still read v2");

    world.sql.execute("mend", mend.replace("`", ""));
    assertTrue(engine.cutovers().rollback(spec, "visits").verified());
    assertEquals(RepairPhase.ROLLED_BACK, engine.repairs().current(spec).orElseThrow().phase());
  }

  /**
   * A swap made by hand, outside Cutover, is no cutover of the repair: consumers read v2, but the
   * rollback gate stays closed on the repair, and before any swap there is nothing to roll back.
   */
  @Test
  void aRollbackNeedsTheRepairsOwnCutoverNotJustConsumersOnV2() {
    engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    Gate before = engine.cutovers().rollbackGate(spec);
    assertEquals(List.of("repair", "consumers read v2", "rollback handle"), before.unmet().stream()
        .map(Gate.Condition::name).toList());
    assertEquals("visits reads visits_v1: there is no cutover to roll back.",
        condition(before, "consumers read v2").detail());

    world.sql.execute("a view over v2 by hand", "CREATE VIEW visits__next AS SELECT * FROM visits_v2");
    world.sql.execute("a swap by hand", "EXCHANGE TABLES visits AND visits__next");
    Gate byHand = engine.cutovers().rollbackGate(spec);
    assertEquals(Gate.Version.V2, byHand.current());
    assertEquals(List.of("repair"), byHand.unmet().stream().map(Gate.Condition::name).toList(),
        "consumers read v2 and the handle reads v1, but the repair never cut over");
    assertThrows(StepRefusedException.class, () -> engine.cutovers().rollback(spec, "visits"));
    world.sql.execute("undo it by hand", "EXCHANGE TABLES visits AND visits__next");
    world.sql.execute("and drop the view", "DROP VIEW visits__next");
  }

  /**
   * v1 holds hours older than the repair (written before the sources' window, or a range started
   * late): v2 does not hold them, and a green verdict over the repair says nothing of them. The gate
   * stays closed until they are carried or dropped, rather than letting consumers lose them.
   */
  @Test
  void hoursOfV1OlderThanTheRepairKeepTheGateClosed() {
    HourPartition older = world.first.plusHours(-48);
    world.sql.execute("v1 holds an older hour", "INSERT INTO visits_v1 SELECT hour - INTERVAL 48 HOUR AS older, site, "
        + "clicks, users, duration_s FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')", world.first.epochSecond());
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict(),
        "the verdict covers the repair alone, from its first hour");
    Gate gate = engine.cutovers().gate(spec);
    assertEquals(List.of(Gate.OLDER_HOURS), gate.unmet().stream().map(Gate.Condition::name).toList());
    assertEquals(List.of(Gate.OLDER_HOURS), gate.violated().stream().map(Gate.Condition::name).toList(),
        "hours consumers would lose are a finding to act on");
    assertEquals("visits_v1 holds hours from " + older + ", 48 hours before the repair's first hour " + world.first
        + ", and visits_v2 does not: consumers would no longer see them after the cutover. Carry them into the repair "
        + "(backfill --from " + older + "; with an affected window they are copied from v1 unchanged) and reconcile "
        + "again, or, if they are meant to go, drop them from visits_v1 first.", condition(gate, Gate.OLDER_HOURS).detail());
    var refused = assertThrows(GateClosedException.class, () -> engine.cutovers().cutover(spec, "visits"));
    assertEquals(List.of(Gate.OLDER_HOURS), refused.unmetConditions().stream().map(Gate.Condition::name).toList());
    assertEquals(Gate.Version.V1, engine.cutovers().gate(spec).current(), "consumers still read v1");
    var next = engine.repairs().status(spec).next();
    assertEquals(RepairStatus.Kind.BACKFILL, next.kind(), "status names the step that carries them, not the cutover");
    assertEquals(Optional.of(older), next.from(), "the backfill it names starts at v1's oldest hour");
    assertTrue(next.sentence().startsWith("visits_v1 holds hours from " + older + ", 48 hours before the repair's "
        + "first hour " + world.first + ", and visits_v2 does not"), next.sentence());

    world.sql.execute("drop them from v1", "ALTER TABLE visits_v1 DROP PARTITION ID '" + older.partitionId() + "'");
    Gate open = engine.cutovers().gate(spec);
    assertTrue(open.open(), open.unmet().toString());
    assertEquals("visits_v1 holds no hour before the repair's first hour " + world.first + ": consumers lose none at "
        + "the cutover.", condition(open, Gate.OLDER_HOURS).detail());
    assertEquals(RepairStatus.Kind.CUTOVER, engine.repairs().status(spec).next().kind());
  }

  /** Too short an overlap closes the gate with how many hours are still needed and what writes them. */
  @Test
  void aShortOverlapSaysHowManyHoursAreStillNeeded() {
    TableSpec longer = SpecLoader.parse(world.specYaml().replace("minimum_overlap_hours: 3",
        "minimum_overlap_hours: 10"), "visits.yaml");
    engine.reconciliations().reconcile(longer, Scope.REPAIR, 10_000);
    Gate gate = engine.cutovers().gate(longer);
    assertEquals(List.of("overlap"), gate.unmet().stream().map(Gate.Condition::name).toList());
    long live = java.time.Duration.between(plan.boundary().start(), world.liveEdge.plusHours(1).start()).toHours();
    assertEquals("v1 and v2 were both written live for " + live + " hour(s) since B = " + plan.boundary() + "; at "
        + "least 10 are required, so " + (10 - live) + " more hour(s) are needed: keep both live writers running (on "
        + "the demo world, ./cutover demo live writes them) and check again.", condition(gate, "overlap").detail());
  }

  /**
   * Hours past B are overlap only once the live writer is proven to own them from B: with B's own hour
   * missing from v2, the overlap does not say "N hours of the M required" beside that failure.
   */
  @Test
  void anOverlapIsNotCountedWhileTheLiveWriterFromBIsUnproven() {
    assertTrue(engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict().allowsCutover());
    world.sql.execute("the live writer skipped B", "ALTER TABLE visits_v2 DROP PARTITION ID '"
        + plan.boundary().partitionId() + "'");
    Gate gate = engine.cutovers().gate(spec);
    assertTrue(gate.unmet().stream().map(Gate.Condition::name).toList().containsAll(List.of("live writer from B",
        "overlap")), gate.unmet().toString());
    long reached = java.time.Duration.between(plan.boundary().start(), world.liveEdge.plusHours(1).start()).toHours();
    assertTrue(reached >= spec.minimumOverlap().toHours(), "the hours past B would be enough: " + reached);
    assertEquals("Not counted until the corrected live writer is proven to write v2 from B = " + plan.boundary()
        + " (\"live writer from B\"): v2 reaches " + reached + " hour(s) past B, at least 3 are required.",
        condition(gate, "overlap").detail());
  }

  /**
   * Hours changed after an acknowledged verdict are judged on the spot with the acknowledgements, each
   * bound to the differences it was made for: a whole hour accepted with one key does not accept a second
   * one, so the gate closes and says the acknowledgement no longer holds; keys accepted one by one cover
   * only themselves, so a new unexpected key in that hour closes the gate.
   */
  @Test
  void theGatesOnTheSpotCheckHoldsAcknowledgementsToWhatTheyAccepted() {
    HourPartition wholeHour = world.busyHour(10);
    HourPartition someKeys = world.busyHour(20);
    for (HourPartition h : List.of(wholeHour, someKeys)) {
      bump(h, "north");
    }
    assertEquals(2, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).unexpectedKeys());
    engine.reconciliations().acknowledge(spec, wholeHour, List.of(), "the upstream feed replayed this hour; finance accepts it");
    engine.reconciliations().acknowledge(spec, someKeys, List.of("north"), "north's clicks were corrected by hand in v1");
    assertEquals(Reconciliation.Verdict.ACKNOWLEDGED, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict());
    assertTrue(engine.cutovers().gate(spec).open(), engine.cutovers().gate(spec).unmet().toString());

    bump(wholeHour, "south");
    Gate lapsed = engine.cutovers().gate(spec);
    assertFalse(lapsed.open(), "the whole hour was accepted with one key, not two");
    assertTrue(condition(lapsed, "data now").detail().contains(" 1 changed or new"), "the hour did change: "
        + condition(lapsed, "data now").detail());
    assertTrue(condition(lapsed, "data now").detail().contains("1 acknowledgement(s) no longer hold, first of "
        + wholeHour + " (whole hour): the acknowledged hour changed since it was acknowledged: then 1 unexpected "
        + "key(s): 1 changed"), condition(lapsed, "data now").detail());
    engine.reconciliations().withdraw(spec, wholeHour, List.of(), "accepted before the south feed was replayed too");
    engine.reconciliations().acknowledge(spec, wholeHour, List.of(), "the upstream feed replayed both sites; finance "
        + "accepts it");
    assertEquals(Reconciliation.Verdict.ACKNOWLEDGED, engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000).verdict());
    assertTrue(engine.cutovers().gate(spec).open(), "accepted again, as it is now");

    bump(someKeys, "south");
    Gate closed = engine.cutovers().gate(spec);
    assertFalse(closed.open());
    assertTrue(condition(closed, "data now").detail().contains("1 unexpected key(s) in 1 hour(s) from " + someKeys),
        condition(closed, "data now").detail());
  }

  private void bump(HourPartition hour, String site) {
    world.bumpClicks(hour, site);
  }
}
