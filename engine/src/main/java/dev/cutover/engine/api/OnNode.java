package dev.cutover.engine.api;

import java.util.Optional;

/**
 * One thing a repair keeps (a run, a stored reconciliation, an acknowledgement, an audit line) and the node whose
 * server keeps it: none on one server, the shard on a cluster, where every node keeps its own.
 */
public record OnNode<T>(Optional<ShardRef> shard, T value) {

  /** A thing kept on the one server of a repair on one server. */
  public static <T> OnNode<T> here(T value) {
    return new OnNode<>(Optional.empty(), value);
  }

  /** The node in the table's words; empty on one server. */
  public String shardWords() {
    return shard.map(ShardRef::toString).orElse("");
  }
}
