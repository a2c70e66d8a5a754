package dev.cutover.ui.history;

import dev.cutover.engine.api.ShardRef;
import java.util.Optional;

/** One line of the history screen and the shard whose server keeps it: none on one server. */
public record OnNode<T>(Optional<ShardRef> shard, T value) {

  /** A line of one server's history. */
  public static <T> OnNode<T> here(T value) {
    return new OnNode<>(Optional.empty(), value);
  }

  /** The shard in the table's words; empty on one server. */
  public String shardWords() {
    return shard.map(ShardRef::toString).orElse("");
  }
}
