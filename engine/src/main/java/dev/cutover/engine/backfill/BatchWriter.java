package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;

/**
 * Writes one batch of consecutive hours, each hour an idempotent overwrite: the corrected transform for
 * the whole batch goes into the staging table private to this worker, then one ALTER replaces each
 * hour's partition of the target atomically. An hour with no corrected rows empties its target
 * partition on purpose. Never touches an hour at or after the boundary.
 *
 * <p>Staging is emptied only when the caller says it may hold rows of the batch's hours: on a worker's
 * first batch (a crashed process may have left the table) and before a retry (a failed insert may have
 * left part of the batch). Otherwise it holds only earlier batches' hours, which are disjoint from this
 * batch's: a run never writes an hour twice, and {@code REPLACE PARTITION ID} and the checksum read only
 * the batch's own partitions. Those earlier partitions share their files with the target (the replace
 * hard-links them), so keeping them costs no disk; the run's end drops the table.
 */
final class BatchWriter {

  /** Rows and checksum of one written hour. */
  record HourOutput(HourPartition hour, long rows, long checksum) {}

  private final Sql sql;
  private final TableSpec spec;
  private final List<Identifier> columns;
  private final BackfillSettings settings;
  private final HourPartition boundary;

  BatchWriter(Sql sql, TableSpec spec, List<Identifier> columns, BackfillSettings settings, HourPartition boundary) {
    this.sql = sql;
    this.spec = spec;
    this.columns = columns;
    this.settings = settings;
    this.boundary = boundary;
  }

  /** Writes {@code hours}; {@code emptyFirst} when staging may already hold rows of these hours. */
  List<HourOutput> write(Identifier staging, List<HourPartition> hours, boolean emptyFirst) {
    HourPartition first = hours.getFirst();
    HourPartition end = hours.getLast().plusHours(1);
    for (HourPartition h : hours) {
      if (!h.isBefore(boundary)) { // the live writer owns this hour: refuse, whatever the caller planned
        throw new IllegalStateException("refusing to write hour " + h + ": it is at or after the boundary " + boundary);
      }
    }
    String stagingName = spec.qualified(staging);
    if (emptyFirst) {
      sql.execute("empty staging table " + staging, "TRUNCATE TABLE " + stagingName);
    }
    Transform insert = insertStatement(spec, columns, stagingName, first, end, settings);
    sql.execute("compute hours " + first + " to " + end + " into staging", insert.sql(), insert.values().toArray());

    // The checksum and the replace both only read staging: they run at once, one round trip less per batch.
    String window = " WHERE " + spec.timeColumn().quoted() + " >= toDateTime(?, 'UTC') AND " + spec.timeColumn().quoted()
        + " < toDateTime(?, 'UTC')";
    CompletableFuture<List<HourOutput>> checksums = CompletableFuture.supplyAsync(() -> sql.query(
        "checksum the staged hours", checksumQuery(stagingName, window, columns, spec.timeColumn()),
        rs -> new HourOutput(HourPartition.ofEpochSecond(rs.getLong(1)), rs.getLong(2), rs.getLong(3)),
        first.epochSecond(), end.epochSecond()), task -> Thread.ofVirtual().name("checksum-" + first).start(task));
    try {
      sql.execute("replace hours " + first + " to " + end + " of " + spec.targetTable(),
          replaceStatement(spec, stagingName, hours));
    } catch (RuntimeException e) {
      checksums.handle((v, x) -> null).join();
      throw e;
    }
    Map<HourPartition, HourOutput> outputs = new HashMap<>();
    try {
      checksums.join().forEach(o -> outputs.put(o.hour(), o));
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
    // Staging keeps its copy of these hours until the run's end drops it.
    return hours.stream().map(h -> outputs.getOrDefault(h, new HourOutput(h, 0, 0))).toList();
  }

  static Transform insertStatement(TableSpec spec, List<Identifier> columns, String stagingName, HourPartition from,
      HourPartition to, BackfillSettings settings) {
    String cols = TargetTables.columnList(columns);
    // The outer filter keeps staging to the batch's hours even if a transform emits rows outside its window.
    return Transform.bind(spec, from, to).wrap(
        "INSERT INTO " + stagingName + " (" + cols + ") SELECT " + cols + " FROM (",
        ") WHERE " + spec.timeColumn().quoted() + " >= toDateTime(?, 'UTC') AND " + spec.timeColumn().quoted()
            + " < toDateTime(?, 'UTC')" + settings.settingsClause(),
        List.of(from.epochSecond(), to.epochSecond()));
  }

  static String replaceStatement(TableSpec spec, String stagingName, List<HourPartition> hours) {
    return "ALTER TABLE " + spec.qualified(spec.targetTable()) + " "
        + hours.stream().map(h -> "REPLACE PARTITION ID '" + h.partitionId() + "' FROM " + stagingName)
            .collect(Collectors.joining(", "))
        + " SETTINGS allow_replace_partition_from_empty_source = 1";
  }

  /** Per hour: epoch second, rows, and an order-independent checksum that counts duplicates. */
  static String checksumQuery(String table, String where, List<Identifier> columns, Identifier time) {
    return "SELECT toUnixTimestamp(toStartOfHour(" + time.quoted() + ")) AS h, count(), reinterpretAsInt64(sum(cityHash64("
        + TargetTables.columnList(columns) + "))) FROM " + table + where + " GROUP BY h ORDER BY h";
  }
}
