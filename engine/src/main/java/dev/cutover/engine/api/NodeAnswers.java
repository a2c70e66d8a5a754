package dev.cutover.engine.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A step's answer over the nodes of one repair: {@code whole}, what the repair answers as one, and each node's own
 * answer. A single server is a node set of one whose answer is the whole, so {@code nodes} is empty there; on a
 * cluster it names every node the step reached, in the cluster's order.
 */
public record NodeAnswers<T>(T whole, Map<ShardRef, T> nodes) {

  public NodeAnswers {
    nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
  }

  /** The answer of one server: the whole, and no node apart from it. */
  public static <T> NodeAnswers<T> one(T whole) {
    return new NodeAnswers<>(whole, Map.of());
  }
}
