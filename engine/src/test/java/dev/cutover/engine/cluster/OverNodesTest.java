package dev.cutover.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Two nodes' gates, retentions and switches read as one, from values built here (no server): what the Cutover
 * screen shows of a sharded table and what its buttons are offered by.
 */
class OverNodesTest {

  private static final HourPartition B = HourPartition.parse("hour", "2026-06-01T12:00");
  private static final ShardRef ONE = new ShardRef(1, "shard 1 (n1:9000)");
  private static final ShardRef TWO = new ShardRef(2, "shard 2 (n2:9000)");

  private static Gate gate(Gate.Version reads, Gate.Condition... conditions) {
    return new Gate(Gate.CUTOVER, List.of(conditions), reads, Optional.of(new HourRange(B.plusHours(-24), B)));
  }

  private static <T> Map<ShardRef, T> both(T one, T two) {
    Map<ShardRef, T> each = new LinkedHashMap<>();
    each.put(ONE, one);
    each.put(TWO, two);
    return each;
  }

  private static final Map<ShardRef, Optional<HourPartition>> ONE_BOUNDARY = both(Optional.of(B), Optional.of(B));

  @Test
  void theGateIsOpenOnlyWhenEveryNodesIsAndNamesTheNodeWhereItIsNot() {
    Gate open = gate(Gate.Version.V1, new Gate.Condition("reconciled", true, "green at 12:00"));
    Gate closed = gate(Gate.Version.V1, new Gate.Condition("reconciled", false, "red: 3 unexpected keys"));

    Gate both = OverNodes.gate(both(open, open), ONE_BOUNDARY);
    assertTrue(both.open(), both.refusal());
    assertEquals(List.of(new Gate.Condition(OverNodes.ONE_B, true, "B = " + B + " on all 2 nodes"),
        new Gate.Condition("reconciled", true, "green at 12:00 (every node)")), both.conditions());
    assertEquals(Gate.Version.V1, both.current());

    Gate one = OverNodes.gate(both(open, closed), ONE_BOUNDARY);
    assertFalse(one.open());
    assertEquals(List.of(new Gate.Condition("reconciled", false, "on 1 of 2 nodes: " + TWO + ": red: 3 unexpected "
        + "keys")), one.unmet());
  }

  @Test
  void shardsWithDifferentBoundariesOrNodesOnDifferentVersionsCannotSwitchAsOne() {
    Gate open = gate(Gate.Version.V1, new Gate.Condition("reconciled", true, "green"));
    Gate g = OverNodes.gate(both(open, gate(Gate.Version.V2, new Gate.Condition("reconciled", true, "green"))),
        both(Optional.of(B), Optional.of(B.plusHours(1))));
    assertFalse(g.open());
    assertEquals(List.of(new Gate.Condition(OverNodes.ONE_B, false, ONE + ": B = " + B + "; " + TWO + ": B = "
        + B.plusHours(1))), g.unmet());
    assertEquals(Gate.Version.UNKNOWN, g.current(), "no one version is read while the nodes read two");
    // A condition one node's gate does not have at all is not met by the others having it.
    Gate partial = OverNodes.gate(both(open, gate(Gate.Version.V1)), ONE_BOUNDARY);
    assertEquals(List.of(new Gate.Condition("reconciled", false, "judged on 1 of 2 nodes only")), partial.unmet());
  }

  @Test
  void vOneIsKeptUntilTheLastNodesHorizonAndDroppedOnlyWhenEveryNodesIs() {
    Instant t = Instant.parse("2026-06-02T00:00:00Z");
    Retention early = retention(Optional.of(t), Optional.empty());
    Retention late = retention(Optional.of(t.plusSeconds(30)), Optional.empty());
    Retention kept = OverNodes.retention(both(early, late));
    assertEquals(Optional.of(t.plusSeconds(30)), kept.cutoverAt());
    assertEquals(Optional.of(t.plusSeconds(30).plus(Duration.ofHours(30))), kept.keepUntil());
    assertTrue(kept.droppedAt().isEmpty());
    assertTrue(OverNodes.retention(both(early, retention(Optional.empty(), Optional.empty()))).keepUntil().isEmpty(),
        "a node not cut over has no horizon, and neither has the whole");
    assertTrue(OverNodes.retention(both(retention(Optional.of(t), Optional.of(t.plusSeconds(5))), late)).droppedAt()
        .isEmpty(), "v1 is dropped only once every node's is");
  }

  private static Retention retention(Optional<Instant> cutoverAt, Optional<Instant> droppedAt) {
    return new Retention(cutoverAt, Duration.ofHours(24), "risk", Duration.ofHours(4), Duration.ofHours(2),
        cutoverAt.map(c -> c.plus(Duration.ofHours(30))), droppedAt);
  }

  @Test
  void aSwitchIsVerifiedOnlyWhenEveryNodesWasAndSpansFromTheFirstNodeToTheLast() {
    Instant t = Instant.parse("2026-06-02T00:00:00Z");
    SwapResult ok = swap(t, SwapResult.Check.VERIFIED, "verified: 24 hours");
    SwapResult later = swap(t.plusMillis(900), SwapResult.Check.VERIFIED, "verified: 24 hours");
    SwapResult whole = OverNodes.swap(both(ok, later));
    assertTrue(whole.verified());
    assertEquals(Duration.ofMillis(1_000), whole.took());
    assertEquals("2 nodes, one at a time:\n" + ONE + ": verified: 24 hours\n" + TWO + ": verified: 24 hours",
        whole.verification());
    assertEquals(SwapResult.Check.INCOMPLETE, OverNodes.swap(both(ok, swap(t, SwapResult.Check.INCOMPLETE, "not "
        + "compared"))).check());
    assertEquals(SwapResult.Check.DIFFERS, OverNodes.swap(both(swap(t, SwapResult.Check.DIFFERS, "other rows"),
        swap(t, SwapResult.Check.INCOMPLETE, "not compared"))).check(), "other rows are worse than rows not compared");
  }

  private static SwapResult swap(Instant at, SwapResult.Check check, String words) {
    return new SwapResult(Gate.CUTOVER, "EXCHANGE TABLES", Gate.Version.V1, Gate.Version.V2, at, Duration.ofMillis(100),
        new HourRange(B.plusHours(-24), B), check, words);
  }
}
