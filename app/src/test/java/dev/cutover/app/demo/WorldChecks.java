package dev.cutover.app.demo;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.reconcile.Differ;
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
        + "reinterpretAsInt64(groupBitXor(cityHash64(*))) FROM " + table.sql() + " GROUP BY h", rs -> sums.put(rs.number(1), rs.number(2)));
    return sums;
  }

  /** The hours a writer wrote to a version, in the order of the log, each as often as it was written. */
  List<Instant> writes(PnlVersion version, String writerPrefix) {
    return sql.query("read the write log", "SELECT toUnixTimestamp(hour) FROM " + world.writes().sql()
            + " WHERE version = ? AND startsWith(writer, ?) ORDER BY written_at, hour",
        rs -> Instant.ofEpochSecond(rs.number(1)), version.label(), writerPrefix);
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
   * Reconciles v1 against {@code v2} with the engine's differ and the spec's rules; returns the hours
   * that hold unexpected differences, with the number of keys that differ unexpectedly in each.
   */
  Map<Long, Long> unexplained(dev.cutover.engine.connect.Database db, TableSpec spec, String v2, Instant from, Instant to) {
    var differ = new Differ(new dev.cutover.engine.sql.Sql(db.dataSource()), spec);
    var range = new HourRange(HourPartition.of(from), HourPartition.of(to));
    var diff = differ.diff(spec.liveTable(), Identifier.of(v2), differ.hours(spec.liveTable(), Identifier.of(v2), range),
        1_000_000);
    Map<Long, Long> out = new TreeMap<>();
    diff.keys().stream().filter(k -> !k.expected()).forEach(k -> out.merge(k.hour().epochSecond(), 1L, Long::sum));
    return out;
  }

}
