package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TargetTables;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rows and an order-independent checksum per hour of v1 and v2, in one scan of each: what the
 * coverage proof and the gate compare with the ledger and with a stored reconciliation. The
 * checksum is the one the backfill records in the ledger.
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

  /** Hours of {@code range} that either version holds. */
  public Map<HourPartition, Hour> of(HourRange range) {
    List<Identifier> columns = new TargetTables(sql, spec).insertableColumns(spec.liveTable());
    String time = spec.timeColumn().quoted();
    String side = "SELECT toUnixTimestamp(toStartOfHour(" + time + ")) AS h, count() AS n, reinterpretAsInt64(sum("
        + "cityHash64(" + TargetTables.columnList(columns) + "))) AS c FROM %s WHERE " + time + " >= toDateTime(?, "
        + "'UTC') AND " + time + " < toDateTime(?, 'UTC') GROUP BY h";
    boolean v2 = new TargetTables(sql, spec).exists(spec.targetTable());
    String right = v2 ? side.formatted(spec.qualified(spec.targetTable()))
        : "SELECT toUInt32(0) AS h, toUInt64(0) AS n, toInt64(0) AS c WHERE 0 AND ? > 0 AND ? > 0";
    Map<HourPartition, Hour> out = new TreeMap<>();
    sql.query("checksum " + spec.liveTable() + " and " + spec.targetTable() + " hour by hour", "SELECT if(a.h = 0, "
            + "b.h, a.h) AS hh, a.n, a.c, b.n, b.c FROM (" + side.formatted(spec.qualified(spec.liveTable())) + ") AS a "
            + "FULL OUTER JOIN (" + right + ") AS b ON a.h = b.h ORDER BY hh",
        rs -> out.put(HourPartition.ofEpochSecond(rs.getLong(1)), new Hour(rs.getLong(2), rs.getLong(3), rs.getLong(4),
            rs.getLong(5))),
        range.from().epochSecond(), range.to().epochSecond(), range.from().epochSecond(), range.to().epochSecond());
    return out;
  }
}
