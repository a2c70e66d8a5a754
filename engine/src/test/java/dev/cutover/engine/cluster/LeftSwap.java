package dev.cutover.engine.cluster;

import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.LocalCluster;
import dev.cutover.engine.testing.ShardedWorld;
import java.util.Optional;

/**
 * The record a cutover across nodes leaves when its process ends after writing its intent on every node and
 * before switching any (a kill, a laptop that sleeps): for a console or command to find and finish.
 */
public final class LeftSwap {

  private LeftSwap() {}

  public static void cutoverBeforeAnyNodeSwitched(ShardedWorld world, TableSpec spec) {
    try (Database entry = world.entry();
        Shards shards = Shards.open(entry, LocalCluster.NAME, world.cluster()::jdbcUrl)) {
      SwapIntent intent = new SwapIntent(shards, spec);
      intent.letGo(intent.begin(true, Optional.empty())); // the process no longer carries it out
    }
  }
}
