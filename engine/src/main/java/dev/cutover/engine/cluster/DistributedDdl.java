package dev.cutover.engine.cluster;

import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.sql.Sql;

/**
 * Whether the cluster can run distributed DDL ({@code ON CLUSTER}), told to the operator. A server runs
 * it only with a Keeper connection, which {@code system.zookeeper_connection} lists; the embedded engine
 * never has one. Cutover creates each shard's tables on that shard's own node either way: each node's
 * statement succeeds or fails by itself and is named when it fails, and no statement waits in Keeper's
 * queue for a node that is down. The check passes in both cases and says which holds.
 */
final class DistributedDdl {

  static final String NAME = "distributed DDL";

  private DistributedDdl() {}

  static Check check(Sql entry, String cluster) {
    boolean listed = entry.queryLong("look for system.zookeeper_connection", "SELECT count() FROM system.tables "
        + "WHERE database = 'system' AND name = 'zookeeper_connection'") > 0;
    long keepers = listed ? entry.queryLong("read the Keeper connections", "SELECT count() FROM "
        + "system.zookeeper_connection") : 0;
    String nodeByNode = " Cutover creates each shard's staging tables and v2 on that shard's own node, node by node: "
        + "each node's statement succeeds or fails by itself and is named when it fails.";
    if (keepers > 0) {
      return new Check(NAME, Status.PASS, "The entry node is connected to Keeper, so cluster " + cluster + " can run "
          + "ON CLUSTER statements; Cutover does not need them." + nodeByNode + " No statement waits in Keeper's queue "
          + "for a node that is down.", "");
    }
    if (!listed) {
      return new Check(NAME, Status.PASS, "The entry node's server has no system.zookeeper_connection, so whether "
          + "cluster " + cluster + " can run ON CLUSTER statements is not known here; Cutover does not need them."
          + nodeByNode, "");
    }
    return new Check(NAME, Status.PASS, "The entry node has no Keeper connection, so cluster " + cluster + " cannot "
        + "run ON CLUSTER statements." + nodeByNode, "");
  }
}
