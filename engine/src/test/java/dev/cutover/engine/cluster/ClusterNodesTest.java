package dev.cutover.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Session;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.LocalCluster;
import dev.cutover.engine.sql.Sql;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session on the embedded local cluster sees its nodes as the entry's system.clusters lists them, and
 * reaches each at its own HTTP address as the same operator: every node answers as the shard it is.
 */
class ClusterNodesTest {

  @TempDir Path dir;

  @Test
  void everyShardOfTheLocalClusterIsReachedAtItsOwnAddress() {
    Session session = Session.cluster(dir.resolve("cluster"), 3, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    LocalCluster cluster = session.localCluster().orElseThrow();
    try {
      assertTrue(session.describe().endsWith("(embedded cluster cutover_local of 3 shards, data: " + cluster.root()
          + ")"), session.describe());
      Sql entry = new Sql(session.database().dataSource());
      List<ClusterNodes.Node> nodes = ClusterNodes.read(entry, LocalCluster.NAME, cluster::jdbcUrl);
      assertEquals(List.of(1, 2, 3), nodes.stream().map(ClusterNodes.Node::shard).toList());
      ConnectionProfile operator = session.database().profile();
      for (ClusterNodes.Node node : nodes) {
        try (Database db = Database.open(ConnectionProfile.of(node.jdbcUrl(), operator.user(), operator.password(),
            Session.EMBEDDED_DATABASE))) {
          assertEquals(node.shard(), new Sql(db.dataSource()).queryLong("the shard", "SELECT toUInt32(getMacro('shard'))"),
              node.toString());
        }
      }
      var unknown = assertThrows(InvalidInputException.class, () -> ClusterNodes.read(entry, "nope", cluster::jdbcUrl));
      assertTrue(unknown.getMessage().startsWith("The server knows no cluster 'nope' (system.clusters lists "),
          unknown.getMessage());
      assertTrue(unknown.getMessage().contains(LocalCluster.NAME), unknown.getMessage());
    } finally {
      session.close();
      cluster.nodes().forEach(n -> n.stop("the test is done"));
    }
  }

  /** A shard of two replicas is refused by name: Cutover cannot check here that a REPLACE reached every replica. */
  @Test
  void aClusterWithReplicasIsRefusedNamingTheShardAndItsReplicas() throws Exception {
    Path root = dir.resolve("replicas");
    LocalCluster cluster = LocalCluster.startOrJoin(root, 2, EngineLibrary.fromEnvironment(), java.time.Duration.ZERO,
        EngineProgress.NONE);
    cluster.nodes().getFirst().stop("a cluster with replicas is configured");
    java.nio.file.Files.writeString(LocalCluster.node(root, 1).resolve("access/config.d/replicas.xml"), """
        <clickhouse>
          <remote_servers>
            <with_replicas>
              <shard>
                <replica><host>127.0.0.1</host><port>29001</port></replica>
                <replica><host>127.0.0.1</host><port>29002</port></replica>
              </shard>
            </with_replicas>
          </remote_servers>
        </clickhouse>
        """);
    LocalCluster again = LocalCluster.startOrJoin(root, 2, EngineLibrary.fromEnvironment(), java.time.Duration.ZERO,
        EngineProgress.NONE);
    Database.createAtomicDatabase(again.entry().jdbcUrl() + "/default", again.entry().profile("default"), "cutover");
    try (Database db = Database.open(again.entry().profile("cutover"))) {
      Sql entry = new Sql(db.dataSource());
      var refused = assertThrows(dev.cutover.engine.api.StepRefusedException.class, () -> ClusterNodes.read(entry,
          "with_replicas", again::jdbcUrl));
      assertEquals("Cluster with_replicas has several replicas on shard 1 (127.0.0.1:29001, 127.0.0.1:29002). Cutover "
          + "repairs a cluster of one replica per shard: it cannot yet check that a REPLACE PARTITION reached every "
          + "replica, nor that the replicas agree, so it does not repair this cluster (docs/CLUSTER.md).",
          refused.getMessage());
      assertEquals(2, ClusterNodes.read(entry, LocalCluster.NAME, again::jdbcUrl).size(), "one replica a shard: read");
    } finally {
      again.nodes().forEach(n -> n.stop("the test is done"));
    }
  }

  @Test
  void aServersNodesAreReachedOnTheEntrysSchemeAndPort() {
    assertEquals(Optional.of("jdbc:clickhouse:https://ch-2.internal:8443?sslrootcert=/etc/ca.pem"),
        ClusterNodes.Addresses.likeEntry("jdbc:clickhouse:https://ch-1.internal:8443?sslrootcert=/etc/ca.pem")
            .jdbcUrl("ch-2.internal", 9440));
    assertEquals(Optional.of("jdbc:clickhouse:http://10.0.0.7:8123"),
        ClusterNodes.Addresses.likeEntry("jdbc:clickhouse://10.0.0.5:8123").jdbcUrl("10.0.0.7", 9000));
  }
}
