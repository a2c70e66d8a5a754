package dev.cutover.engine;

import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.ShardRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of a preflight: every check, and what it cleared for a backfill when none failed. On one server
 * that is the server's plan; on a cluster, {@code nodes} holds every shard's own outcome (its checks, the
 * cluster's among them, and its plan when it passed), and {@code report} is their checks read as one.
 *
 * @param cleared on one server, present exactly when {@code report.passed()}; empty on a cluster, whose plans
 *     are its nodes'
 * @param nodes every shard's outcome, in order; empty on one server
 */
public record Preflighted(PreflightReport report, Optional<ClearedPlan> cleared, Map<ShardRef, Preflighted> nodes) {

  public Preflighted {
    nodes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
  }

  /** One server's outcome. */
  public Preflighted(PreflightReport report, Optional<ClearedPlan> cleared) {
    this(report, cleared, Map.of());
  }

  /** Whether a backfill may start: on a cluster, only when every shard passed. */
  public boolean passed() {
    return nodes.isEmpty() ? cleared.isPresent() : nodes.values().stream().allMatch(Preflighted::passed);
  }

  /** Each failed check as one sentence, {@code name: finding}; on a cluster the finding names its shards. */
  public List<String> failures() {
    return report.failures().stream().map(c -> c.name() + ": " + c.finding()).toList();
  }

  /**
   * Every shard's outcome as one: a check passes only when it passes on every shard; its finding is said once when
   * every shard found the same, else each shard's is named; a dependent of v1 on any shard is listed once.
   */
  static Preflighted overNodes(Map<ShardRef, Preflighted> nodes) {
    Map<String, Map<ShardRef, PreflightReport.Check>> byName = new LinkedHashMap<>();
    Map<String, PreflightReport.Dependent> dependents = new LinkedHashMap<>();
    nodes.forEach((node, p) -> {
      p.report().checks().forEach(c -> byName.computeIfAbsent(c.name(), n -> new LinkedHashMap<>()).put(node, c));
      p.report().dependents().forEach(d -> dependents.putIfAbsent(d.name(), d));
    });
    List<PreflightReport.Check> checks = new ArrayList<>();
    byName.forEach((name, on) -> checks.add(check(name, on, nodes.size())));
    return new Preflighted(new PreflightReport(checks, List.copyOf(dependents.values())), Optional.empty(), nodes);
  }

  private static PreflightReport.Check check(String name, Map<ShardRef, PreflightReport.Check> on, int shards) {
    PreflightReport.Status worst = on.values().stream().map(PreflightReport.Check::status)
        .max(Enum::compareTo).orElseThrow();
    List<PreflightReport.Check> distinct = on.values().stream().distinct().toList();
    if (distinct.size() == 1 && on.size() == shards) {
      PreflightReport.Check one = distinct.getFirst();
      return new PreflightReport.Check(name, worst, one.finding() + (shards > 1 ? " (every shard)" : ""), one.fix());
    }
    // Only the shards that did not pass are named, unless every shard passed with its own finding.
    List<Map.Entry<ShardRef, PreflightReport.Check>> named = on.entrySet().stream()
        .filter(e -> worst == PreflightReport.Status.PASS || e.getValue().status() != PreflightReport.Status.PASS)
        .toList();
    String finding = (worst == PreflightReport.Status.PASS ? "" : "on " + named.size() + " of " + shards + " shards: ")
        + String.join("; ", named.stream().map(e -> e.getKey() + ": " + e.getValue().finding()).toList())
        + (on.size() < shards ? " (checked on " + on.size() + " of " + shards + " shards only)" : "");
    String fix = named.stream().map(e -> e.getValue().fix()).filter(f -> !f.isBlank()).distinct()
        .reduce((a, b) -> a + " " + b).orElse("");
    return new PreflightReport.Check(name, worst, finding, fix);
  }
}
