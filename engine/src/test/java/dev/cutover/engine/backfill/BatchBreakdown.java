package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Times a backfill batch three ways on the same hours, batch after batch, so that all three share
 * the machine's load: the plain floor statement; the batch as the engine first wrote it (empty staging,
 * compute, checksum, replace, ledger, one after another), each statement timed alone; and the batch as
 * the engine writes it now ({@link BatchWriter} itself, then the ledger). It lives in the engine's
 * tests, in the backfill package, to run the engine's own statements and writer; the benchmarks reach
 * it through {@link dev.cutover.engine.testing.BenchProbes}.
 */
public final class BatchBreakdown {

  public static final String FLOOR = "floor: INSERT … SELECT into an empty table";
  public static final String NOW = "the engine's batch now (BatchWriter + ledger)";
  public static final String DIRECT_INSERT = "the backfill's INSERT straight into an empty table";
  public static final String DIRECT_CHECKSUM = "checksum of those hours";
  public static final String FIRST = "the first sequence, whole batch";

  private final Sql sql;
  private final StateStore store;
  private final TableSpec spec;

  public BatchBreakdown(Sql sql, StateStore store, TableSpec spec) {
    this.sql = sql;
    this.store = store;
    this.spec = spec;
  }

  /** Milliseconds of each step, one value per batch, over {@code batches} consecutive batches from {@code first}. */
  public Map<String, List<Double>> measure(HourPartition first, int batches, BackfillSettings settings,
      Identifier floorTable, HourPartition boundary) {
    List<Identifier> columns = new TargetTables(sql, spec).insertableColumns(spec.targetTable());
    TargetTables tables = new TargetTables(sql, spec);
    Identifier before = tables.staging("bench-breakdown", 1);
    Identifier now = tables.staging("bench-breakdown", 2);
    Identifier direct = tables.staging("bench-breakdown", 3);
    sql.execute("empty", "TRUNCATE TABLE " + spec.qualified(direct));
    sql.execute("empty", "TRUNCATE TABLE " + spec.qualified(now));
    String stagingName = spec.qualified(before);
    BatchWriter writer = new BatchWriter(sql, spec, columns, settings, boundary, "bench-breakdown");
    Map<String, List<Double>> total = new LinkedHashMap<>();
    for (String step : List.of(FLOOR, "round trip (SELECT 1)", "TRUNCATE staging", "INSERT … SELECT into staging",
        "checksum the staged hours", "ALTER … REPLACE PARTITION × batch", "ledger INSERT", FIRST, NOW, DIRECT_INSERT, DIRECT_CHECKSUM)) {
      total.put(step, new ArrayList<>());
    }
    HourPartition from = first;
    for (int b = 0; b < batches; b++) {
      HourPartition to = from.plusHours(settings.batchHours());
      List<HourPartition> hours = new ArrayList<>();
      for (HourPartition h = from; h.isBefore(to); h = h.plusHours(1)) {
        hours.add(h);
      }
      Transform floor = Transform.bind(spec, from, to);
      time(total, FLOOR, () -> sql.execute("floor", "INSERT INTO " + spec.qualified(floorTable) + " SELECT * FROM ("
          + floor.sql() + ")", floor.values().toArray()));
      Transform straight = BatchWriter.insertStatement(spec, columns, spec.qualified(direct), hours.getFirst(), to,
          settings, "bench-breakdown");
      time(total, DIRECT_INSERT, () -> sql.execute("insert", straight.sql(), straight.values().toArray()));
      time(total, DIRECT_CHECKSUM, () -> sql.query("checksum", BatchWriter.checksumQuery(spec.qualified(direct),
          " WHERE " + spec.timeColumn().quoted() + " >= toDateTime(?, 'UTC') AND " + spec.timeColumn().quoted()
          + " < toDateTime(?, 'UTC')", columns, spec.timeColumn()), rs -> rs.getLong(1), hours.getFirst().epochSecond(),
          to.epochSecond()));
      time(total, "round trip (SELECT 1)", () -> sql.queryLong("ping", "SELECT 1"));
      Runnable first_ = () -> {
        time(total, "TRUNCATE staging", () -> sql.execute("truncate", "TRUNCATE TABLE " + stagingName));
        Transform insert = BatchWriter.insertStatement(spec, columns, stagingName, hours.getFirst(), to, settings,
            "bench-breakdown");
        time(total, "INSERT … SELECT into staging", () -> sql.execute("insert", insert.sql(), insert.values().toArray()));
        time(total, "checksum the staged hours", () -> sql.query("checksum",
            BatchWriter.checksumQuery(stagingName, "", columns, spec.timeColumn()), rs -> rs.getLong(1)));
        time(total, "ALTER … REPLACE PARTITION × batch", () -> sql.execute("replace",
            BatchWriter.replaceStatement(spec, stagingName, hours)));
        time(total, "ledger INSERT", () -> store.hours().recordHours(entries(hours)));
      };
      Runnable now_ = () -> {
        writer.write(now, hours, false, () -> { });
        store.hours().recordHours(entries(hours));
      };
      // Both overwrite the same hours of the target; which goes first alternates, so neither always replaces empty partitions.
      if (b % 2 == 0) {
        time(total, FIRST, first_);
        time(total, NOW, now_);
      } else {
        time(total, NOW, now_);
        time(total, FIRST, first_);
      }
      from = to;
    }
    sql.execute("drop", "DROP TABLE IF EXISTS " + stagingName);
    sql.execute("drop", "DROP TABLE IF EXISTS " + spec.qualified(now));
    sql.execute("drop", "DROP TABLE IF EXISTS " + spec.qualified(direct));
    return total;
  }

  private static List<LedgerEntry> entries(List<HourPartition> hours) {
    Instant at = Instant.now();
    return hours.stream().map(h -> new LedgerEntry("bench-breakdown", h, LedgerEntry.State.WRITTEN, 1, 1, 1, at, ""))
        .toList();
  }

  private static void time(Map<String, List<Double>> total, String step, Runnable work) {
    long t0 = System.nanoTime();
    work.run();
    total.get(step).add((System.nanoTime() - t0) / 1e6);
  }
}
