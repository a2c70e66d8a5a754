package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.sql.Sql;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * Rows of one of Cutover's own tables inserted as JSON lines in a single bound value each statement,
 * read by {@code format(JSONCompactEachRow)} in the table's own column types, in pieces that fit a query:
 * each line an array of the row's values in the order of its columns: a row names no column, and
 * a report's hour takes about 230 characters instead of 370.
 * The driver binds one value instead of one per column and row: six months of a report's hours are
 * stored in tens of milliseconds, where statements of bound VALUES took half a second, and a ledger
 * line of 240 carried hours in a few where it took 45. Hours go as epoch seconds, instants with
 * milliseconds as {@link #instant} text.
 */
final class JsonRows {

  /** The data of one INSERT, well below the server's max_query_size (256 KiB by default) that the bound text counts in. */
  private static final int BYTES_PER_INSERT = 160_000;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Sql sql;
  private final Identifier database;
  private final String table;
  private final Map<String, String> structures = new ConcurrentHashMap<>();

  JsonRows(Sql sql, Identifier database, String table) {
    this.sql = sql;
    this.database = database;
    this.table = table;
  }

  /** Inserts {@code rows}, each with one value per name of {@code columns} (a comma-separated list), in order. */
  void insert(String what, String columns, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return;
    }
    List<String> names = Arrays.stream(columns.split(",")).map(String::strip).toList();
    String insert = "INSERT INTO " + database.quoted() + "." + table + " (" + columns + ") SELECT " + columns
        + " FROM format(JSONCompactEachRow, ?, ?)";
    String structure = structure(names);
    StringBuilder data = new StringBuilder();
    for (Object[] row : rows) {
      data.append(JSON.writeValueAsString(Arrays.copyOf(row, names.size()))).append('\n');
      if (data.length() > BYTES_PER_INSERT) {
        sql.execute(what, insert, structure, data.toString());
        data.setLength(0);
      }
    }
    if (!data.isEmpty()) {
      sql.execute(what, insert, structure, data.toString());
    }
  }

  /** An instant given in epoch milliseconds, as a {@code DateTime64(3)} column reads it from JSON. */
  static String instant(long epochMillis) {
    return Math.floorDiv(epochMillis, 1000) + "." + String.format("%03d", Math.floorMod(epochMillis, 1000));
  }

  /** The names and types of {@code columns} of the table, as format() takes them. */
  private String structure(List<String> columns) {
    return structures.computeIfAbsent(String.join(",", columns), k -> {
      Map<String, String> types = new TreeMap<>();
      sql.query("read the columns of " + table, "SELECT name, type FROM system.columns WHERE database = ? AND table = ?",
          rs -> types.put(rs.getString(1), rs.getString(2)), database.name(), table);
      return String.join(", ", columns.stream().map(c -> Identifier.of(c).quoted() + " " + types.get(c)).toList());
    });
  }
}
