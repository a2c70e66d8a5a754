package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.HourFilter;
import dev.cutover.engine.tables.Readable;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Writes one batch of consecutive hours, or a few batches one after the other ({@link Batches#together}),
 * each hour an idempotent overwrite: the corrected transform goes into the staging table private to this
 * worker, one INSERT per batch, then one ALTER replaces each hour's partition of the target atomically.
 * An hour with no corrected rows empties its target partition on purpose. Never touches an hour at or
 * after the boundary.
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
  private final String runId;
  private final Readable readable;

  BatchWriter(Sql sql, TableSpec spec, List<Identifier> columns, BackfillSettings settings, HourPartition boundary,
      String runId) {
    this.sql = sql;
    this.runId = runId;
    this.spec = spec;
    this.columns = columns;
    this.settings = settings;
    this.boundary = boundary;
    this.readable = new Readable(sql, spec);
  }

  /**
   * {@code computed} is told once the hours' rows are computed (their INSERTs are done): what follows
   * (checksum, replace) only reads and links, and may overlap the next batch's compute.
   *
   * <p>Writes {@code hours} straight into the target, which holds none of them (no part of theirs, and no
   * statement of another process still writing them: see {@link #stopStatements}). No staging round
   * trip: each batch costs what the floor's INSERT costs, plus its share of the one checksum of them all.
   * If it fails, part of it may be written: the retry goes through staging, whose replace overwrites each
   * hour whole.
   */
  List<HourOutput> writeDirect(List<HourPartition> hours, Runnable computed) {
    HourPartition first = hours.getFirst();
    HourPartition end = hours.getLast().plusHours(1);
    refuseFromBoundary(hours);
    compute(hours, spec.qualified(spec.targetTable()), spec.targetTable().name());
    computed.run();
    Map<HourPartition, HourOutput> outputs = new HashMap<>();
    sql.query("checksum the written hours", checksumQuery(readable.from(spec.targetTable()), window(), columns,
            spec.timeColumn()),
        rs -> outputs.put(HourPartition.ofEpochSecond(rs.getLong(1)), new HourOutput(
            HourPartition.ofEpochSecond(rs.getLong(1)), rs.getLong(2), rs.getLong(3))),
        first.epochSecond(), end.epochSecond());
    return hours.stream().map(h -> outputs.getOrDefault(h, new HourOutput(h, 0, 0))).toList();
  }

  /** Writes {@code hours} through staging; {@code emptyFirst} when staging may already hold rows of these hours. */
  List<HourOutput> write(Identifier staging, List<HourPartition> hours, boolean emptyFirst, Runnable computed) {
    HourPartition first = hours.getFirst();
    HourPartition end = hours.getLast().plusHours(1);
    refuseFromBoundary(hours);
    String stagingName = spec.qualified(staging);
    if (emptyFirst) {
      sql.execute("empty staging table " + staging, "TRUNCATE TABLE " + stagingName);
    }
    compute(hours, stagingName, "staging");
    computed.run();

    // The checksum and the replace both only read staging: they run at once, one round trip less per batch.
    CompletableFuture<List<HourOutput>> checksums = CompletableFuture.supplyAsync(() -> sql.query(
        "checksum the staged hours", checksumQuery(readable.from(staging), window(), columns, spec.timeColumn()),
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

  /**
   * The corrected rows of {@code hours} into {@code into}: one INSERT per batch of the run's size, one after
   * the other (a task may write a few batches: {@link Batches#together}). Every one of them carries the mark of
   * the task's first hour, which {@link #stopBatch} stops.
   */
  private void compute(List<HourPartition> hours, String into, String shown) {
    String marker = marker(hours.getFirst());
    for (List<HourPartition> batch : Batches.of(hours, settings.batchHours())) {
      HourPartition from = batch.getFirst();
      HourPartition to = batch.getLast().plusHours(1);
      Transform insert = insertStatement(spec, columns, into, from, to, settings, marker);
      sql.execute("compute hours " + from + " to " + to + " into " + shown, insert.sql(), insert.values().toArray());
    }
  }

  private void refuseFromBoundary(List<HourPartition> hours) {
    for (HourPartition h : hours) {
      if (!h.isBefore(boundary)) { // the live writer owns this hour: refuse, whatever the caller planned
        throw new IllegalStateException("refusing to write hour " + h + ": it is at or after the boundary " + boundary);
      }
    }
  }

  private String window() {
    return " WHERE " + spec.timeColumn().quoted() + " >= toDateTime(?, 'UTC') AND " + spec.timeColumn().quoted()
        + " < toDateTime(?, 'UTC')";
  }

  /** The mark of this run's statements that write the batch from {@code first}, in their {@code log_comment}. */
  private String marker(HourPartition first) {
    return markerOf(spec) + runId + " " + first.epochSecond();
  }

  /** What the marks of every backfill statement writing {@code spec}'s target start with. */
  static String markerOf(TableSpec spec) {
    return "cutover backfill " + spec.database().name() + "." + spec.targetTable().name() + " ";
  }

  /**
   * Stops, and waits for, every statement still running on the server whose mark starts with {@code
   * prefix}: a batch's insert the server kept running after its client gave up (a timeout, a lost
   * connection, a killed process), which would otherwise add its rows after a retry wrote the hours.
   * False when the server refuses to (this user may not see or stop them).
   */
  boolean stopStatements(String prefix) {
    try {
      sql.execute("stop the statements of " + prefix.strip(), "KILL QUERY WHERE startsWith(Settings['log_comment'], ?) "
          + "SYNC", prefix);
      return true;
    } catch (QueryFailedException refused) {
      return false; // the server will not: then nothing is written straight into the target
    }
  }

  /**
   * The hours this run may write straight into the target: those it has never held, once every backfill
   * statement of the target still running on the server is stopped. This run holds the target's repair,
   * so such a statement belongs to a process that is gone (killed, or its connection lost); stopped first,
   * it cannot add rows to an hour this run writes, and only then does what the target holds tell which
   * hours it has never held. None where the server will not stop them (a user without the right), nor
   * where a view reads the target: an INSERT would fire it with history, a REPLACE PARTITION fires nothing.
   */
  Predicate<HourPartition> neverHeld(TargetTables tables) {
    if (tables.watched(spec.targetTable()) || !stopStatements(markerOf(spec))) {
      return h -> false;
    }
    Set<String> held = tables.heldPartitions(spec.targetTable());
    return h -> !held.contains(h.partitionId());
  }

  /**
   * Stops the statements of the batch from {@code first} (see {@link #stopStatements}); a server that
   * does not answer fails this try like any other.
   */
  void stopBatch(HourPartition first) {
    stopStatements(marker(first));
  }

  static Transform insertStatement(TableSpec spec, List<Identifier> columns, String into, HourPartition from,
      HourPartition to, BackfillSettings settings, String marker) {
    String cols = TargetTables.columnList(columns);
    String clause = settings.settingsClause();
    // The outer filter keeps the insert to the batch's hours even if a transform emits rows outside its window.
    return Transform.bind(spec, from, to).wrap(
        "INSERT INTO " + into + " (" + cols + ") SELECT " + cols + " FROM (",
        ") WHERE " + spec.timeColumn().quoted() + " >= toDateTime(?, 'UTC') AND " + spec.timeColumn().quoted()
            + " < toDateTime(?, 'UTC')" + (clause.isEmpty() ? " SETTINGS " : clause + ", ") + "log_comment = ?",
        List.of(from.epochSecond(), to.epochSecond(), marker));
  }

  static String replaceStatement(TableSpec spec, String stagingName, List<HourPartition> hours) {
    return "ALTER TABLE " + spec.qualified(spec.targetTable()) + " "
        + hours.stream().map(h -> "REPLACE PARTITION ID '" + h.partitionId() + "' FROM " + stagingName)
            .collect(Collectors.joining(", "))
        + " SETTINGS allow_replace_partition_from_empty_source = 1";
  }

  /**
   * Per hour: epoch second, rows, and an order-independent checksum that counts duplicates.
   *
   * <p>It reads whole hours ({@link HourFilter#WHOLE_PARTITIONS}), on one thread: the next batch's INSERT
   * runs beside it, and a checksum of a batch's parts gains nothing from a second one.
   */
  static String checksumQuery(String table, String where, List<Identifier> columns, Identifier time) {
    return "SELECT toUnixTimestamp(toStartOfHour(" + time.quoted() + ")) AS h, count(), reinterpretAsInt64(sum(cityHash64("
        + TargetTables.columnList(columns) + "))) FROM " + table + where + " GROUP BY h ORDER BY h"
        + " SETTINGS " + HourFilter.WHOLE_PARTITIONS + ", max_threads = 1";
  }
}
