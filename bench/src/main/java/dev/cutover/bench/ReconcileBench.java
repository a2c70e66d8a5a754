package dev.cutover.bench;

import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.BenchProbes;
import java.util.List;
import java.util.function.Supplier;

/**
 * Section 3: reconciliation of the backfilled history against one scan of both tables' hourly totals,
 * then, on a copy of v2 with one hour changed, what the checksum-first path reads.
 */
final class ReconcileBench {

  private static final String TOTALS = "SELECT count() FROM (SELECT toStartOfHour(hour) AS h, count(), sum(quantity), "
      + "sum(notional_usd), sum(fees_usd), sum(pnl_usd), sum(trade_count) FROM %s WHERE hour >= toDateTime(?, 'UTC') "
      + "AND hour < toDateTime(?, 'UTC') GROUP BY h)";

  private final BenchSql sql;
  private final Session session;
  private final Engine engine;
  private final TableSpec spec;
  private final Report report;

  ReconcileBench(BenchSql sql, Session session, Engine engine, TableSpec spec, Report report) {
    this.sql = sql;
    this.session = session;
    this.engine = engine;
    this.spec = spec;
    this.report = report;
  }

  /** The report of the whole-history reconciliation, for the UI section's chart. */
  Reconciliation run() {
    report.section("3. Reconciliation of the backfilled history (v1 against v2)");
    HourRange history = engine.backfills().runs(spec).getFirst().range();
    long t0 = System.nanoTime();
    Reconciliation r = engine.reconciliations().reconcile(spec, Reconciliation.Scope.HISTORY, 10_000);
    double took = seconds(t0);
    double scan = scan(spec.liveTable(), spec.targetTable(), history);
    long joinStart = System.nanoTime();
    long differing = joinFloor(history);
    double join = seconds(joinStart);
    report.row("one scan of both tables' hourly totals", scan, history.hours(), 0, 1);
    report.row(String.format("floor: one FULL OUTER JOIN of v1 and v2 on hour and keys that counts the differing "
        + "keys (%,d)", differing), join, history.hours(), 0, join / scan);
    report.row("Cutover reconciliation (" + r.verdict().name().toLowerCase() + ", " + r.expectedKeys()
        + " keys explained, " + r.unexpectedKeys() + " unexpected)", took, history.hours(), 0, took / scan);
    report.line(String.format("Cutover reconciliation / the join floor: %.2f× (target ≤ 1.5×).", took / join));
    try {
      oneChangedHour(history);
    } catch (RuntimeException e) {
      report.line("The one-changed-hour measurement failed: " + e.getMessage());
    } finally {
      sql.execute("drop copy", "DROP TABLE IF EXISTS " + q("pnl_copy"));
      sql.execute("drop hour", "DROP TABLE IF EXISTS " + q("pnl_one_hour"));
    }
    return r;
  }

  /**
   * The honest floor of a key-level comparison: each side grouped by hour and keys (a key's rows
   * summed, as the reconciliation sums them), joined on hour and keys, and the keys that differ
   * counted (missing on a side, more than one row, or any measure apart).
   */
  private long joinFloor(HourRange range) {
    String keys = spec.keys().stream().map(Identifier::quoted).collect(java.util.stream.Collectors.joining(", "));
    String time = spec.timeColumn().quoted();
    String sums = spec.measures().stream().map(m -> "sum(" + m.quoted() + ") AS " + Identifier.of("m_" + m.name())
        .quoted()).collect(java.util.stream.Collectors.joining(", "));
    String side = "SELECT toStartOfHour(" + time + ") AS h, " + keys + ", count() AS n, " + sums + " FROM %s WHERE "
        + time + " >= toDateTime(?, 'UTC') AND " + time + " < toDateTime(?, 'UTC') GROUP BY h, " + keys;
    String on = "a.h = b.h" + spec.keys().stream().map(k -> " AND a." + k.quoted() + " = b." + k.quoted())
        .collect(java.util.stream.Collectors.joining());
    String apart = spec.measures().stream().map(m -> "a." + Identifier.of("m_" + m.name()).quoted() + " != b."
        + Identifier.of("m_" + m.name()).quoted()).collect(java.util.stream.Collectors.joining(" OR "));
    return sql.queryLong("count the differing keys", "SELECT count() FROM (" + side.formatted(spec.qualified(
        spec.liveTable())) + ") AS a FULL OUTER JOIN (" + side.formatted(spec.qualified(spec.targetTable()))
        + ") AS b ON " + on + " WHERE a.n != 1 OR b.n != 1 OR " + apart, range.from().epochSecond(),
        range.to().epochSecond(), range.from().epochSecond(), range.to().epochSecond());
  }

  private double scan(Identifier a, Identifier b, HourRange range) {
    long t0 = System.nanoTime();
    for (Identifier table : List.of(a, b)) {
      sql.queryLong("scan totals", TOTALS.formatted(spec.qualified(table)), range.from().epochSecond(),
          range.to().epochSecond());
    }
    return seconds(t0);
  }

  /** v2 against a copy of itself with one hour changed: the key-level pass reads that hour only. */
  private void oneChangedHour(HourRange history) {
    Identifier v2 = spec.targetTable();
    Identifier copy = Identifier.of("pnl_copy");
    HourPartition changed = sql.firstHourWithRows(spec.qualified(v2), history.from().plusHours(history.hours() / 2));
    long t0 = System.nanoTime();
    String how = copyWithOneHourChanged(v2, copy, changed);
    double built = seconds(t0);
    long total = sql.queryLong("count", "SELECT count() FROM " + q(v2.name()));
    long hourRows = sql.queryLong("count", "SELECT count() FROM " + q(v2.name()) + " WHERE hour = toDateTime(?, 'UTC')",
        changed.epochSecond());
    double scan = scan(v2, copy, history);
    Measured<List<Diff.HourDiff>> hours = measure(() -> BenchProbes.hourDiffs(session, spec, v2, copy, history));
    List<HourPartition> differing = hours.value().stream().filter(h -> !h.identical()).map(Diff.HourDiff::hour).toList();
    Measured<List<Diff.KeyDiff>> keys = measure(() -> BenchProbes.keyDiffs(session, spec, v2, copy, differing, 100_000));
    report.line(String.format("One changed hour (%s, quantity + 1 on its %,d rows) in a copy of v2 (%,d rows; built by %s "
        + "in %.1f s). Rows read are the server's SelectedRows counter around each statement, run alone.", changed,
        hourRows, total, how, built));
    report.row("one scan of both tables' hourly totals", scan, history.hours(), 0, 1);
    report.row(String.format("hour-by-hour checksum pass: %d differing hour(s), %,d rows read", differing.size(),
        hours.rows()), hours.seconds(), history.hours(), 0, hours.seconds() / scan);
    report.row(String.format("key-level pass of the differing hour: %,d keys, %,d rows read (%.3f%% of both tables' "
        + "%,d)", keys.value().size(), keys.rows(), 100.0 * keys.rows() / (2.0 * total), 2 * total), keys.seconds(),
        differing.size(), 0, keys.seconds() / scan);
    report.row("both passes (what a reconciliation of these two tables costs)", hours.seconds() + keys.seconds(),
        history.hours(), 0, (hours.seconds() + keys.seconds()) / scan);
  }

  /** A copy of v2 with {@code hour}'s quantities raised by one; returns how it was built. */
  private String copyWithOneHourChanged(Identifier v2, Identifier copy, HourPartition hour) {
    sql.execute("drop copy", "DROP TABLE IF EXISTS " + q(copy.name()));
    try {
      // Hard links of every part of v2: no row is copied.
      sql.execute("clone v2", "CREATE TABLE " + q(copy.name()) + " CLONE AS " + q(v2.name()));
      Identifier one = Identifier.of("pnl_one_hour");
      sql.execute("drop hour", "DROP TABLE IF EXISTS " + q(one.name()));
      sql.execute("hour table", "CREATE TABLE " + q(one.name()) + " AS " + q(v2.name()));
      sql.execute("change one hour", "INSERT INTO " + q(one.name()) + " SELECT * REPLACE (quantity + 1 AS quantity) FROM "
          + q(v2.name()) + " WHERE hour = toDateTime(?, 'UTC')", hour.epochSecond());
      sql.execute("swap the hour in", "ALTER TABLE " + q(copy.name()) + " REPLACE PARTITION ID '" + hour.partitionId()
          + "' FROM " + q(one.name()));
      return "CREATE TABLE … CLONE AS and one REPLACE PARTITION";
    } catch (RuntimeException e) {
      sql.execute("drop copy", "DROP TABLE IF EXISTS " + q(copy.name()));
      sql.execute("copy", "CREATE TABLE " + q(copy.name()) + " AS " + q(v2.name()));
      sql.execute("copy with one hour changed", "INSERT INTO " + q(copy.name()) + " SELECT * REPLACE (if(hour = "
          + "toDateTime(?, 'UTC'), quantity + 1, quantity) AS quantity) FROM " + q(v2.name())
          + " SETTINGS max_partitions_per_insert_block = 100000", hour.epochSecond());
      return "one INSERT … SELECT that changes the hour";
    }
  }

  private record Measured<T>(T value, double seconds, long rows) {}

  private <T> Measured<T> measure(Supplier<T> work) {
    long before = selectedRows();
    long t0 = System.nanoTime();
    T value = work.get();
    double took = seconds(t0);
    return new Measured<>(value, took, selectedRows() - before);
  }

  /** The server's count of rows read from tables since it started (system.query_log is not kept by the embedded server). */
  private long selectedRows() {
    return sql.queryLong("read SelectedRows", "SELECT sum(value) FROM system.events WHERE event = 'SelectedRows'");
  }

  private String q(String table) {
    return spec.qualified(Identifier.of(table));
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
