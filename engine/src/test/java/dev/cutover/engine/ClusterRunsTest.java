package dev.cutover.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LiveDeployment;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The corrected view's deployment on every shard, as the console's confirmation shows it. */
class ClusterRunsTest {

  @Test
  void theDeploymentOverShardsNamesTheNewestEventOfAnyShardNotTheFirstShards() {
    HourPartition b = HourPartition.parse("B", "2026-12-05T04:00");
    LiveDeployment first = deployment(Instant.parse("2026-12-05T02:10:00Z"), true);
    LiveDeployment busiest = deployment(Instant.parse("2026-12-05T02:55:00Z"), false);
    LiveDeployment third = deployment(Instant.parse("2026-12-05T02:40:00Z"), true);
    LiveDeployment one = ClusterRuns.asOne(List.of(first, busiest, third));
    assertEquals(Instant.parse("2026-12-05T02:55:00Z"), one.newestEvent(), "B must come after every shard's events");
    assertEquals(b, one.boundary());
    assertFalse(one.exists(), "the view exists once it does on every shard");
  }

  private static LiveDeployment deployment(Instant newestEvent, boolean exists) {
    return new LiveDeployment(java.util.List.of(Identifier.of("visits_v2_mv")), HourPartition.parse("B",
        "2026-12-05T04:00"), java.util.List.of("CREATE MATERIALIZED VIEW …"), newestEvent, exists, Optional.empty(), Optional.empty());
  }
}
