package dev.cutover.engine.spec;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.TableSpec.Source;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A spec's {@code cluster}: the table sharded over a cluster, its {@code Distributed} tables and the cluster's totals. */
final class ClusterSection {

  private ClusterSection() {}

  /**
   * {@code cluster: {name: c, live: v1_all, target: v2_all, sources: {trades: trades_all}}}: the cluster
   * by its name in {@code system.clusters}, and the {@code Distributed} table over v1, over v2 and over
   * every source; {@code copied} sources every shard holds whole; and {@code throttle}, the totals over
   * every shard at once. Whether the tables exist, and how they shard, is the preflight's to check on
   * every node.
   */
  static Optional<TableSpec.Cluster> read(Fields f, Identifier live, Identifier target,
      Identifier view, List<Source> sources) {
    if (!f.keys().contains("cluster")) {
      return Optional.empty();
    }
    Fields c = f.child("cluster");
    c.allowOnly(Set.of("name", "live", "target", "sources", "copied", "throttle", "description"));
    String name = c.text("name");
    if (!name.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")) {
      throw c.error("name", name, "a cluster's name as system.clusters lists it (letters, digits, _ . -)");
    }
    Identifier liveAll = c.identifier("live");
    Identifier targetAll = c.identifier("target");
    Set<Identifier> taken = new LinkedHashSet<>(List.of(live, target, view));
    sources.forEach(s -> taken.add(s.table()));
    if (taken.contains(liveAll)) {
      throw c.error("live", liveAll, "the Distributed table over " + live + ", a name other than the local tables' "
          + "and the consumer view's");
    }
    if (taken.contains(targetAll) || targetAll.equals(liveAll)) {
      throw c.error("target", targetAll, "the Distributed table over " + target + ", a name other than cluster.live, "
          + "the local tables' and the consumer view's");
    }
    Set<String> names = new LinkedHashSet<>();
    sources.forEach(src -> names.add(src.name()));
    List<String> copied = new ArrayList<>();
    if (c.keys().contains("copied")) {
      for (Identifier n : c.identifiers("copied")) {
        if (!names.contains(n.name()) || copied.contains(n.name())) {
          throw c.error("copied", n, "names of sources, each once, from " + names);
        }
        copied.add(n.name());
      }
    }
    Fields s = c.child("sources");
    s.allowOnly(names);
    Map<String, Identifier> distributed = new LinkedHashMap<>();
    for (Source src : sources) {
      if (copied.contains(src.name())) {
        if (s.keys().contains(src.name())) {
          throw s.error(src.name(), s.text(src.name()), "no Distributed table: cluster.copied says every shard holds "
              + src.name() + " whole");
        }
        continue;
      }
      if (!s.keys().contains(src.name())) {
        throw s.error(src.name(), "nothing", "the Distributed table over the source " + src.table() + " (its sharding "
            + "key tells whether each shard's hours are complete from its own rows), or the source's name in "
            + "cluster.copied when every shard holds it whole");
      }
      distributed.put(src.name(), s.identifier(src.name()));
    }
    Fields t = c.optionalChild("throttle");
    t.allowOnly(Set.of("concurrency", "rows_per_second"));
    TableSpec.Total total = new TableSpec.Total(t.integer("concurrency", 0, 0, 32 * 64),
        t.longInteger("rows_per_second", 0, 0, Long.MAX_VALUE));
    return Optional.of(new TableSpec.Cluster(name, liveAll, targetAll, distributed, copied, total));
  }
}
