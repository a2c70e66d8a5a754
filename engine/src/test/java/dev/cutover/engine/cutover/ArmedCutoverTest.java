package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The armed cutover on a real world: armed behind the typed confirmation and a window, it waits while the gate is
 * closed and switches consumers the first time it opens, once; disarmed or past its window it switches nothing; and
 * every arm and disarm is a line of the audit trail.
 */
class ArmedCutoverTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;

  @BeforeEach
  void backfilled() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(ArmedCutoverTest.class), 3);
    spec = world.spec();
    engine = new Engine(world.db);
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    assertEquals(RunState.SUCCEEDED, dev.cutover.engine.testing.Procedure.backfill(engine, plan).state());
    world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void anArmedCutoverWaitsForTheGateAndSwitchesTheFirstTimeItOpens() {
    String view = spec.consumerView().name();
    assertThrows(InvalidInputException.class, () -> engine.cutovers().arm(spec, "pnl", Duration.ofHours(1)),
        "the typed confirmation first");
    var tooLong = assertThrows(InvalidInputException.class, () -> engine.cutovers().arm(spec, view,
        Duration.ofDays(8)));
    assertTrue(tooLong.getMessage().contains("between 1 minute and 7 days"), tooLong.getMessage());
    assertTrue(engine.cutovers().armed(spec).isEmpty(), "nothing was armed by a refused arm");

    Armed armed = engine.cutovers().arm(spec, view, Duration.ofHours(2));
    assertEquals(armed, engine.cutovers().armed(spec).orElseThrow(), "the arm is read back as written");
    var twice = assertThrows(StepRefusedException.class, () -> engine.cutovers().arm(spec, view, Duration.ofHours(1)));
    assertTrue(twice.getMessage().contains("already; disarm it first"), twice.getMessage());

    // No verdict yet: the gate is closed, the arm waits and nothing switches.
    Armed.Turn waiting = engine.cutovers().armedTurn(spec, Progress.NONE);
    assertEquals(Armed.Outcome.WAITING, waiting.outcome(), waiting.sentence());
    assertFalse(waiting.gate().orElseThrow().open());
    assertEquals(Gate.Version.V1, engine.cutovers().gate(spec).current());

    // The verdict opens the gate: the next turn switches, and the arm is gone.
    assertEquals(Reconciliation.Verdict.GREEN, engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR,
        10_000).verdict());
    Armed.Turn switched = engine.cutovers().armedTurn(spec, Progress.NONE);
    assertEquals(Armed.Outcome.SWITCHED, switched.outcome(), switched.sentence());
    assertTrue(switched.switched().orElseThrow().verified(), switched.switched().get().verification());
    assertEquals(Gate.Version.V2, engine.cutovers().rollbackGate(spec).current());
    assertTrue(engine.cutovers().armed(spec).isEmpty(), "an arm switches once");
    assertEquals(Armed.Outcome.NOT_ARMED, engine.cutovers().armedTurn(spec, Progress.NONE).outcome());
    var onV2 = assertThrows(StepRefusedException.class, () -> engine.cutovers().arm(spec, view, Duration.ofHours(1)));
    assertTrue(onV2.getMessage().contains("read v2 already"), onV2.getMessage());

    var audit = engine.repairs().audit(dev.cutover.engine.tables.TableNames.target(spec), 20).stream().map(a -> a.action() + ": " + a.detail()).toList();
    assertTrue(audit.stream().anyMatch(l -> l.startsWith("arm: armed the cutover of")), audit.toString());
    assertTrue(audit.stream().anyMatch(l -> l.startsWith("disarm: ") && l.contains("consumers switched to v2")),
        audit.toString());
  }

  @Test
  void aDisarmedCutoverSwitchesNothingEvenWhenTheGateOpens() {
    engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    assertTrue(engine.cutovers().gate(spec).open(), () -> engine.cutovers().gate(spec).refusal());
    engine.cutovers().arm(spec, spec.consumerView().name(), Duration.ofMinutes(30));
    Armed gone = engine.cutovers().disarm(spec, "the change window was moved to tomorrow").orElseThrow();
    assertTrue(gone.describe().startsWith("armed by "), gone.describe());
    assertEquals(Armed.Outcome.NOT_ARMED, engine.cutovers().armedTurn(spec, Progress.NONE).outcome());
    assertEquals(Gate.Version.V1, engine.cutovers().gate(spec).current(), "consumers still read v1");
    assertTrue(engine.cutovers().disarm(spec, "again").isEmpty(), "nothing left to disarm");
  }

  @Test
  void aCutoverByHandEndsTheArmSoThatARollbackIsNotUndoneByIt() {
    String view = spec.consumerView().name();
    engine.cutovers().arm(spec, view, Duration.ofHours(4));
    engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    assertTrue(engine.cutovers().cutover(spec, view).verified(), "the operator cut over by hand");
    assertTrue(engine.cutovers().armed(spec).isEmpty(), "the switch by hand ended the arm");
    engine.cutovers().rollback(spec, view, Optional.of("the fix is being checked"), Progress.NONE);
    Armed.Turn after = engine.cutovers().armedTurn(spec, Progress.NONE);
    assertEquals(Armed.Outcome.NOT_ARMED, after.outcome(), after.sentence());
    assertEquals(Gate.Version.V1, engine.cutovers().gate(spec).current(), "the rollback stands");
  }

  @Test
  void anArmIsTakenForTheSwitchByOneCallerOnly() {
    Armed armed = engine.cutovers().arm(spec, spec.consumerView().name(), Duration.ofHours(1));
    Arming arming = new Arming(dev.cutover.engine.ledger.RepairContext.of(world.db.sql(),
        new dev.cutover.engine.ledger.StateStore(world.db.sql(), world.db.server().database()), spec));
    assertTrue(arming.take(armed), "the first turn takes it");
    assertFalse(arming.take(armed), "a second turn, or a disarm that came first, finds nothing to take");
    assertTrue(engine.cutovers().armed(spec).isEmpty());
    arming.restore(armed);
    assertEquals(armed, engine.cutovers().armed(spec).orElseThrow(), "a refused switch puts the arm back as it was");
  }
}
