package dev.cutover.engine.testing;

import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.LocalCluster;
import dev.cutover.engine.spec.SpecLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link HourlyWorld} sharded by site over a local cluster of three embedded servers: each shard holds
 * the clicks of its sites in its local {@code clicks}, its own {@code visits_v1} written from them, and
 * the same {@code Distributed} tables over each ({@code clicks_all}, {@code visits_v1_all}, {@code
 * visits_v2_all}), sharded by {@code sipHash64(site)}, through which the consumer view {@code visits}
 * reads on every node.
 */
public final class ShardedWorld implements AutoCloseable {

  public static final String DATABASE = "world";
  public static final String SHARDING = "sipHash64(site)";

  public final Path root;
  public final List<HourlyWorld> shards = new ArrayList<>();
  private LocalCluster cluster;
  private final boolean ownsCluster;

  private ShardedWorld(Path root, LocalCluster cluster, boolean ownsCluster) {
    this.root = root;
    this.cluster = cluster;
    this.ownsCluster = ownsCluster;
  }

  /** Starts a cluster of {@code shards} nodes in {@code root} and lays the world out on it; {@link #close} stops it. */
  public static ShardedWorld create(Path root, int shards, int days) {
    return layOut(new ShardedWorld(root, start(root, shards), true), days);
  }

  /**
   * The world laid out afresh on the cluster in {@code root}, started or joined (a node killed by an earlier
   * test starts again): the world's and the repair's databases are dropped on every node first, so nothing of
   * an earlier test remains. {@link #close} leaves the nodes running for the next test; {@link #stop} stops them.
   */
  public static ShardedWorld fresh(Path root, int shards, int days) {
    ShardedWorld w = new ShardedWorld(root, start(root, shards), false);
    try {
      for (EmbeddedServer node : w.cluster.nodes()) {
        // A database may drop itself: the repair's, made if missing, is the connection's for both drops.
        Database.createAtomicDatabase(node.jdbcUrl() + "/default", node.profile("default"), "cutover");
        try (Database db = Database.open(node.profile("cutover"))) {
          for (String name : List.of(DATABASE, "cutover")) {
            db.sql().execute("drop what an earlier test left", "DROP DATABASE IF EXISTS " + name + " SYNC");
          }
        }
      }
    } catch (RuntimeException e) {
      w.close();
      throw e;
    }
    return layOut(w, days);
  }

  private static ShardedWorld layOut(ShardedWorld w, int days) {
    int shards = w.cluster.nodes().size();
    try {
      for (int i = 1; i <= shards; i++) {
        EmbeddedServer node = w.cluster.nodes().get(i - 1);
        Database.createAtomicDatabase(node.jdbcUrl() + "/default", node.profile("default"), "cutover");
        Database.createAtomicDatabase(node.jdbcUrl() + "/default", node.profile("default"), DATABASE);
        HourlyWorld part = HourlyWorld.create(Database.open(node.profile(DATABASE)), days, SHARDING + " % " + shards
            + " = " + (i - 1));
        part.sql.execute("clicks_all", "CREATE TABLE clicks_all AS clicks ENGINE = Distributed(" + LocalCluster.NAME
            + ", " + DATABASE + ", clicks, " + SHARDING + ")");
        part.sql.execute("visits_v1_all", "CREATE TABLE visits_v1_all AS visits_v1 ENGINE = Distributed("
            + LocalCluster.NAME + ", " + DATABASE + ", visits_v1, " + SHARDING + ")");
        part.sql.execute("visits_v2_all", "CREATE TABLE visits_v2_all AS visits_v1 ENGINE = Distributed("
            + LocalCluster.NAME + ", " + DATABASE + ", visits_v2, " + SHARDING + ")");
        part.sql.execute("the consumer view", "CREATE OR REPLACE VIEW visits AS SELECT * FROM visits_v1_all");
        w.shards.add(part);
      }
      return w;
    } catch (RuntimeException e) {
      w.close();
      throw e;
    }
  }

  private static LocalCluster start(Path root, int shards) {
    return LocalCluster.startOrJoin(root, shards, EngineLibrary.fromEnvironment(), Duration.ZERO, EngineProgress.NONE);
  }

  public LocalCluster cluster() {
    return cluster;
  }

  /** The entry node's connection to the working database, as the operator. */
  public Database entry() {
    return Database.open(cluster.entry().profile("cutover"));
  }

  /** Starts every node that is not running (after a kill), keeping the others. */
  public void restart() {
    cluster = start(root, shards.size());
  }

  public String specYaml() {
    return shards.getFirst().specYaml() + """
        cluster:
          name: %s
          live: visits_v1_all
          target: visits_v2_all
          sources:
            clicks: clicks_all
        """.formatted(LocalCluster.NAME);
  }

  public TableSpec spec() {
    return SpecLoader.parse(specYaml(), "visits.yaml");
  }

  /** The live job goes on for {@code hours} on every shard; the corrected writer writes v2 from {@code b}. */
  public void advance(int hours, Optional<HourPartition> b) {
    shards.forEach(s -> s.advance(hours, b));
  }

  /** Per shard: does v2 equal the corrected transform of that shard's own clicks, hour by hour, over [from, to)? */
  public List<String> shardsWhoseV2IsNotCorrected(HourPartition from, HourPartition to) {
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < shards.size(); i++) {
      Map<HourPartition, String> expected = shards.get(i).expected(from, to);
      Map<HourPartition, String> v2 = shards.get(i).checksums("visits_v2", from, to);
      if (expected.isEmpty() || !expected.equals(v2)) {
        wrong.add("shard " + (i + 1) + ": " + v2.size() + " hours in v2, " + expected.size() + " expected");
      }
    }
    return wrong;
  }

  @Override
  public void close() {
    shards.forEach(s -> s.db.close());
    if (ownsCluster) {
      stop();
    }
  }

  /** Stops every node of the cluster. */
  public void stop() {
    if (cluster != null) {
      cluster.nodes().forEach(n -> n.stop("the test is done"));
    }
  }
}
