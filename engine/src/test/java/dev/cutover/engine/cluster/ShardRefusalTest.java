package dev.cutover.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.StepRefusedException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a step that failed on several shards reads: one sentence per reason, the shards it holds for named before it. */
class ShardRefusalTest {

  private static Shards.Shard shard(int n) {
    return new Shards.Shard(new ClusterNodes.Node(n, "node" + n, 9000 + n, "jdbc:clickhouse://node" + n + ":8123"), null,
        null);
  }

  @Test
  void oneReasonOnEveryShardIsSaidOnce() {
    Map<Shards.Shard, RuntimeException> failed = new LinkedHashMap<>();
    for (int n = 1; n <= 3; n++) {
      failed.put(shard(n), new InvalidInputException("from", "The range start is before the reprocessing window."));
    }
    StepRefusedException refused = Shards.refusal("plan", failed);
    assertEquals("The plan failed on 3 shard(s): shard 1 (node1:9001), shard 2 (node2:9002), shard 3 (node3:9003), each "
        + "for the same reason: The range start is before the reprocessing window.", refused.getMessage());
    assertEquals(List.of("shard 1 (node1:9001): The range start is before the reprocessing window.",
        "shard 2 (node2:9002): The range start is before the reprocessing window.",
        "shard 3 (node3:9003): The range start is before the reprocessing window."), refused.unmet(),
        "each shard keeps its own line");
  }

  @Test
  void differentReasonsAreSaidEachWithItsShards() {
    Map<Shards.Shard, RuntimeException> failed = new LinkedHashMap<>();
    failed.put(shard(1), new IllegalStateException("Disk full."));
    failed.put(shard(2), new IllegalStateException("Connection refused."));
    failed.put(shard(3), new IllegalStateException("Disk full."));
    assertEquals("The backfill failed on 3 shard(s): shard 1 (node1:9001), shard 3 (node3:9003): Disk full.; shard 2 "
        + "(node2:9002): Connection refused.", Shards.refusal("backfill", failed).getMessage());
    failed.remove(shard(2));
    failed.remove(shard(3));
    assertEquals("The backfill failed on 1 shard(s): shard 1 (node1:9001): Disk full.",
        Shards.refusal("backfill", failed).getMessage());
  }
}
