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
 * PARTITION … FROM} and {@code ATTACH PARTITION … FROM} hard-link v1's parts into v2), proven from the server's
 * metadata without reading a row. Two tables whose active parts of an hour have the same multiset of
 * {@code hash_of_all_files} hold the same rows in that hour, provided that the files are read the
 * same way in both: the tables' columns (names, types, defaults) are the same, neither has a
 * mutation under way, and no part of the hour carries a lightweight delete or an update patch
 * (those change what a read returns without being the same files in both), and both are plain
 * MergeTrees. Where any of this does not hold, the hour is not listed and the caller reads its rows.
 *
 * <p>A merge in either table after the carry gives new files with the same rows: the hour then
 * simply falls back to a read. The fingerprint is of the files, so it equals between two tables, or
 * between two moments of one table, exactly when nothing was written, merged or mutated between.
 */
public final class SameFiles {

  /**
   * The partition a part of {@code system.parts} belongs to, as SQL: its {@code partition_id}, where a patch part
   * of an hour, listed under 'patch-<hash>-<partition>', counts against that hour.
   */
  public static final String PARTITION_OF_PART = "replaceRegexpOne(partition_id, '^patch-[0-9a-f]+-', '')";

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

  /**
   * What the metadata proves of some hours of two tables.
   *
   * @param same the hours both hold in the same files
   * @param unproven the other hours that either table holds parts of: those must be read; an hour
   *     neither holds is in neither list (both are empty there)
   */
  public record Proof(Map<HourPartition, Hour> same, List<HourPartition> unproven) {
    public Proof {
      same = Map.copyOf(same);
      unproven = List.copyOf(unproven);
    }
  }

  /** What the parts of {@code a} and {@code b} prove of {@code hours}: every hour unproven if the tables differ. */
  public Proof of(Identifier a, Identifier b, Collection<HourPartition> hours) {
    List<HourPartition> sorted = hours.stream().sorted().distinct().toList();
    if (hours.isEmpty() || !readAlike(a, b)) {
      return new Proof(Map.of(), sorted);
    }
    String db = spec.database().name();
    Map<String, Hour> byPartition = new HashMap<>();
    java.util.Set<String> held = new java.util.HashSet<>();
    sql.query("compare the files of " + a + " and " + b + " hour by hour", "SELECT " + PARTITION_OF_PART
            + " AS p, sumIf(rows, table = ?) AS rows_a, sumIf(rows, table = ?) AS rows_b, "
            + "arraySort(groupArrayIf(hash_of_all_files, table = ?)) = arraySort(groupArrayIf(hash_of_all_files, "
            + "table = ?)) AND max(has_lightweight_delete) = 0 AND countIf(startsWith(partition_id, 'patch-')) = 0 "
            + "AND rows_a = rows_b AS same, reinterpretAsInt64(cityHash64(arrayStringConcat(arraySort(groupArrayIf("
            + "hash_of_all_files, table = ?)), ','))) AS fingerprint FROM system.parts WHERE database = ? AND table "
            + "IN (?, ?) AND active GROUP BY p",
        rs -> {
          held.add(rs.getString(1));
          if (rs.getBoolean(4)) {
            byPartition.put(rs.getString(1), new Hour(rs.getLong(2), rs.getLong(5)));
          }
          return null;
        },
        a.name(), b.name(), a.name(), b.name(), a.name(), db, a.name(), b.name());
    Map<HourPartition, Hour> same = new HashMap<>();
    List<HourPartition> unproven = new java.util.ArrayList<>();
    for (HourPartition h : sorted) {
      Hour proven = byPartition.get(h.partitionId());
      if (proven != null) {
        same.put(h, proven);
      } else if (held.contains(h.partitionId())) {
        unproven.add(h);
      }
    }
    return new Proof(same, unproven);
  }

  /**
   * Whether a file of one table reads as the same rows in the other: the same columns in the same
   * order with the same types and defaults (a part lacking a column reads the table's default), and
   * no mutation under way on either (one may apply to reads before it rewrites the files). Both must
   * be plain MergeTrees: an engine that folds rows at merges (Summing, Aggregating, Replacing, …) is read
   * folded ({@link Readable}), so its parts' raw row counts are not the rows it is compared by.
   */
  private boolean readAlike(Identifier a, Identifier b) {
    String db = spec.database().name();
    // One statement: the proof follows every carry statement and precedes every reconciliation of carried hours.
    return sql.queryLong("compare how " + a + " and " + b + " are read", "SELECT (SELECT countIf(engine IN ('MergeTree', "
            + "'ReplicatedMergeTree', 'SharedMergeTree')) FROM system.tables WHERE database = ? AND name IN (?, ?)) = 2 "
            + "AND (SELECT count() = 2 AND uniqExact(shape) = 1 FROM (SELECT table, toString(arraySort(groupArray(("
            + "position, name, type, default_kind, default_expression)))) AS shape FROM system.columns WHERE database = ? "
            + "AND table IN (?, ?) GROUP BY table)) AND (SELECT count() FROM system.mutations WHERE database = ? AND "
            + "table IN (?, ?) AND NOT is_done) = 0",
        db, a.name(), b.name(), db, a.name(), b.name(), db, a.name(), b.name()) == 1;
  }

}
