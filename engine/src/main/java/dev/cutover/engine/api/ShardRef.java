package dev.cutover.engine.api;

/**
 * One shard of a cluster as a sharded repair names it: its number in the cluster (from 1) and its node,
 * {@code shard 2 (host:port)}, for sentences and documents.
 */
public record ShardRef(int shard, String node) {
  @Override
  public String toString() {
    return node;
  }
}
