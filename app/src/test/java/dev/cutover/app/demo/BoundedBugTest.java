package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Statements;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code demo seed --bug-days N}: the fee bug only in the last N days, repaired by a bounded repair of those. */
class BoundedBugTest {

  private static final Instant END = Instant.parse("2026-11-30T09:00:00Z");

  @Test
  void aBoundedRepairOfTheBugDaysReconcilesGreen() throws Exception {
    assertThrows(InvalidInputException.class, () -> new SeedOptions(23, 0.03, 3, END, 4));
    try (Database database = TestEngine.freshDatabase(BoundedBugTest.class)) {
      DemoWorld world = DemoWorld.in(database.profile().database());
      SeedResult seeded = new Seeder(Statements.over(database), world).seed(new SeedOptions(23, 0.03, 3, END, 1), SeedProgress.NONE);
      DemoState state = seeded.state();
      String text = String.join("\n", DemoText.seedResult(world, seeded));
      assertTrue(text.contains("The fee bug shipped at 2026-11-29 09:00 UTC: pnl_v1 is correct before it. "
          + "Repair only the affected hours with './cutover plan --spec demo --affected 2026-11-29T09:00/<boundary>'"),
          text);
      HourPartition bugFrom = HourPartition.of(END.minus(Hours.ONE.multipliedBy(24)));
      assertEquals(bugFrom.start(), state.bugFrom());
      assertTrue(state.incidentHour().orElseThrow().isBefore(bugFrom.start()), "the incident is before the bug");
      TableSpec spec = DemoSpec.load(world.database().name());
      Engine engine = new Engine(database);
      Plan full = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
      HourRange affected = new HourRange(bugFrom, full.boundary());
      Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(affected),
          engine.plans().defaults(spec));
      Procedure.backfill(engine, plan);

      Reconciliation verdict = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
      assertEquals(Reconciliation.Verdict.GREEN, verdict.verdict(), verdict.coverage().toString());
      assertFalse(verdict.counts().isEmpty(), "the bug's hours differ as the fee rule explains");
      assertTrue(verdict.counts().keySet().stream().allMatch(affected::contains), verdict.counts().keySet().toString());
      assertTrue(verdict.classes().stream().anyMatch(c -> c.hour().start().equals(state.incidentHour().get())
          && c.owner() == Reconciliation.Owner.CARRIED), "the incident hour is carried as v1 has it");
    }
  }
}
