package dev.cutover.engine.tables;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The hours two tables hold in the very same files: what a carry makes of an hour ({@code REPLACE
 * PARTITION … FROM} and {@code CLONE AS} hard-link v1's parts into v2), proven from the server's
 * metadata without reading a row. Two tables whose active parts of an hour have the same multiset of
 * {@code hash_of_all_files} hold the same rows in that hour, provided that the files are read the
 * same way in both: the tables' columns (names, types, defaults) are the same, neither has a
 * mutation under way, and no part of the hour carries a lightweight delete or an update patch
 * (those change what a read returns without being the same files in both). Where any of this does
 * not hold, the hour is not listed and the caller reads its rows.
 *
 * <p>A merge in either table after the carry gives new files with the same rows: the hour then
 * simply falls back to a read. The fingerprint is of the files, so it equals between two tables, or
 * between two moments of one table, exactly when nothing was written, merged or mutated between.
 */
public final class SameFiles {

  /**
   * An hour both tables hold in the same files.
   *
   * @param rows the rows of the hour, as the parts count them
   * @param fingerprint a hash of the hour's files: equal in both tables
   */
  public record Hour(long rows, long fingerprint) {}

  private final Sql sql;
  private final TableSpec spec;

  public SameFiles(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** Of {@code hours}, those that {@code a} and {@code b} hold in the same files; none if the tables differ. */
  public Map<HourPartition, Hour> of(Identifier a, Identifier b, Collection<HourPartition> hours) {
    if (hours.isEmpty() || !readAlike(a, b)) {
      return Map.of();
    }
    String db = spec.database().name();
    Map<String, Hour> byPartition = new HashMap<>();
    // A patch part of an hour is listed under 'patch-<hash>-<partition>': it counts against that hour.
    sql.query("compare the files of " + a + " and " + b + " hour by hour", "SELECT replaceRegexpOne(partition_id, "
            + "'^patch-[0-9a-f]+-', '') AS p, sumIf(rows, table = ?) AS rows_a, sumIf(rows, table = ?) AS rows_b, "
            + "arraySort(groupArrayIf(hash_of_all_files, table = ?)) = arraySort(groupArrayIf(hash_of_all_files, "
            + "table = ?)) AND max(has_lightweight_delete) = 0 AND countIf(startsWith(partition_id, 'patch-')) = 0 "
            + "AS same, reinterpretAsInt64(cityHash64(arrayStringConcat(arraySort(groupArrayIf(hash_of_all_files, "
            + "table = ?)), ','))) AS fingerprint FROM system.parts WHERE database = ? AND table IN (?, ?) AND active "
            + "GROUP BY p HAVING same AND rows_a = rows_b",
        rs -> byPartition.put(rs.getString(1), new Hour(rs.getLong(2), rs.getLong(5))),
        a.name(), b.name(), a.name(), b.name(), a.name(), db, a.name(), b.name());
    Map<HourPartition, Hour> out = new HashMap<>();
    for (HourPartition h : hours) {
      Hour same = byPartition.get(h.partitionId());
      if (same != null) {
        out.put(h, same);
      }
    }
    return out;
  }

  /**
   * Whether a file of one table reads as the same rows in the other: the same columns in the same
   * order with the same types and defaults (a part lacking a column reads the table's default), and
   * no mutation under way on either (one may apply to reads before it rewrites the files).
   */
  private boolean readAlike(Identifier a, Identifier b) {
    String db = spec.database().name();
    List<String> shapes = sql.query("compare the columns of " + a + " and " + b, "SELECT table, "
            + "toString(arraySort(groupArray((position, name, type, default_kind, default_expression)))) FROM "
            + "system.columns WHERE database = ? AND table IN (?, ?) GROUP BY table",
        rs -> rs.getString(2), db, a.name(), b.name());
    if (shapes.size() != 2 || !shapes.get(0).equals(shapes.get(1))) {
      return false;
    }
    return sql.queryLong("look for mutations under way on " + a + " and " + b, "SELECT count() FROM system.mutations "
        + "WHERE database = ? AND table IN (?, ?) AND NOT is_done", db, a.name(), b.name()) == 0;
  }
}
