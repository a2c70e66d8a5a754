package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.sql.Sql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three embedded servers form one cluster on this machine: each node sees the cluster, names its shard,
 * and a Distributed table on one node reads every shard's rows as the operator, whose identity the
 * cluster's secret forwards. Started again, the cluster keeps its layout; another number of shards is
 * refused in a sentence.
 */
class LocalClusterTest {

  @TempDir Path dir;

  @Test
  void threeShardsFormOneClusterThatADistributedTableReadsWhole() {
    Path root = dir.resolve("cluster");
    List<Database> databases = new ArrayList<>();
    LocalCluster cluster = LocalCluster.startOrJoin(root, 3, EngineLibrary.fromEnvironment(), Duration.ZERO,
        EngineProgress.NONE);
    try {
      assertEquals(3, cluster.nodes().size());
      for (int i = 1; i <= 3; i++) {
        EmbeddedServer node = cluster.nodes().get(i - 1);
        Database.createAtomicDatabase(node.jdbcUrl() + "/default", node.profile("default"), "cutover");
        Database db = Database.open(node.profile("cutover"));
        databases.add(db);
        Sql sql = new Sql(db.dataSource());
        assertEquals(3, sql.queryLong("the cluster", "SELECT count() FROM system.clusters WHERE cluster = ?",
            LocalCluster.NAME), "node " + i + " sees three shards");
        assertEquals(i, sql.queryLong("the shard macro", "SELECT toUInt32(getMacro('shard'))"));
        sql.execute("a database", "CREATE DATABASE IF NOT EXISTS t ENGINE = Atomic");
        sql.execute("a shard's table", "CREATE TABLE t.visits_local (hour DateTime('UTC'), site String, clicks UInt64) "
            + "ENGINE = MergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, site)");
        sql.execute("a shard's rows", "INSERT INTO t.visits_local SELECT toDateTime('2026-11-30 10:00:00', 'UTC'), "
            + "concat('site-', toString(?)), number FROM numbers(?)", i, 10 * i);
      }
      Sql entry = new Sql(databases.getFirst().dataSource());
      entry.execute("the whole", "CREATE TABLE t.visits AS t.visits_local ENGINE = Distributed(" + LocalCluster.NAME
          + ", t, visits_local, cityHash64(site))");
      assertEquals(60, entry.queryLong("every shard's rows", "SELECT count() FROM t.visits"));
      assertEquals(3, entry.queryLong("one site per shard", "SELECT uniqExact(site) FROM t.visits"));
      Path ports = root.resolve("cluster.properties");
      String layout = readQuietly(ports);
      assertTrue(layout.contains("tcp_port.3="), layout);

      var other = assertThrows(EmbeddedEngineException.class, () -> LocalCluster.startOrJoin(root, 2,
          EngineLibrary.fromEnvironment(), Duration.ZERO, EngineProgress.NONE));
      assertEquals("The local cluster in " + root + " was laid out with 3 shards, not 2; start it with 3 shards, or "
          + "choose another data directory for a cluster of 2.", other.getMessage());
    } finally {
      databases.forEach(Database::close);
      cluster.nodes().forEach(n -> n.stop("the test is done"));
    }

    // Started again: the same ports, the same rows.
    LocalCluster again = LocalCluster.startOrJoin(root, 3, EngineLibrary.fromEnvironment(), Duration.ZERO,
        EngineProgress.NONE);
    try (Database db = Database.open(again.entry().profile("cutover"))) {
      assertEquals(60, new Sql(db.dataSource()).queryLong("every shard's rows", "SELECT count() FROM t.visits"));
    } finally {
      again.nodes().forEach(n -> n.stop("the test is done"));
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
