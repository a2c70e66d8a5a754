package dev.cutover.engine.ledger;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The ledger: one line per run and hour, what the run wrote there (rows, checksum, attempts) or
 * why it failed. It is what a resumed run replaces, what the coverage proof counts, and what tells
 * hours a backfill wrote from hours another writer wrote.
 */
public final class HourLedger {

  private final Sql sql;
  private final Identifier database;
  private final BooleanSupplier present;
  private final JsonRows rows;

  HourLedger(Sql sql, Identifier database, BooleanSupplier present) {
    this.sql = sql;
    this.database = database;
    this.present = present;
    this.rows = new JsonRows(sql, database, "ledger");
  }

  private String t(String table) {
    return database.quoted() + "." + table;
  }

  /** Records each hour's latest attempt; a later entry of the same run and hour replaces it. */
  public void recordHours(List<LedgerEntry> entries) {
    long version = StateStore.versionNow();
    rows.insert("record " + entries.size() + " hours in the ledger", "run_id, hour, state, rows, checksum, attempts, at, "
        + "error, version", entries.stream().map(e -> new Object[] {e.runId(), e.hour().epochSecond(), e.state().name(),
            e.rows(), e.checksum(), e.attempts(), JsonRows.instant(e.at().toEpochMilli()),
            e.error() == null ? "" : e.error(), version}).toList());
  }

  /** The ledger of one run, by hour. */
  public TreeMap<HourPartition, LedgerEntry> ledger(String runId) {
    return latestPerHour("run " + runId, "run_id = ?", runId);
  }

  /**
   * The ledger of a repair: for each hour, the latest entry of any of its runs. A later run that
   * wrote the hour again replaces what an earlier one recorded.
   */
  public TreeMap<HourPartition, LedgerEntry> repairLedger(String repairId) {
    return latestPerHour("repair " + repairId, "run_id IN (SELECT id FROM " + t("runs") + " FINAL WHERE repair_id = ?)",
        repairId);
  }

  /**
   * For each hour of a target, the latest entry of any of its runs, of any repair: which hours of
   * v2 some backfill wrote, as opposed to another writer.
   */
  public TreeMap<HourPartition, LedgerEntry> targetLedger(String target) {
    return latestPerHour(target, "run_id IN (SELECT id FROM " + t("runs") + " FINAL WHERE target = ?)", target);
  }

  /** For each hour, the latest ledger entry of the runs {@code runs} selects (one bound value). */
  private TreeMap<HourPartition, LedgerEntry> latestPerHour(String whose, String runs, String value) {
    TreeMap<HourPartition, LedgerEntry> out = new TreeMap<>();
    if (!present.getAsBoolean()) {
      return out;
    }
    sql.query("read the ledger of " + whose, "SELECT argMax(run_id, at), toUnixTimestamp(hour), argMax(state, at), "
            + "argMax(rows, at), argMax(checksum, at), argMax(attempts, at), toUnixTimestamp64Milli(max(at)), "
            + "argMax(error, at) FROM " + t("ledger") + " FINAL WHERE " + runs + " GROUP BY hour ORDER BY hour",
        rs -> new LedgerEntry(rs.getString(1), HourPartition.ofEpochSecond(rs.getLong(2)),
            LedgerEntry.State.valueOf(rs.getString(3)), rs.getLong(4), rs.getLong(5), rs.getInt(6),
            Instant.ofEpochMilli(rs.getLong(7)), rs.getString(8)), value)
        .forEach(e -> out.put(e.hour(), e));
    return out;
  }
}
