package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A verdict holds for the window it judged: once a later backfill of earlier hours moves the repair's
 * first hour, the verdict no longer covers the whole repair and the gate waits for a new one.
 */
class VerdictWindowTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(VerdictWindowTest.class), 3);
    spec = world.spec();
    engine = new Engine(world.db);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private static Gate.Condition condition(Gate gate, String name) {
    return gate.conditions().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  private Repair repair() {
    return engine.repairs().status(spec).repair().orElseThrow();
  }

  /**
   * Mutation guard: a gate that checked the verdict's boundary but not where its window starts took a
   * green verdict over the repair's later hours for one over the whole repair, and opened with the
   * earlier hours never reconciled.
   */
  @Test
  void aBackfillOfEarlierHoursAfterAGreenVerdictClosesTheGateUntilReconciledAgain() throws Exception {
    HourPartition later = world.first.plusHours(24);
    Plan first = engine.plans().plan(spec, Optional.of(later), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    assertEquals(RunState.SUCCEEDED, Procedure.backfill(engine, first).state());
    HourPartition boundary = first.boundary();
    world.writeLiveV2(boundary, world.liveEdge.plusHours(1));
    Reconciliation narrow = engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.GREEN, narrow.verdict());
    assertEquals(later, narrow.window().from(), "the whole repair as it stands, from its first hour");
    Gate before = engine.cutovers().gate(spec);
    assertTrue(condition(before, "verdict").met(), condition(before, "verdict").detail());
    assertEquals(List.of(Gate.OLDER_HOURS), before.unmet().stream().map(Gate.Condition::name).toList(),
        "only v1's older hours, which the repair does not hold yet, keep the gate closed");

    Plan earlier = engine.plans().plan(spec, Optional.of(world.first), Optional.of(later), Optional.empty(),
        engine.plans().defaults(spec));
    assertEquals(boundary, earlier.boundary(), "the repair's pinned boundary");
    assertEquals(RunState.SUCCEEDED, Procedure.backfill(engine, earlier).state());
    assertEquals(Optional.of(world.first), repair().firstHour(), "the repair now starts at the earlier hour");

    Gate moved = engine.cutovers().gate(spec);
    assertFalse(moved.open());
    assertEquals(List.of("verdict"), moved.unmet().stream().map(Gate.Condition::name).toList(),
        moved.unmet().toString());
    String detail = condition(moved, "verdict").detail();
    assertTrue(detail.contains(narrow.id()) && detail.endsWith("; it covered " + narrow.window() + " with B = "
        + boundary + ", and the repair now starts at " + world.first + ": reconcile again."), detail);

    Reconciliation whole = engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.GREEN, whole.verdict());
    assertEquals(world.first, whole.window().from());
    Gate open = engine.cutovers().gate(spec);
    assertTrue(open.open(), open.unmet().toString());
    assertTrue(condition(open, "verdict").detail().contains(whole.id()), condition(open, "verdict").detail());
  }
}
