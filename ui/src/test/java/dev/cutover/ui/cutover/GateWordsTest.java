package dev.cutover.ui.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Gate.Condition;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the Cutover screen's headline says of a closed gate, and in which tone: a gate closed only by conditions the
 * procedure has not reached yet is neutral, never red; one with a violated condition is red and says how many.
 */
class GateWordsTest {

  private static Gate cutover(Condition... conditions) {
    return new Gate(Gate.CUTOVER, List.of(conditions), Gate.Version.V1, Optional.empty());
  }

  @Test
  void aGateNotReachedYetIsNeutralAndAViolatedOneIsRed() {
    Gate waiting = cutover(new Condition("consumers read v1", true, "visits reads visits_v1."),
        Condition.notYet("verdict", "No reconciliation of the whole repair exists; reconcile it."),
        new Condition("no backfill running", false, "Run r1 is running.", true));
    assertEquals("Cutover gate closed: 2 condition(s) not met yet", GateWords.headline(waiting, null, null, null));
    assertEquals("neutral", GateWords.tone(waiting, null));

    Gate red = cutover(new Condition("verdict", false, "The verdict is red: 3 unexpected key(s)."),
        Condition.notYet("data now", "Not judged: the verdict above allows no cutover."));
    assertEquals("Cutover gate closed: 1 condition(s) violated, 1 not met yet", GateWords.headline(red, null, null,
        null));
    assertEquals("bad", GateWords.tone(red, null));
  }

  @Test
  void aConditionMetIsNeverNotYet() {
    Condition met = new Condition("overlap", true, "24 hours.", true);
    assertEquals(Gate.Standing.MET, met.standing());
    assertEquals(false, met.pending());
  }
}
