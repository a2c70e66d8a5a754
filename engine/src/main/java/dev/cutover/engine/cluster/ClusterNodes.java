package dev.cutover.engine.cluster;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.sql.Sql;
import java.util.List;
import java.util.Optional;

/**
 * The nodes of a named cluster as the entry node's {@code system.clusters} lists them: one per shard
 * (a cluster with several replicas on a shard is refused), each with the HTTP
 * address Cutover reaches it at. {@code system.clusters} gives each node's host and native port;
 * where its HTTP interface listens is the caller's to say ({@link Addresses}): for the embedded local
 * cluster, the node's own; for a server, the entry's scheme and port on the node's host.
 */
public final class ClusterNodes {

  private ClusterNodes() {}

  /** One shard's node: its number in the cluster, its host and native port, and its HTTP address. */
  public record Node(int shard, String host, int tcpPort, String jdbcUrl) {
    @Override
    public String toString() {
      return "shard " + shard + " (" + host + ":" + tcpPort + ")";
    }
  }

  /** Where a node's HTTP interface listens, from its host and native port; empty when unknown. */
  @FunctionalInterface
  public interface Addresses {
    Optional<String> jdbcUrl(String host, int tcpPort);

    /** The entry's scheme and HTTP port on every node's host: the usual layout of a cluster. */
    static Addresses likeEntry(String entryJdbcUrl) {
      java.net.URI uri = java.net.URI.create(entryJdbcUrl.replaceFirst("^jdbc:clickhouse:", ""));
      String scheme = uri.getScheme() == null ? "http" : uri.getScheme();
      int port = uri.getPort();
      return (host, tcpPort) -> Optional.of("jdbc:clickhouse:" + scheme + "://" + host + (port < 0 ? "" : ":" + port)
          + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
    }
  }

  /**
   * The nodes of {@code cluster}, shard by shard.
   *
   * @throws InvalidInputException naming the clusters the entry knows, when it knows none of that name,
   *     or the node whose address cannot be told
   */
  public static List<Node> read(Sql entry, String cluster, Addresses addresses) {
    record Row(int shard, String host, int port) {}
    List<Row> rows = entry.query("read the nodes of cluster " + cluster, "SELECT shard_num, host_name, port FROM "
        + "system.clusters WHERE cluster = ? AND replica_num = 1 ORDER BY shard_num",
        rs -> new Row(rs.getInt(1), rs.getString(2), rs.getInt(3)), cluster);
    if (rows.isEmpty()) {
      List<String> known = entry.query("list the clusters", "SELECT DISTINCT cluster FROM system.clusters ORDER BY 1",
          rs -> rs.getString(1));
      throw new InvalidInputException("spec.cluster", "The server knows no cluster '" + cluster + "' (system.clusters "
          + (known.isEmpty() ? "is empty" : "lists " + String.join(", ", known)) + "); name one of those in the "
          + "spec's cluster field, or define it in the servers' remote_servers.");
    }
    // A shard of several replicas: a REPLACE PARTITION on one replica replicates only through Keeper, which Cutover
    // cannot check here (docs/CLUSTER.md); refused rather than repaired on one replica as if it were the shard.
    List<String> replicated = entry.query("read the replicas of cluster " + cluster, "SELECT shard_num, "
        + "arrayStringConcat(groupArray(concat(host_name, ':', toString(port))), ', ') FROM system.clusters WHERE "
        + "cluster = ? GROUP BY shard_num HAVING count() > 1 ORDER BY shard_num",
        rs -> "shard " + rs.getInt(1) + " (" + rs.getString(2) + ")", cluster);
    if (!replicated.isEmpty()) {
      throw new dev.cutover.engine.api.StepRefusedException("connect", "Cluster " + cluster + " has several replicas on "
          + String.join(" and ", replicated) + ". Cutover repairs a cluster of one replica per shard: it cannot yet "
          + "check that a REPLACE PARTITION reached every replica, nor that the replicas agree, so it does not repair "
          + "this cluster (docs/CLUSTER.md).", replicated, Optional.empty());
    }
    return rows.stream().map(r -> new Node(r.shard(), r.host(), r.port(), addresses.jdbcUrl(r.host(), r.port())
        .orElseThrow(() -> new InvalidInputException("spec.cluster", "Cluster '" + cluster + "' lists shard "
            + r.shard() + " at " + r.host() + ":" + r.port() + ", whose HTTP address Cutover cannot tell; connect "
            + "through a node of the cluster whose other nodes listen on the same HTTP port.")))).toList();
  }
}
