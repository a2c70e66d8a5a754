package dev.cutover.engine.tables;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A table of a spec read as its engine means it. A {@code SummingMergeTree} (often the target of a
 * materialized view that appends a partial aggregate per insert block) folds the rows of one key into
 * one when it merges, at a time of its own choosing: until then an hour holds several rows of a key,
 * each a part of the whole, and reading it row by row would call them a key counted twice and give
 * another checksum to the same sums. Read as it means, such a table is grouped by the time column and
 * the spec's keys, its numeric columns summed and cast back to their own type (so that a key written
 * as one row reads exactly as it is), its other columns taken from any row, as a merge does. Every
 * other engine is read as it is.
 *
 * <p>The comparison, the coverage proof, the gate and the ledger all read v1 and v2 through this, so
 * that their checksums agree whatever parts the engine has merged.
 */
public final class Readable {

  private static final Pattern NUMERIC = Pattern.compile("(Nullable\\()?(U?Int\\d+|Float\\d+|Decimal.*)\\)?");

  private final Sql sql;
  private final TableSpec spec;
  private final Map<Identifier, String> from = new java.util.concurrent.ConcurrentHashMap<>();

  public Readable(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** What to write after {@code FROM} to read {@code table}: its name, or a subquery that folds it. */
  public String from(Identifier table) {
    return from.computeIfAbsent(table, this::read);
  }

  private String read(Identifier table) {
    String engine = sql.query("read the engine of " + table, "SELECT engine FROM system.tables WHERE database = ? "
        + "AND name = ?", rs -> rs.getString(1), spec.database().name(), table.name()).stream().findFirst().orElse("");
    if (!engine.endsWith("SummingMergeTree")) {
      return spec.qualified(table);
    }
    Map<String, String> types = new HashMap<>();
    sql.query("read the column types of " + table, "SELECT name, type FROM system.columns WHERE database = ? AND "
            + "table = ?", rs -> types.put(rs.getString(1), rs.getString(2)), spec.database().name(), table.name());
    List<Identifier> columns = new TargetTables(sql, spec).insertableColumns(table);
    List<Identifier> grouped = new ArrayList<>();
    grouped.add(spec.timeColumn());
    grouped.addAll(spec.keys());
    Set<Identifier> group = Set.copyOf(grouped);
    List<String> inner = new ArrayList<>(grouped.stream().map(Identifier::quoted).toList());
    List<String> outer = new ArrayList<>(grouped.stream().map(Identifier::quoted).toList());
    int i = 0;
    for (Identifier c : columns) {
      if (group.contains(c)) {
        continue;
      }
      String type = types.getOrDefault(c.name(), "");
      String folded = "_cutover_folded_" + i++;
      boolean summed = NUMERIC.matcher(type).matches();
      inner.add((summed ? "sum(" : "any(") + c.quoted() + ") AS " + folded);
      outer.add((summed ? "CAST(" + folded + " AS " + type + ")" : folded) + " AS " + c.quoted());
    }
    String keys = grouped.stream().map(Identifier::quoted).collect(Collectors.joining(", "));
    return "(SELECT " + String.join(", ", outer) + " FROM (SELECT " + String.join(", ", inner) + " FROM "
        + spec.qualified(table) + " GROUP BY " + keys + "))";
  }
}
