package dev.cutover.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.ShardRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Two shards' preflights read as one, from reports built here (no server): the checklist the Plan screen and
 * {@code ./cutover preflight} show of a sharded table, and whether its backfill may start.
 */
class PreflightedTest {

  private static final ShardRef ONE = new ShardRef(1, "shard 1 (n1:9000)");
  private static final ShardRef TWO = new ShardRef(2, "shard 2 (n2:9000)");

  private static Preflighted shard(List<Check> checks, List<Dependent> dependents) {
    // Each shard's outcome as the cluster's preflight builds it: cleared or not is its report's pass, tested alone.
    return new Preflighted(new PreflightReport(checks, dependents), Optional.empty());
  }

  private static Map<ShardRef, Preflighted> both(Preflighted one, Preflighted two) {
    Map<ShardRef, Preflighted> each = new LinkedHashMap<>();
    each.put(ONE, one);
    each.put(TWO, two);
    return each;
  }

  @Test
  void aCheckEveryShardFoundAlikeIsSaidOnceAndOneThatFailedOnOneShardNamesIt() {
    Check same = new Check("transform", Status.PASS, "The transform compiles.", "");
    Check dropped = new Check("own history", Status.FAIL, "its clicks starts at 03:00", "Restore the rows first.");
    Preflighted whole = Preflighted.overNodes(both(
        shard(List.of(same, new Check("own history", Status.PASS, "complete", "")), List.of()),
        shard(List.of(same, dropped), List.of())));

    assertEquals(List.of(new Check("transform", Status.PASS, "The transform compiles. (every shard)", ""),
        new Check("own history", Status.FAIL, "on 1 of 2 shards: shard 2 (n2:9000): its clicks starts at 03:00",
            "Restore the rows first.")), whole.report().checks());
    assertEquals(List.of("own history: on 1 of 2 shards: shard 2 (n2:9000): its clicks starts at 03:00"),
        whole.failures());
    assertEquals(2, whole.nodes().size(), "every shard's own outcome is kept for the backfill");
  }

  @Test
  void aWarningOutranksAPassAndPassesWithDifferentFindingsNameEachShard() {
    Preflighted whole = Preflighted.overNodes(both(
        shard(List.of(new Check("boundary", Status.PASS, "3 hours behind 17:00", ""),
            new Check("ttl", Status.PASS, "none", "")), List.of()),
        shard(List.of(new Check("boundary", Status.PASS, "3 hours behind 16:00", ""),
            new Check("ttl", Status.WARN, "rows expire in 30 days", "Finish within the TTL.")), List.of())));

    assertEquals(new Check("boundary", Status.PASS, "shard 1 (n1:9000): 3 hours behind 17:00; shard 2 (n2:9000): 3 "
        + "hours behind 16:00", ""), whole.report().checks().getFirst());
    assertEquals(new Check("ttl", Status.WARN, "on 1 of 2 shards: shard 2 (n2:9000): rows expire in 30 days",
        "Finish within the TTL."), whole.report().checks().get(1));
    assertTrue(whole.report().passed(), "a warning does not stop the backfill");
  }

  @Test
  void aCheckOneShardLacksIsSaidToBeCheckedOnTheOthersOnlyAndDependentsAreListedOnce() {
    Dependent alerts = new Dependent("world.alerts_mv", "visits_v1", Optional.empty());
    Preflighted whole = Preflighted.overNodes(both(
        shard(List.of(new Check("sharding", Status.PASS, "by site", "")), List.of(alerts)),
        shard(List.of(), List.of(alerts))));

    assertEquals(List.of(new Check("sharding", Status.PASS, "shard 1 (n1:9000): by site (checked on 1 of 2 shards "
        + "only)", "")), whole.report().checks());
    assertEquals(List.of(alerts), whole.report().dependents());
  }

  @Test
  void theBackfillMayStartOnlyWhenEveryShardCleared() {
    Preflighted none = Preflighted.overNodes(both(shard(List.of(), List.of()), shard(List.of(), List.of())));
    assertFalse(none.passed(), "no shard holds a cleared plan");
    assertTrue(none.cleared().isEmpty(), "a cluster's plans are its shards'");
    assertFalse(Preflighted.overNodes(Map.of()).passed(), "a preflight of no shard clears nothing");
  }
}
