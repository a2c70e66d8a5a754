package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.HourFilter;
import dev.cutover.engine.tables.Readable;
import dev.cutover.engine.tables.SameFiles;
import dev.cutover.engine.tables.TargetTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Rows and an order-independent checksum per hour of v1 and v2, in one scan of each: what the
 * coverage proof and the gate compare with the ledger and with a stored reconciliation. The
 * checksum is the one the backfill records in the ledger; for an hour carried from v1 and still in
 * the same files in both, it is the files' fingerprint, as the ledger records it for a carry.
 */
public final class HourSums {

  /** One hour of both versions; an absent version counts zero rows. */
  public record Hour(long rowsV1, long checksumV1, long rowsV2, long checksumV2) {
    public boolean identical() {
      return rowsV1 == rowsV2 && checksumV1 == checksumV2;
    }
  }

  private final Sql sql;
  private final TableSpec spec;

  public HourSums(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** Hours of {@code range} that either version holds, every one read row by row. */
  public Map<HourPartition, Hour> of(HourRange range) {
    return of(range, Set.of());
  }

  /**
   * Hours of {@code range} that either version holds. Of the {@code carried} hours, those v1 and v2
   * hold in the same files are proven from the parts' metadata, with their file fingerprint as the
   * checksum of both sides (see {@link SameFiles}); every other hour is read row by row.
   */
  public Map<HourPartition, Hour> of(HourRange range, Set<HourPartition> carried) {
    return read(range, carried, true);
  }

  /**
   * Hours of {@code range} that v2 holds, as {@link #of(HourRange, Set)} has them, without reading v1: for
   * an hour read row by row, its v1 side is zero. What v2 holds is all a check of its writers needs, and
   * v1 may hold months that a bounded repair carries.
   */
  public Map<HourPartition, Hour> target(HourRange range, Set<HourPartition> carried) {
    return read(range, carried, false);
  }

  private Map<HourPartition, Hour> read(HourRange range, Set<HourPartition> carried, boolean live) {
    boolean v2 = new TargetTables(sql, spec).exists(spec.targetTable());
    if (!live && !v2) {
      return Map.of();
    }
    List<HourPartition> carriedHere = carried.stream().filter(range::contains).toList();
    SameFiles.Proof proof = v2 && !carriedHere.isEmpty()
        ? new SameFiles(sql, spec).of(spec.liveTable(), spec.targetTable(), carriedHere)
        : new SameFiles.Proof(Map.of(), carriedHere);
    Map<HourPartition, SameFiles.Hour> same = proof.same();
    // A carried hour neither version holds is empty in both: nothing to read there.
    Set<HourPartition> skip = new java.util.HashSet<>(carriedHere);
    proof.unproven().forEach(skip::remove);
    List<HourPartition> read = range.list().stream().filter(h -> !skip.contains(h)).toList();
    Map<HourPartition, Hour> out = new TreeMap<>();
    if (!read.isEmpty()) {
      List<Identifier> columns = new TargetTables(sql, spec).insertableColumns(spec.liveTable());
      String time = spec.timeColumn().quoted();
      List<Object> values = new ArrayList<>();
      String where = HourFilter.of(spec.timeColumn(), read, values);
      String side = "SELECT toUnixTimestamp(toStartOfHour(" + time + ")) AS h, count() AS n, reinterpretAsInt64(sum("
          + "cityHash64(" + TargetTables.columnList(columns) + "))) AS c FROM %s WHERE " + where + " GROUP BY h";
      Readable readable = new Readable(sql, spec);
      String none = "SELECT toUInt32(0) AS h, toUInt64(0) AS n, toInt64(0) AS c WHERE 0";
      List<Object> both = new ArrayList<>();
      String left = none;
      if (live) {
        left = side.formatted(readable.from(spec.liveTable()));
        both.addAll(values);
      }
      String right = none;
      if (v2) {
        right = side.formatted(readable.from(spec.targetTable()));
        both.addAll(values);
      }
      sql.query("checksum " + (live ? spec.liveTable() + " and " : "") + spec.targetTable() + " hour by hour",
          "SELECT if(a.h = 0, b.h, a.h) AS hh, a.n, a.c, b.n, b.c FROM (" + left + ") AS a FULL OUTER JOIN (" + right
              + ") AS b ON a.h = b.h ORDER BY hh" + (HourFilter.byRanges(read) ? " SETTINGS " + HourFilter.WHOLE_PARTITIONS
              : ""),
          rs -> out.put(HourPartition.ofEpochSecond(rs.getLong(1)), new Hour(rs.getLong(2), rs.getLong(3),
              rs.getLong(4), rs.getLong(5))),
          both.toArray());
    }
    same.forEach((h, s) -> out.put(h, new Hour(s.rows(), s.fingerprint(), s.rows(), s.fingerprint())));
    return out;
  }
}
