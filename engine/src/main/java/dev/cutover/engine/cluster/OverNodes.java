package dev.cutover.engine.cluster;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The switch of consumers on every node of a cluster, read as one: the gate is open only when every node's
 * is and every shard's repair has the same B; consumers read a version only when every node reads it; v1 is
 * kept until the last node's horizon; and a switch is verified only when every node's was. Each condition
 * and each line names the nodes it is not true of, so that the operator sees where to look.
 */
public final class OverNodes {

  /** The cluster's own condition: every shard's repair has the same B, as one switch of every node needs. */
  public static final String ONE_B = "one B on every node";

  private OverNodes() {}

  /**
   * Every node's gate as one: a condition is met only when it is met on every node, and its detail names the
   * nodes where it is not (or says it once when every node found the same); {@link #ONE_B} comes first. The
   * version read is the nodes' one version, or {@link Gate.Version#UNKNOWN} while they read different ones.
   */
  public static Gate gate(Map<ShardRef, Gate> each, Map<ShardRef, Optional<HourPartition>> boundaries) {
    Gate first = each.values().iterator().next();
    List<Gate.Condition> conditions = new ArrayList<>();
    conditions.add(oneB(boundaries));
    Map<String, Map<ShardRef, Gate.Condition>> byName = new LinkedHashMap<>();
    each.forEach((node, g) -> g.conditions().forEach(c -> byName.computeIfAbsent(c.name(), n -> new LinkedHashMap<>())
        .put(node, c)));
    byName.forEach((name, on) -> conditions.add(condition(name, on, each.size())));
    List<Gate.Version> reads = each.values().stream().map(Gate::current).distinct().toList();
    return new Gate(first.step(), conditions, reads.size() == 1 ? reads.getFirst() : Gate.Version.UNKNOWN,
        first.judged());
  }

  private static Gate.Condition condition(String name, Map<ShardRef, Gate.Condition> on, int nodes) {
    List<Map.Entry<ShardRef, Gate.Condition>> unmet = on.entrySet().stream().filter(e -> !e.getValue().met()).toList();
    if (on.size() < nodes) {
      // A node whose gate does not have the condition at all cannot be said to meet it.
      return new Gate.Condition(name, false, "judged on " + on.size() + " of " + nodes + " nodes only");
    }
    if (unmet.isEmpty()) {
      List<String> details = on.values().stream().map(Gate.Condition::detail).distinct().toList();
      return new Gate.Condition(name, true, details.size() == 1 ? details.getFirst() + " (every node)"
          : on.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().detail()).collect(Collectors.joining("; ")));
    }
    // Not yet on the whole only while it is merely not yet wherever it is unmet.
    return new Gate.Condition(name, false, (unmet.size() == nodes ? "every node" : "on " + unmet.size() + " of " + nodes
        + " nodes") + ": " + unmet.stream().map(e -> e.getKey() + ": " + e.getValue().detail())
        .collect(Collectors.joining("; ")), unmet.stream().allMatch(e -> e.getValue().pending()));
  }

  private static Gate.Condition oneB(Map<ShardRef, Optional<HourPartition>> boundaries) {
    List<Optional<HourPartition>> distinct = boundaries.values().stream().distinct().toList();
    if (distinct.size() == 1 && distinct.getFirst().isPresent()) {
      return new Gate.Condition(ONE_B, true, "B = " + distinct.getFirst().get() + " on all " + boundaries.size()
          + " nodes");
    }
    return new Gate.Condition(ONE_B, false, boundaries.entrySet().stream().map(e -> e.getKey() + ": "
        + e.getValue().map(b -> "B = " + b).orElse("no B")).collect(Collectors.joining("; ")));
  }

  /**
   * Every node's retention of v1 as one: cut over when the last node was, kept until the last node's horizon,
   * and dropped only once every node's v1 is.
   */
  public static Retention retention(Map<ShardRef, Retention> each) {
    List<Retention> all = List.copyOf(each.values());
    Retention longest = all.stream().max(Comparator.comparing(Retention::total)).orElseThrow();
    return new Retention(latest(all.stream().map(Retention::cutoverAt).toList()), longest.longestCache(),
        longest.longestCacheConsumer(), longest.reconciliationWindow(), longest.margin(),
        latest(all.stream().map(Retention::keepUntil).toList()),
        all.stream().allMatch(r -> r.droppedAt().isPresent()) ? latest(all.stream().map(Retention::droppedAt).toList())
            : Optional.empty());
  }

  /** The latest of the instants, empty unless every node has one: a node not yet cut over has no horizon. */
  private static Optional<Instant> latest(List<Optional<Instant>> each) {
    if (each.isEmpty() || each.stream().anyMatch(Optional::isEmpty)) {
      return Optional.empty();
    }
    return each.stream().map(Optional::get).max(Comparator.naturalOrder());
  }

  /**
   * Every node's switch as one: from when the first switched to when the last did, verified only when every
   * node was, each node's check named in the verification.
   */
  public static SwapResult swap(Map<ShardRef, SwapResult> each) {
    SwapResult first = each.values().iterator().next();
    Instant end = each.values().stream().map(r -> r.at().plus(r.took())).max(Comparator.naturalOrder())
        .orElse(first.at());
    // A node whose view returned other rows is worse than one whose rows could not be compared.
    List<SwapResult.Check> checks = each.values().stream().map(SwapResult::check).toList();
    SwapResult.Check check = checks.contains(SwapResult.Check.DIFFERS) ? SwapResult.Check.DIFFERS
        : checks.contains(SwapResult.Check.INCOMPLETE) ? SwapResult.Check.INCOMPLETE : SwapResult.Check.VERIFIED;
    String verification = each.size() + " nodes, one at a time:" + each.entrySet().stream()
        .map(e -> "\n" + e.getKey() + ": " + e.getValue().verification()).collect(Collectors.joining());
    return new SwapResult(first.action(), first.statement(), first.before(), first.after(), first.at(),
        Duration.between(first.at(), end), first.verifiedWindow(), check, verification);
  }
}
