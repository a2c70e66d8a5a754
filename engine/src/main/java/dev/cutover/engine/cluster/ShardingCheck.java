package dev.cutover.engine.cluster;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a shard's hour is complete from that shard's own rows, as the {@code Distributed} tables of
 * the spec's cluster say on one node: each is a {@code Distributed} table of the spec's cluster over
 * the local table of the same role; every source is sharded by columns that are keys of the derived
 * table, so that all rows of one key land on one shard; and v1 and v2 are sharded by that same
 * expression, so that a key's derived rows sit on the shard that holds its sources. Otherwise a shard
 * would compute a partial aggregate of a key whose other rows lie elsewhere, and the per-shard
 * reconciliation would compare rows that are not the same key's.
 */
final class ShardingCheck {

  private static final Pattern IDENTIFIER = Pattern.compile("`([^`]+)`|\"([^\"]+)\"|([A-Za-z_][A-Za-z0-9_]*)(\\s*\\()?");

  /** One {@code Distributed} table: its arguments as the server stores them. */
  record Distributed(Identifier table, String cluster, String database, String local, Optional<String> shardingKey) {}

  private final Sql sql;
  private final TableSpec spec;
  private final TableSpec.Cluster cluster;

  ShardingCheck(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
    this.cluster = spec.cluster().orElseThrow();
  }

  Check check() {
    List<String> wrong = new ArrayList<>();
    Optional<Distributed> live = read(cluster.live(), spec.liveTable(), wrong);
    Optional<Distributed> target = read(cluster.target(), spec.targetTable(), wrong);
    List<String> sourceKeys = new ArrayList<>();
    for (TableSpec.Source source : spec.sources()) {
      if (cluster.copied().contains(source.name())) {
        continue; // every shard holds it whole: ClusterRepair compares the copies across shards
      }
      Identifier all = cluster.sources().get(source.name());
      Optional<Distributed> d = read(all, source.table(), wrong);
      if (d.isEmpty()) {
        continue;
      }
      if (d.get().shardingKey().isEmpty()) {
        wrong.add(all + " has no sharding key, so any shard may hold any of " + source.table() + "'s rows");
        continue;
      }
      String key = d.get().shardingKey().get();
      Set<String> columns = columns(key, columnsOf(source.table()));
      Set<String> keys = new LinkedHashSet<>(spec.keys().stream().map(Identifier::name).toList());
      if (columns.isEmpty()) {
        wrong.add(all + " shards " + source.table() + " by " + key + ", which names none of its columns: the rows of one "
            + "key are spread over every shard");
      } else if (!keys.containsAll(columns)) {
        columns.removeAll(keys);
        wrong.add(all + " shards " + source.table() + " by " + key + ", which uses " + String.join(", ", columns)
            + ", not a key of " + spec.targetTable() + " " + spec.keys() + ": the rows of one key lie on several shards, "
            + "and each shard would compute a part of its hour");
      }
      sourceKeys.add(normalize(key));
    }
    for (Optional<Distributed> version : List.of(live, target)) {
      version.ifPresent(d -> {
        Optional<String> key = d.shardingKey().map(ShardingCheck::normalize);
        if (!sourceKeys.isEmpty() && (key.isEmpty() || !sourceKeys.stream().allMatch(key.get()::equals))) {
          wrong.add(d.table() + " shards " + d.local() + " by " + d.shardingKey().orElse("nothing") + ", not as the sources "
              + "are sharded (" + String.join(", ", new LinkedHashSet<>(sourceKeys)) + "): a key's rows would be written "
              + "to another shard than the one that holds its sources");
        }
      });
    }
    if (!wrong.isEmpty()) {
      return new Check("sharding", Status.FAIL, String.join("; ", wrong) + ".", "Shard the sources, v1 and v2 of "
          + "cluster " + cluster.name() + " by the same expression of the keys " + spec.keys() + ", and name their "
          + "Distributed tables in the spec's cluster field (docs/CLUSTER.md).");
    }
    return new Check("sharding", Status.PASS, "The sources, " + spec.liveTable() + " and " + spec.targetTable() + " are "
        + "sharded on cluster " + cluster.name() + " by " + new LinkedHashSet<>(sourceKeys) + ", an expression of the "
        + "keys: each shard's hours are complete from its own sources.", "");
  }

  private Optional<Distributed> read(Identifier table, Identifier local, List<String> wrong) {
    var rows = sql.query("read the Distributed table " + table, "SELECT engine, engine_full FROM system.tables WHERE "
        + "database = ? AND name = ?", rs -> new String[] {rs.getString(1), rs.getString(2)}, spec.database().name(),
        table.name());
    if (rows.isEmpty()) {
      wrong.add(spec.database() + "." + table + " does not exist (it should be a Distributed table over " + local + ")");
      return Optional.empty();
    }
    if (!rows.getFirst()[0].equals("Distributed")) {
      wrong.add(table + " is a " + rows.getFirst()[0] + ", not a Distributed table over " + local);
      return Optional.empty();
    }
    List<String> args = arguments(rows.getFirst()[1]);
    if (args.size() < 3) {
      wrong.add(table + "'s engine " + rows.getFirst()[1] + " cannot be read");
      return Optional.empty();
    }
    Distributed d = new Distributed(table, unquote(args.get(0)), unquote(args.get(1)), unquote(args.get(2)),
        args.size() > 3 ? Optional.of(args.get(3).strip()) : Optional.empty());
    if (!d.cluster().equals(cluster.name())) {
      wrong.add(table + " reads cluster " + d.cluster() + ", not " + cluster.name());
    }
    if (!d.local().equals(local.name()) || !(d.database().equals(spec.database().name())
        || d.database().equals("currentDatabase()"))) {
      wrong.add(table + " reads " + d.database() + "." + d.local() + ", not " + spec.database() + "." + local);
    }
    return Optional.of(d);
  }

  private Set<String> columnsOf(Identifier table) {
    return new LinkedHashSet<>(sql.query("read the columns of " + table, "SELECT name FROM system.columns WHERE "
        + "database = ? AND table = ?", rs -> rs.getString(1), spec.database().name(), table.name()));
  }

  /** The columns of {@code known} that the expression names: function names and literals are not columns. */
  static Set<String> columns(String expression, Set<String> known) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = IDENTIFIER.matcher(expression.replaceAll("'(?:[^'\\\\]|\\\\.)*'", "''"));
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      if (m.group(4) == null && known.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  /** The top-level arguments of {@code Engine(a, b(c, d), 'e,f')}. */
  static List<String> arguments(String engineFull) {
    int open = engineFull.indexOf('(');
    List<String> args = new ArrayList<>();
    if (open < 0) {
      return args;
    }
    int depth = 0;
    boolean quoted = false;
    StringBuilder current = new StringBuilder();
    for (int i = open + 1; i < engineFull.length(); i++) {
      char c = engineFull.charAt(i);
      if (quoted) {
        current.append(c);
        if (c == '\\' && i + 1 < engineFull.length()) {
          current.append(engineFull.charAt(++i));
        } else if (c == '\'') {
          quoted = false;
        }
        continue;
      }
      if (c == '\'') {
        quoted = true;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (depth == 0) {
          args.add(current.toString().strip());
          return args;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        args.add(current.toString().strip());
        current.setLength(0);
        continue;
      }
      current.append(c);
    }
    return args;
  }

  private static String unquote(String arg) {
    String a = arg.strip();
    if (a.length() >= 2 && (a.startsWith("'") && a.endsWith("'") || a.startsWith("`") && a.endsWith("`"))) {
      return a.substring(1, a.length() - 1);
    }
    return a;
  }

  private static String normalize(String expression) {
    return expression.replaceAll("\\s+", "").replace("`", "");
  }
}
