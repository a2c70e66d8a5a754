package dev.cutover.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.BoundaryPinnedException;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.GateClosedException;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PhaseRefusedException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.StepRefusedException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The exit code follows the kind of refusal: a script retries only what can succeed later. */
class ExitCodesTest {

  private static final HourPartition B = HourPartition.parse("boundary", "2026-11-29T10:00");

  @Test
  void aClosedGateAndARefusedPhaseExitSix() {
    assertEquals(6, ExitCodes.of(new GateClosedException("cutover", List.of(new Gate.Condition("verdict", false,
        "none yet")), "The cutover is refused: verdict (none yet).", "Reconcile first.", List.of())));
    assertEquals(6, ExitCodes.of(new PhaseRefusedException("abandon", Optional.of(RepairPhase.CUT_OVER),
        "consumers on v1", "Consumers read v2.", "Roll back first.")));
    assertEquals(6, ExitCodes.of(new StepRefusedException("reconcile", "No repair is under way.")));
  }

  @Test
  void aRepairHeldByAnotherProcessExitsEight() {
    var held = new HeldByAnotherProcessException("cutover", Repair.Operation.BACKFILL, Optional.of("run-1"),
        new Repair.Actor("alice", "host-a", 42), Instant.parse("2026-11-29T10:15:00Z"), "Held by run-1.", "Wait.");
    assertEquals(ExitCodes.HELD, ExitCodes.of(held));
    assertEquals(8, ExitCodes.HELD);
  }

  @Test
  void anotherBoundaryThanThePinnedOneStaysBadInput() {
    assertEquals(2, ExitCodes.of(new BoundaryPinnedException("plan", "r1", B, B.plusHours(2), "B is pinned.",
        "Keep it.")));
    assertEquals(2, ExitCodes.of(new InvalidInputException("from", "The range start is missing.")));
  }
}
