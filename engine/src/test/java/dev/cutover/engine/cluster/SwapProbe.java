package dev.cutover.engine.cluster;

import dev.cutover.engine.ShardParts;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.LocalCluster;
import dev.cutover.engine.spec.SpecLoader;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A cutover of every node in a process of its own, to be killed in the middle:
 * {@code <cluster folder> <shards> <spec file> <shard after whose switch to hold>}. Joins the running local
 * cluster, starts the cutover, prints {@code switched N} as each node switches, and {@code holding} once the
 * named shard has, then waits for ever.
 */
public final class SwapProbe {

  public static void main(String[] args) throws Exception {
    LocalCluster cluster = LocalCluster.startOrJoin(Path.of(args[0]), Integer.parseInt(args[1]),
        EngineLibrary.fromEnvironment(), Duration.ZERO, EngineProgress.NONE);
    int holdAfter = Integer.parseInt(args[3]);
    try (Database entry = Database.open(cluster.entry().profile("cutover"));
        Shards shards = Shards.open(entry, LocalCluster.NAME, cluster::jdbcUrl)) {
      TargetRepair repair = ShardParts.open(shards, SpecLoader.load(Path.of(args[2])));
      System.out.println("ready");
      System.out.flush();
      ShardParts.of(repair).cutover("visits", (s, r) -> {
        System.out.println("switched " + s.shard());
        System.out.flush();
        if (s.shard() == holdAfter) {
          System.out.println("holding");
          System.out.flush();
          try {
            Thread.sleep(Long.MAX_VALUE);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
      System.out.println("done");
    }
  }
}
