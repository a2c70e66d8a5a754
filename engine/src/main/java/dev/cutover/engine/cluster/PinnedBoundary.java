package dev.cutover.engine.cluster;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.cluster.Shards.Shard;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The one boundary the shards' repairs pinned: one repair has one B on every shard. */
public final class PinnedBoundary {

  private PinnedBoundary() {}

  /**
   * The B the shards in {@code pinned} agree on, or empty when none pinned one; refused, naming each shard's
   * B, when they differ. {@code again} is the step to take again once the repair is abandoned ("plan it").
   */
  public static Optional<HourPartition> agreed(String step, Map<Shard, HourPartition> pinned, String again) {
    if (pinned.values().stream().distinct().count() > 1) {
      throw new StepRefusedException(step, "The shards' repairs pinned different boundaries (" + pinned.entrySet()
          .stream().map(e -> e.getKey().name() + ": B = " + e.getValue()).collect(Collectors.joining(", "))
          + "); one repair has one boundary on every shard. Abandon the repair on every shard and " + again + ".");
    }
    return pinned.values().stream().findFirst();
  }
}
