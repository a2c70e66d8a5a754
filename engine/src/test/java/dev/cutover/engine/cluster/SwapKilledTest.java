package dev.cutover.engine.cluster;

import dev.cutover.engine.ShardParts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.ShardParts.ClusterPlan;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.UnfinishedSwap;
import dev.cutover.engine.cluster.Shards.Shard;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.LocalCluster;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.ShardedWorld;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process that cuts every node over is killed (SIGKILL) after the first node switched, and, in a second
 * cutover, after the last: the next command on the repair finds the swap it left unfinished, finishes it, and
 * says so, leaving every node reading one version. A reader that polls every node's consumer view meanwhile
 * sees the nodes on two versions only between the first node's switch and the end of that recovery.
 */
class SwapKilledTest {

  @TempDir Path dir;

  /** One poll of every node: when, and what each node's consumers read. */
  private record Sample(long at, List<Gate.Version> reads) {
    boolean mixed() {
      return reads.stream().distinct().count() > 1;
    }
  }

  @Test
  void aSwapWhoseProcessDiesIsFinishedByTheNextCommandAndNoNodeStaysOnTheOtherVersion() throws Exception {
    try (ShardedWorld world = ShardedWorld.create(dir.resolve("cluster"), 3, 2);
        Database entry = world.entry();
        Shards shards = Shards.open(entry, LocalCluster.NAME, world.cluster()::jdbcUrl)) {
      TableSpec spec = world.spec();
      Path specFile = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
      TargetRepair repair = ShardParts.open(shards, spec);
      ClusterPlan plan = ShardParts.of(repair).plan(Optional.empty(), Optional.empty(), Optional.empty(), s -> s.withConcurrency(1));
      ShardParts.of(repair).backfill(Procedure.clear(repair, plan), s -> BackfillEvent.Listener.NONE).await();
      world.shards.forEach(w -> w.writeLiveV2(plan.boundary(), w.liveEdge.plusHours(1)));
      assertTrue(ShardParts.of(repair).reconcile(Scope.REPAIR, 10_000).green());

      List<Sample> samples = new CopyOnWriteArrayList<>();
      AtomicBoolean polling = new AtomicBoolean(true);
      Thread reader = Thread.ofPlatform().start(() -> {
        while (polling.get()) {
          samples.add(new Sample(System.nanoTime(), shards.all().stream().map(s -> reads(s, spec)).toList()));
        }
      });
      try {
        // Killed after the first node switched: the next command switches the other two.
        long killed = cutoverKilledAfter(1, specFile, world, shards, spec);
        UnfinishedSwap found = repair.finishUnfinishedSwap().orElseThrow(() -> new AssertionError("no unfinished swap"));
        String finished = found.sentence();
        assertTrue(found.settled(), "every node reads one version after it: " + finished);
        long recovered = System.nanoTime();
        assertTrue(finished.contains("had switched " + shards.shard(1).name() + " to v2 when its process ended; the "
            + "other nodes' gates were open, so " + shards.shard(2).name() + ", " + shards.shard(3).name()
            + " switched now: every node reads v2."), finished);
        shards.all().forEach(s -> assertEquals(Gate.Version.V2, reads(s, spec), s.name()));
        assertEquals(Optional.empty(), repair.finishUnfinishedSwap(), "nothing is left to finish");
        Thread.sleep(500); // the reader polls after the recovery too
        assertMixedOnlyBetween(samples, killed, recovered);

        ShardParts.of(repair).rollback("visits", java.util.Optional.empty(), ShardParts.SwapListener.NONE);
        shards.all().forEach(s -> assertEquals(Gate.Version.V1, reads(s, spec), s.name()));

        // Killed after the last node switched, before its process wrote that it was done.
        samples.clear();
        long started = cutoverKilledAfter(3, specFile, world, shards, spec);
        String ended = repair.finishUnfinishedSwap().map(UnfinishedSwap::sentence).orElseThrow(() -> new AssertionError(
            "no unfinished swap found"));
        long done = System.nanoTime();
        assertTrue(ended.endsWith("switched every node but its process ended before it recorded so; every node reads "
            + "v2: the swap is finished."), ended);
        shards.all().forEach(s -> assertEquals(Gate.Version.V2, reads(s, spec), s.name()));
        assertEquals(Optional.empty(), repair.finishUnfinishedSwap());
        Thread.sleep(500);
        assertMixedOnlyBetween(samples, started, done);
      } finally {
        polling.set(false);
        reader.join();
      }
    }
  }

  /**
   * Starts the probe's cutover and kills it once node {@code n} switched; returns when the probe was started,
   * before any node could switch.
   */
  private long cutoverKilledAfter(int n, Path specFile, ShardedWorld world, Shards shards, TableSpec spec)
      throws Exception {
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp",
        System.getProperty("java.class.path"), SwapProbe.class.getName(), world.cluster().root().toString(), "3",
        specFile.toString(), Integer.toString(n));
    long started = System.nanoTime();
    Process probe = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> said = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(probe.getInputStream()))) {
      for (String line; (line = out.readLine()) != null; ) {
        said.add(line);
        if (line.equals("holding")) {
          break;
        }
      }
    }
    assertTrue(said.contains("holding"), "the probe reached node " + n + ": " + said);
    probe.destroyForcibly(); // SIGKILL
    assertTrue(probe.waitFor(30, TimeUnit.SECONDS));
    List<Gate.Version> now = shards.all().stream().map(s -> reads(s, spec)).toList();
    assertEquals(n, now.stream().filter(v -> v == Gate.Version.V2).count(), "the probe had switched " + n + ": " + now);
    return started;
  }

  private static Gate.Version reads(Shard s, TableSpec spec) {
    try {
      return new ConsumerView(s.database().sql(), spec).reads();
    } catch (RuntimeException e) {
      return Gate.Version.UNKNOWN;
    }
  }

  private static void assertMixedOnlyBetween(List<Sample> samples, long from, long to) {
    List<Sample> outside = samples.stream().filter(Sample::mixed).filter(x -> x.at() < from || x.at() > to).toList();
    assertEquals(List.of(), outside, "the nodes read two versions only between the first switch and the recovery");
    assertTrue(samples.stream().anyMatch(x -> x.at() > to), "the reader went on polling after the recovery");
  }
}
