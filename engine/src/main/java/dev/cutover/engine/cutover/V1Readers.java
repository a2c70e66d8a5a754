package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import dev.cutover.engine.sql.Sql;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables that still use v1 once consumers read v2, and that a drop of v1 would break: materialized
 * views that ClickHouse lists as its dependents (they read what is inserted into it), and views or
 * materialized views whose definition names it (they read it, or write into it with {@code TO}). The
 * rollback handle and the views that write v1, which the drop removes with v1, are not among them.
 */
final class V1Readers {

  private final Sql sql;
  private final TableSpec spec;
  private final Identifier handle;

  V1Readers(Sql sql, TableSpec spec, Identifier handle) {
    this.sql = sql;
    this.spec = spec;
    this.handle = handle;
  }

  List<V1Reader> find() {
    Map<String, V1Reader> found = new LinkedHashMap<>();
    String db = spec.database().name();
    String v1 = spec.liveTable().name();
    sql.query("list the dependents of " + spec.liveTable(), "SELECT d || '.' || t, ifNull((SELECT any(engine) FROM "
            + "system.tables WHERE database = d AND name = t), '') FROM system.tables ARRAY JOIN dependencies_database "
            + "AS d, dependencies_table AS t WHERE database = ? AND name = ?",
        rs -> found.putIfAbsent(rs.getString(1), new V1Reader(rs.getString(1), kind(rs.getString(2)))), db, v1);
    // A view in v1's database may name it bare; one elsewhere must name its database.
    String name = "`?" + re2(v1) + "`?";
    String qualified = "`?" + re2(db) + "`?\\s*\\.\\s*" + name;
    String edge = "(^|[^A-Za-z0-9_.`])";
    String end = "($|[^A-Za-z0-9_`])";
    sql.query("list the views that name " + spec.liveTable(), "SELECT database || '.' || name, engine FROM system.tables "
            + "WHERE engine IN ('View', 'MaterializedView', 'LiveView', 'WindowView') AND NOT (database = ? AND name IN "
            + "(?, ?)) AND (match(create_table_query, ?) OR database = ? AND match(as_select, ?)) ORDER BY 1",
        rs -> found.putIfAbsent(rs.getString(1), new V1Reader(rs.getString(1), kind(rs.getString(2)))),
        db, v1, handle.name(), edge + qualified + end, db, edge + name + end);
    new dev.cutover.engine.tables.ViewWriters(sql, spec).of(spec.liveTable()).forEach(w -> found.remove(w.name()));
    return new ArrayList<>(found.values());
  }

  private static String kind(String engine) {
    return switch (engine) {
      case "MaterializedView" -> "materialized view";
      case "View" -> "view";
      case "" -> "table";
      default -> engine + " table";
    };
  }

  /** {@code text} as a literal inside a re2 pattern. */
  private static String re2(String text) {
    StringBuilder s = new StringBuilder();
    for (char c : text.toCharArray()) {
      s.append(Character.isLetterOrDigit(c) || c == '_' ? "" : "\\").append(c);
    }
    return s.toString();
  }
}
