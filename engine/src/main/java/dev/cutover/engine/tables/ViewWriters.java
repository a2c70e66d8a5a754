package dev.cutover.engine.tables;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The materialized views of the whole server that write a table of the spec's database, found from
 * the {@code TO} clause of their definition: {@code system.tables} prints each as {@code CREATE
 * MATERIALIZED VIEW db.v [REFRESH …] TO db.t (…) AS …}, the target always qualified (refreshable
 * views included).
 */
public final class ViewWriters {

  /** A name the server prints without backquotes. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final Sql sql;
  private final TableSpec spec;

  public ViewWriters(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /**
   * A materialized view that writes a table, and when it was created or last changed.
   *
   * @param name {@code database.view}, as the server names it
   */
  public record View(String name, String database, String view, Instant since) {}

  /** The views that write {@code table}, by name. */
  public List<View> of(Identifier table) {
    List<String> targets = quoted(spec.database().name()).stream()
        .flatMap(d -> quoted(table.name()).stream().map(t -> " TO " + d + "." + t + " ")).toList();
    return sql.query("find the materialized views that write " + table, "SELECT database, name, "
            + "toUnixTimestamp(metadata_modification_time), create_table_query FROM system.tables "
            + "WHERE engine = 'MaterializedView' ORDER BY database, name",
        rs -> {
          String definition = rs.getString(4);
          boolean writes = targets.stream().anyMatch(definition::contains);
          return writes ? new View(rs.getString(1) + "." + rs.getString(2), rs.getString(1), rs.getString(2),
              Instant.ofEpochSecond(rs.getLong(3))) : null;
        }).stream().filter(Objects::nonNull).toList();
  }

  /** A name as the server may print it: bare when it can be, else in backquotes. */
  private static List<String> quoted(String name) {
    String quoted = "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    return PLAIN.matcher(name).matches() ? List.of(name, quoted) : List.of(quoted);
  }
}
