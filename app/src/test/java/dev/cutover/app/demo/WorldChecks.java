package dev.cutover.app.demo;

import dev.cutover.app.demo.TableSpec.ExpectedDifference;
import dev.cutover.engine.api.Identifier;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Reads the facts the demo tests assert on, straight from the tables. */
final class WorldChecks {

  private final Sql sql;
  private final DemoWorld world;

  WorldChecks(Sql sql, DemoWorld world) {
    this.sql = sql;
    this.world = world;
  }

  long count(String fromAndWhere, Object... params) {
    return sql.queryLong("count", "SELECT count() FROM " + fromAndWhere, params);
  }

  /** {@code groupBitXor(cityHash64(*))} of each hour of a table, by the hour of {@code timeColumn}. */
  Map<Long, Long> checksums(TableName table, String timeColumn) {
    Map<Long, Long> sums = new TreeMap<>();
    sql.query("checksum " + table, "SELECT toUnixTimestamp(toStartOfHour(" + timeColumn + ")) AS h, "
        + "reinterpretAsInt64(groupBitXor(cityHash64(*))) FROM " + table.sql() + " GROUP BY h", rs -> sums.put(rs.getLong(1), rs.getLong(2)));
    return sums;
  }

  /** The hours a writer wrote to a version, in the order of the log, each as often as it was written. */
  List<Instant> writes(PnlVersion version, String writerPrefix) {
    return sql.query("read the write log", "SELECT toUnixTimestamp(hour) FROM " + world.writes().sql()
            + " WHERE version = ? AND startsWith(writer, ?) ORDER BY written_at, hour",
        rs -> Instant.ofEpochSecond(rs.getLong(1)), version.label(), writerPrefix);
  }

  /** Computes a version's transform for {@code [from, to)} into {@code table} (created like pnl_v1). */
  void compute(PnlVersion version, TableName table, Instant from, Instant to) {
    sql.execute("create " + table, "CREATE TABLE IF NOT EXISTS " + table.sql() + " AS " + world.pnlV1().sql());
    for (Instant batch = from; batch.isBefore(to); batch = batch.plus(Hours.ONE.multipliedBy(96))) {
      Instant end = batch.plus(Hours.ONE.multipliedBy(96)).isBefore(to) ? batch.plus(Hours.ONE.multipliedBy(96)) : to;
      Map<String, Object> values = new java.util.HashMap<>(world.sources());
      values.put("window_start", batch);
      values.put("window_end", end);
      sql.execute("compute", version.transform().render(values).prefixed("INSERT INTO " + table.sql() + " "));
    }
  }

  /**
   * Compares v1 with {@code v2} row by row (summed per hour and key) as the spec's rules say: for each
   * measure, the first rule whose rows match decides the expected difference; otherwise the measures
   * must agree to the default tolerance. Returns the hours of the rows that are not explained, with
   * their count.
   */
  Map<Long, Long> unexplained(TableSpec spec, TableName v2, Instant from, Instant to) {
    String keys = spec.keys().stream().map(Identifier::quoted).collect(Collectors.joining(", "));
    String time = spec.timeColumn().quoted();
    String sums = spec.measures().stream().map(m -> "sum(" + m.quoted() + ") AS " + m.quoted())
        .collect(Collectors.joining(", "));
    String on = "v1." + time + " = v2." + time + spec.keys().stream()
        .map(k -> " AND v1." + k.quoted() + " = v2." + k.quoted()).collect(Collectors.joining());
    List<String> failures = new ArrayList<>();
    failures.add("v1.rows != 1");
    failures.add("v2.rows != 1");
    for (Identifier m : spec.measures()) {
      StringBuilder check = new StringBuilder();
      for (ExpectedDifference rule : spec.expectedDifferences()) {
        if (rule.measures().contains(m)) {
          check.append("(").append(rule.rows()).append("), abs((v1.").append(m.quoted()).append(" - v2.")
              .append(m.quoted()).append(") - (").append(rule.difference()).append(")) > toDecimal128('")
              .append(rule.tolerance().toPlainString()).append("', 10), ");
        }
      }
      String equal = "abs(v1." + m.quoted() + " - v2." + m.quoted() + ") > toDecimal128('"
          + spec.defaultTolerance().toPlainString() + "', 10)";
      failures.add(check.isEmpty() ? equal : "multiIf(" + check + equal + ")");
    }
    String side = "SELECT " + time + ", " + keys + ", " + sums + ", count() AS rows FROM %s WHERE " + time
        + " >= toDateTime(?, 'UTC') AND " + time + " < toDateTime(?, 'UTC') GROUP BY " + time + ", " + keys;
    Map<Long, Long> hours = new TreeMap<>();
    sql.query("compare v1 and v2", "SELECT toUnixTimestamp(if(v1.rows > 0, v1." + time + ", v2." + time
            + ")) AS h, count() FROM (" + side.formatted(spec.tables().v1().sql()) + ") AS v1 FULL OUTER JOIN ("
            + side.formatted(v2.sql()) + ") AS v2 ON " + on + " WHERE " + String.join(" OR ", failures)
            + " GROUP BY h ORDER BY h",
        rs -> hours.put(rs.getLong(1), rs.getLong(2)),
        from.getEpochSecond(), to.getEpochSecond(), from.getEpochSecond(), to.getEpochSecond());
    return hours;
  }
}
