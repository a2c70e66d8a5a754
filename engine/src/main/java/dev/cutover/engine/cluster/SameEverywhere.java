package dev.cutover.engine.cluster;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards.Shard;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shards must be alike where the repair treats them alike: the same server version, and the same columns
 * (names and types, in order) of v1, of every source and of the consumer view on every node. A shard whose v1
 * has another column would be backfilled into another v2, and a node whose view selects other columns would
 * give its consumers another table after the cutover.
 */
final class SameEverywhere {

  private final Shards shards;
  private final TableSpec spec;

  SameEverywhere(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  Check check() {
    List<Identifier> tables = new ArrayList<>(List.of(spec.liveTable(), spec.consumerView()));
    spec.sources().forEach(s -> tables.add(s.table()));
    Map<Shard, Map<String, String>> seen = shards.each("compare the shards' tables", s -> {
      Map<String, String> facts = new LinkedHashMap<>();
      facts.put("server version", s.database().sql().query("read the version", "SELECT version()",
          rs -> rs.getString(1)).getFirst());
      for (Identifier table : tables) {
        facts.put(table.name(), String.join(", ", s.database().sql().query("read the columns of " + table,
            "SELECT concat(name, ' ', type) FROM system.columns WHERE database = ? AND table = ? ORDER BY position",
            rs -> rs.getString(1), spec.database().name(), table.name())));
      }
      return facts;
    });
    Shard first = shards.all().getFirst();
    List<String> differ = new ArrayList<>();
    for (String fact : seen.get(first).keySet()) {
      if (seen.values().stream().map(f -> f.get(fact)).distinct().count() > 1) {
        differ.add(fact + " (" + seen.entrySet().stream().map(e -> e.getKey().name() + ": "
            + (e.getValue().get(fact).isEmpty() ? "missing" : e.getValue().get(fact))).collect(Collectors.joining("; "))
            + ")");
      }
    }
    if (!differ.isEmpty()) {
      return new Check("same on every shard", Status.FAIL, "The shards differ in " + String.join("; ", differ) + ".",
          "Make the tables and the consumer view the same on every shard (and the servers one version), then run the "
              + "preflight again.");
    }
    return new Check("same on every shard", Status.PASS, "Every shard runs " + seen.get(first).get("server version")
        + " and has the same columns of " + tables.stream().map(Identifier::name).collect(Collectors.joining(", "))
        + ".", "");
  }
}
