package dev.cutover.engine.reconcile;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.Reconciliation.Verdict;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An acknowledgement means what the operator saw: it names an hour of the repair that both versions wrote,
 * or a key of it that parses as the key's type, with an unexpected difference there; it is bound to those
 * differences, and once they change it accepts nothing and the verdict turns red saying so. It can be taken
 * back with a reason.
 */
class AcknowledgementTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;
  private Plan plan;

  @BeforeEach
  void backfilledWithTheCorrectedLiveWriter() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(AcknowledgementTest.class), 3);
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

  private Reconciliation reconcile() {
    return engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
  }

  /** v1 appended the hour's rows again, as a retried insert does: every key of the hour counted twice in v1. */
  private void retriedAppend(HourPartition hour) {
    world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        hour.epochSecond());
  }

  /** {@code n} rows of sites nobody reviewed, written into {@code table}'s hour afterwards. */
  private void rogueRows(String table, HourPartition hour, int n) {
    world.sql.execute("rogue rows", "INSERT INTO " + table + " SELECT toDateTime(?, 'UTC'), concat('rogue-', toString(number)), "
        + "1000, 1, 1.5 FROM numbers(?)", hour.epochSecond(), n);
  }

  @Test
  void anHourNotWrittenByBothVersionsOrOutsideTheRepairIsRefusedAndNothingIsWritten() {
    HourPartition twoDaysAhead = world.liveEdge.plusHours(48);
    var ahead = assertThrows(InvalidInputException.class, () -> engine.reconciliations().acknowledge(spec, twoDaysAhead,
        List.of(), "looks fine"));
    assertEquals("hour", ahead.field());
    assertTrue(ahead.getMessage().startsWith("The hour " + twoDaysAhead + " is not written by both versions yet"),
        ahead.getMessage());
    var before = assertThrows(InvalidInputException.class, () -> engine.reconciliations().acknowledge(spec,
        HourPartition.parse("hour", "1970-01-01T00:00"), List.of(), "looks fine"));
    assertTrue(before.getMessage().startsWith("The hour 1970-01-01 00:00 is before the repair's first hour " + world.first),
        before.getMessage());
    var year = assertThrows(InvalidInputException.class, () -> HourPartition.parse("hour", "9999-12-31T23:00"));
    assertEquals("The hour 9999-12-31 23:00 is outside the hours a ClickHouse DateTime holds, 1970-01-01 00:00 to "
        + "2106-02-07 06:00 UTC; check the year.", year.getMessage());

    HourPartition clean = world.busyHour(6);
    var nothing = assertThrows(InvalidInputException.class, () -> engine.reconciliations().acknowledge(spec, clean,
        List.of(), "looks fine"));
    assertTrue(nothing.getMessage().contains("has no unexpected difference now"), nothing.getMessage());
    assertEquals(List.of(), engine.reconciliations().acknowledgements(spec), "nothing was written");
  }

  @Test
  void keyValuesAreCheckedAgainstTheKeyColumnsTypesAndWrittenAsTheComparisonPrintsThem() {
    StateStore state = new StateStore(world.sql, world.database);
    ReportStore reports = new ReportStore(world.sql, world.database);
    TableSpec byUsers = SpecLoader.parse(world.specYaml().replace("keys: [site]", "keys: [users]")
        .replace("measures: [clicks, users, duration_s]", "measures: [clicks, duration_s]"), "users.yaml");
    Acknowledging numeric = new Acknowledging(new RepairContext(world.sql, state, reports, byUsers));

    var injected = assertThrows(InvalidInputException.class, () -> numeric.keyValues(List.of("0' OR 1=1 --")));
    assertEquals("The key value '0' OR 1=1 --' for users is not a UInt64 (the type of visits_v1.users); give the key's "
        + "values as the reconciliation lists them.", injected.getMessage());
    assertThrows(InvalidInputException.class, () -> numeric.keyValues(List.of("-1")));
    assertThrows(InvalidInputException.class, () -> numeric.keyValues(List.of("")));
    assertEquals(List.of("7"), numeric.keyValues(List.of("007")));
    var count = assertThrows(InvalidInputException.class, () -> numeric.keyValues(List.of("7", "8")));
    assertTrue(count.getMessage().contains("given 2 value(s), but the spec's key has 1 columns"), count.getMessage());
  }

  /**
   * The hole an operator found: a whole hour accepted with its retried append covered fifty keys written into v1
   * afterwards, and a rogue row written into v2 later, and the cutover went through.
   */
  @Test
  void aWholeHourAcceptedAcceptsOnlyWhatWasThereAndTheVerdictSaysWhenItChanged() {
    HourPartition incident = world.busyHour(8);
    retriedAppend(incident);
    Reconciliation.Fingerprint accepted = engine.reconciliations().acknowledge(spec, incident, List.of(),
        "v1 appended this hour twice on a retry; v2 is right");
    assertEquals(5, accepted.keys(), accepted.describe());
    assertEquals(java.util.Map.of("DUPLICATE_IN_V1", 5L), accepted.kinds());
    Reconciliation held = reconcile();
    assertEquals(Verdict.ACKNOWLEDGED, held.verdict());
    assertEquals(1, held.held().size());

    rogueRows("visits_v1", incident, 50);
    Reconciliation red = reconcile();
    assertEquals(Verdict.RED, red.verdict());
    assertEquals(55, red.unexpectedKeys(), "the acknowledgement accepts nothing once its hour changed");
    Acknowledgement lapsed = red.lapsed().getFirst();
    assertEquals(incident, lapsed.hour());
    assertEquals("the acknowledged hour changed since it was acknowledged: then 5 unexpected key(s): 5 duplicate in v1; "
        + "sum of v2 - v1: " + accepted.deltas().entrySet().stream().map(e -> e.getKey() + " "
            + Reconciliation.Fingerprint.figure(e.getValue()))
            .reduce((a, b) -> a + ", " + b).orElseThrow() + "; now 55 unexpected key(s): 5 duplicate in v1, 50 only in v1; "
        + "sum of v2 - v1: ", lapsed.lapsed().orElseThrow().replaceFirst("(; now .*sum of v2 - v1: ).*", "$1"));
    Reconciliation read = engine.reconciliations().latest(spec).orElseThrow();
    assertEquals(List.of(lapsed.lapsed()), read.lapsed().stream().map(Acknowledgement::lapsed).toList(),
        "the stored verdict reads back with the lapsed acknowledgement");
    assertFalse(engine.cutovers().gate(spec).open());
  }

  @Test
  void aRogueRowWrittenIntoV2InAnAcknowledgedHourClosesTheGate() {
    HourPartition incident = world.busyHour(8);
    retriedAppend(incident);
    engine.reconciliations().acknowledge(spec, incident, List.of(), "v1 appended this hour twice on a retry; v2 is right");
    assertEquals(Verdict.ACKNOWLEDGED, reconcile().verdict());
    world.advance(4, Optional.of(plan.boundary()));
    Gate open = engine.cutovers().gate(spec);
    assertTrue(open.open(), open.unmet().toString());

    rogueRows("visits_v2", incident, 1);
    Gate closed = engine.cutovers().gate(spec);
    assertFalse(closed.open());
    String now = closed.conditions().stream().filter(c -> c.name().equals("data now")).findFirst().orElseThrow().detail();
    assertTrue(now.contains("1 acknowledgement(s) no longer hold, first of " + incident + " (whole hour): the "
        + "acknowledged hour changed since it was acknowledged"), now);
    assertTrue(now.contains("6 unexpected key(s) in 1 hour(s) from " + incident), now);
  }

  @Test
  void aKeyAcceptedOnceDoesNotAcceptTheSameKeyAppendedAgain() {
    HourPartition incident = world.busyHour(8);
    world.bumpClicks(incident, "north");
    Reconciliation.Fingerprint one = engine.reconciliations().acknowledge(spec, incident, List.of("north"),
        "north's clicks were corrected by hand in v1");
    assertEquals(1, one.keys());
    assertEquals(Verdict.ACKNOWLEDGED, reconcile().verdict());

    world.bumpClicks(incident, "north");
    Reconciliation red = reconcile();
    assertEquals(Verdict.RED, red.verdict());
    assertEquals(List.of("north"), red.lapsed().getFirst().key());
    assertTrue(red.lapsed().getFirst().lapsed().orElseThrow().startsWith("the acknowledged key changed since it was "
        + "acknowledged"), red.lapsed().getFirst().lapsed().orElseThrow());
  }

  @Test
  void differencesThatChangedBetweenTheLookAndTheAcknowledgementAreRefused() {
    HourPartition incident = world.busyHour(8);
    retriedAppend(incident);
    Reconciliation.Fingerprint seen = engine.reconciliations().differences(spec, incident, List.of());
    rogueRows("visits_v1", incident, 3);
    var changed = assertThrows(StepRefusedException.class, () -> engine.reconciliations().acknowledge(spec, incident,
        List.of(), "v1 appended this hour twice on a retry", Optional.of(seen)));
    assertTrue(changed.getMessage().startsWith("The differences of " + incident + " (whole hour) changed since you looked: "
        + "then 5 unexpected key(s)"), changed.getMessage());
    assertTrue(changed.getMessage().contains("now 8 unexpected key(s)"), changed.getMessage());
    assertEquals(List.of(), engine.reconciliations().acknowledgements(spec));
  }

  @Test
  void anAcknowledgementWithdrawnAcceptsNothingFromThenOnAndTheEarlierVerdictReadsBackAsItWas() {
    HourPartition incident = world.busyHour(8);
    retriedAppend(incident);
    engine.reconciliations().acknowledge(spec, incident, List.of(), "v1 appended this hour twice on a retry");
    Reconciliation before = reconcile();
    assertEquals(Verdict.ACKNOWLEDGED, before.verdict());

    var blank = assertThrows(InvalidInputException.class, () -> engine.reconciliations().withdraw(spec, incident,
        List.of(), " "));
    assertEquals("reason", blank.field());
    Acknowledgement taken = engine.reconciliations().withdraw(spec, incident, List.of(), "acknowledged without review");
    assertEquals("v1 appended this hour twice on a retry", taken.reason());
    assertEquals(List.of(), engine.reconciliations().acknowledgements(spec));
    assertEquals(Verdict.RED, reconcile().verdict());
    assertTrue(engine.repairs().audit(dev.cutover.engine.tables.TableNames.target(spec), 50).stream().anyMatch(e -> e.action().equals("withdraw acknowledgement")
        && e.detail().contains("acknowledged without review")), engine.repairs().audit(dev.cutover.engine.tables.TableNames.target(spec), 50).toString());
    var again = assertThrows(InvalidInputException.class, () -> engine.reconciliations().withdraw(spec, incident,
        List.of(), "twice"));
    assertTrue(again.getMessage().contains("has no acknowledgement of " + incident + " (whole hour) to withdraw"),
        again.getMessage());
    assertEquals(Verdict.ACKNOWLEDGED, engine.reconciliations().load(before.id()).orElseThrow().verdict());
    assertEquals(1, engine.reconciliations().load(before.id()).orElseThrow().held().size(),
        "the verdict made before the withdrawal counted it");

    engine.reconciliations().acknowledge(spec, incident, List.of(), "reviewed: v1 appended this hour twice");
    assertEquals(Verdict.ACKNOWLEDGED, reconcile().verdict(), "acknowledged again after review");
  }
}
