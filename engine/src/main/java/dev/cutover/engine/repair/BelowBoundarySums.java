package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.SameFiles;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * v2's hourly sums below B for the live writer's answer ({@link Observation#liveWriter}), read row by row once and
 * then reused while v2's files there are the same. The console asks every few seconds while a repair is open and no
 * backfill holds it; after a backfill that is a checksum of the whole history each time, half a second of the
 * server's CPU at six months of the demo, for an answer that changes only when something writes v2 below B.
 *
 * <p>A part's files never change: a write, a merge, a mutation or a lightweight update or delete makes new parts
 * under new names, so v2's active parts of the hours below B, by name and by the hash of their files, with the
 * table's identity and the server's, stand for what a row-by-row read would return. While a mutation of v2 is under
 * way (the server may apply it to reads before it rewrites the files) nothing is reused. Sums kept here carry v2's
 * side only; their v1 side is whatever {@link HourSums#target} gave and is not to be read.
 */
final class BelowBoundarySums {

  /** Servers × targets × ranges kept: a console watches one repair, a cluster's one per node. */
  private static final int KEPT = 32;

  private record Kept(String files, Set<HourPartition> carried, Map<HourPartition, HourSums.Hour> sums) {}

  private static final Map<String, Kept> LAST = java.util.Collections.synchronizedMap(
      new LinkedHashMap<>(KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Kept> eldest) {
          return size() > KEPT;
        }
      });

  private BelowBoundarySums() {}

  /** v2's sums of {@code below} as {@link HourSums#target} reads them, reused while v2's files there are the same. */
  static Map<HourPartition, HourSums.Hour> of(Sql sql, TableSpec spec, HourRange below, Set<HourPartition> carried) {
    // The files first, then the sums: a write between the two is in the sums and not in what they are kept with,
    // so the next read finds the files changed and reads again; the other order could keep it unseen.
    Optional<String[]> files = files(sql, spec, below);
    if (files.isEmpty()) {
      return new HourSums(sql, spec).target(below, carried);
    }
    String key = files.get()[0] + "|" + spec.targetTable() + "|" + below.from().epochSecond() + "-"
        + below.to().epochSecond();
    Kept kept = LAST.get(key);
    if (kept != null && kept.files().equals(files.get()[1]) && kept.carried().equals(carried)) {
      return kept.sums();
    }
    Map<HourPartition, HourSums.Hour> sums = Map.copyOf(new HourSums(sql, spec).target(below, carried));
    LAST.put(key, new Kept(files.get()[1], Set.copyOf(carried), sums));
    return sums;
  }

  /**
   * The server's and the table's identity, then what stands for v2's files below B: the count of its active parts
   * there, and a hash of their names and files. Empty while a mutation of v2 is under way, when v2 is missing, or
   * when a part of v2 is in a partition that is not an hour's epoch second (the preflight requires PARTITION BY
   * toStartOfHour of a DateTime; a part this reading cannot place must not leave a change unseen).
   */
  private static Optional<String[]> files(Sql sql, TableSpec spec, HourRange below) {
    String db = spec.database().name();
    String table = spec.targetTable().name();
    return sql.query("look whether " + spec.targetTable() + "'s files below B changed",
        "SELECT toString(serverUUID()) || '/' || toString((SELECT any(uuid) FROM system.tables WHERE database = ? AND "
            + "name = ?)), (SELECT count() FROM system.mutations WHERE database = ? AND table = ? AND NOT is_done) "
            + "+ countIf(h = 0), toString(countIf(h >= ? AND h < ?)) || '/' || toString(sumIf(cityHash64(name, "
            + "hash_of_all_files), h >= ? AND h < ?)) FROM (SELECT name, hash_of_all_files, "
            + "toUInt64OrZero(" + SameFiles.PARTITION_OF_PART + ") AS h FROM system.parts "
            + "WHERE database = ? AND table = ? AND active)",
        rs -> rs.getLong(2) > 0 ? null : new String[] {rs.getString(1), rs.getString(3)},
        db, table, db, table, below.from().epochSecond(), below.to().epochSecond(), below.from().epochSecond(),
        below.to().epochSecond(), db, table)
        .stream().filter(java.util.Objects::nonNull).findFirst()
        .filter(f -> !f[0].endsWith("/00000000-0000-0000-0000-000000000000"));
  }
}
