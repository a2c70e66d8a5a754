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
 * another checksum to the same sums. An {@code AggregatingMergeTree} holds aggregate states, which
 * mean nothing until merged. Read as it means, such a table is grouped by the time column and the
 * spec's keys: states merged by their function's {@code -Merge} into final values, numeric columns of
 * a SummingMergeTree summed and cast back to their own type (so that a key written as one row reads
 * exactly as it is), other columns taken from any row, as a merge does. Every other engine is read as
 * it is.
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
    boolean summing = engine.endsWith("SummingMergeTree");
    if (!summing && !engine.endsWith("AggregatingMergeTree")) {
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
      String folded = "_cutover_folded_" + i++;
      Fold fold = fold(types.getOrDefault(c.name(), ""), summing);
      inner.add(fold.merge().formatted(c.quoted()) + " AS " + folded);
      outer.add(fold.cast().isEmpty() ? folded + " AS " + c.quoted()
          : "CAST(" + folded + " AS " + fold.cast() + ") AS " + c.quoted());
    }
    String keys = grouped.stream().map(Identifier::quoted).collect(Collectors.joining(", "));
    return "(SELECT " + String.join(", ", outer) + " FROM (SELECT " + String.join(", ", inner) + " FROM "
        + spec.qualified(table) + " GROUP BY " + keys + "))";
  }

  /** How a column's rows of one key become one value ({@code %s} is the column), and the type it is cast to. */
  record Fold(String merge, String cast) {}

  /**
   * A column's fold, from its type, as the engine merges it: an aggregate state by its function's
   * {@code -Merge} (read as its final value: {@code AggregateFunction(uniq, UInt64)} by {@code uniqMerge},
   * {@code AggregateFunction(quantiles(0.5, 0.9), Float64)} by {@code quantilesMerge(0.5, 0.9)}, a
   * versioned {@code AggregateFunction(1, uniq, UInt64)} the same); a
   * {@code SimpleAggregateFunction(f, T)} by {@code f}, in {@code T}; in a SummingMergeTree, a number by
   * {@code sum}, in its own type; anything else from any row.
   */
  static Fold fold(String type, boolean summing) {
    if (type.startsWith("AggregateFunction(") && type.endsWith(")")) {
      String arguments = type.substring("AggregateFunction(".length(), type.length() - 1);
      String function = firstArgument(arguments);
      if (function.strip().matches("\\d+")) {
        // A versioned state, AggregateFunction(1, sumMap, …): the version comes first, then the function.
        arguments = arguments.substring(arguments.indexOf(',') + 1).strip();
        function = firstArgument(arguments);
      }
      int params = function.indexOf('(');
      String merge = params < 0 ? function + "Merge(%s)"
          : function.substring(0, params) + "Merge" + function.substring(params) + "(%s)";
      return new Fold(merge, "");
    }
    if (type.startsWith("SimpleAggregateFunction(") && type.endsWith(")")) {
      String inside = type.substring("SimpleAggregateFunction(".length(), type.length() - 1);
      String function = firstArgument(inside);
      return new Fold(function + "(%s)", inside.substring(function.length() + 1).strip());
    }
    if (summing && NUMERIC.matcher(type).matches()) {
      return new Fold("sum(%s)", type);
    }
    return new Fold("any(%s)", "");
  }

  /** The text before the first comma outside parentheses. */
  private static String firstArgument(String arguments) {
    int depth = 0;
    for (int i = 0; i < arguments.length(); i++) {
      char ch = arguments.charAt(i);
      if (ch == '(') {
        depth++;
      } else if (ch == ')') {
        depth--;
      } else if (ch == ',' && depth == 0) {
        return arguments.substring(0, i).strip();
      }
    }
    return arguments.strip();
  }
}
