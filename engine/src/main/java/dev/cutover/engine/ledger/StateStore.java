package dev.cutover.engine.ledger;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.sql.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The engine's own state in ClickHouse, in the working database: runs, the per-hour ledger, and
 * the audit trail. A second operator, or the same one after a crash, reads the same state.
 *
 * <p>Runs and ledger rows are versioned rows in ReplacingMergeTree tables, read with FINAL; the
 * audit trail only grows.
 */
public final class StateStore {

  /** A run whose heartbeat is older than this is taken to have lost its process. */
  public static final Duration STALE_AFTER = Duration.ofSeconds(45);

  private final Sql sql;
  private final Identifier database;
  private volatile boolean present;

  public StateStore(Sql sql, String database) {
    this.sql = sql;
    this.database = Identifier.simple("database", database);
  }

  private String t(String table) {
    return database.quoted() + "." + table;
  }

  public String database() {
    return database.name();
  }

  /**
   * Whether the state tables exist. Reading never creates them, so a command refused for bad input,
   * or a status on a fresh database, leaves the server as it was.
   */
  public boolean present() {
    if (!present) {
      boolean found = sql.queryLong("look for Cutover's state tables", "SELECT count() FROM system.tables WHERE "
          + "database = ? AND name IN ('runs', 'ledger', 'audit')", database.name()) == 3;
      if (found) {
        ensureSchema(); // tables of an earlier version get the columns this one reads
      }
    }
    return present;
  }

  /** Creates the state tables when absent, once per store. */
  public void ensureSchema() {
    if (present) {
      return;
    }
    sql.execute("create the runs table", "CREATE TABLE IF NOT EXISTS " + t("runs") + " ("
        + "id String, repair_id String, spec_name String, spec_hash String, target String, range_from DateTime('UTC'), "
        + "range_to DateTime('UTC'), boundary DateTime('UTC'), parameters String, os_user String, host String, "
        + "pid UInt64, tool_version String, created DateTime64(3, 'UTC'), heartbeat DateTime64(3, 'UTC'), state String, "
        + "message String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY id");
    // Runs recorded before repairs existed belong to none.
    sql.execute("add the repair to the runs table", "ALTER TABLE " + t("runs") + " ADD COLUMN IF NOT EXISTS repair_id "
        + "String AFTER id");
    sql.execute("create the ledger table", "CREATE TABLE IF NOT EXISTS " + t("ledger") + " ("
        + "run_id String, hour DateTime('UTC'), state String, rows UInt64, checksum Int64, attempts UInt32, "
        + "at DateTime64(3, 'UTC'), error String, version UInt64) "
        + "ENGINE = ReplacingMergeTree(version) ORDER BY (run_id, hour)");
    sql.execute("create the audit table", "CREATE TABLE IF NOT EXISTS " + t("audit") + " ("
        + "at DateTime64(3, 'UTC'), actor String, host String, subject String, action String, detail String) "
        + "ENGINE = MergeTree ORDER BY (at, subject)");
    present = true;
  }

  public void saveRun(RunRecord run) {
    sql.execute("record run " + run.id(), "INSERT INTO " + t("runs") + " (id, repair_id, spec_name, spec_hash, target, "
            + "range_from, range_to, boundary, parameters, os_user, host, pid, tool_version, created, heartbeat, state, "
            + "message, version) VALUES (?, ?, ?, ?, ?, toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), "
            + "?, ?, ?, ?, ?, fromUnixTimestamp64Milli(?, 'UTC'), fromUnixTimestamp64Milli(?, 'UTC'), ?, ?, ?)",
        run.id(), run.repairId(), run.specName(), run.specHash(), run.target(), run.range().from().epochSecond(),
        run.range().to().epochSecond(), run.boundary().epochSecond(), run.parameters(), run.osUser(), run.host(),
        run.pid(), run.toolVersion(), run.created().toEpochMilli(), run.heartbeat().toEpochMilli(), run.state().name(),
        run.message(), versionNow());
  }

  private static final String RUN_COLUMNS = "id, repair_id, spec_name, spec_hash, target, toUnixTimestamp(range_from), "
      + "toUnixTimestamp(range_to), toUnixTimestamp(boundary), parameters, os_user, host, pid, tool_version, "
      + "toUnixTimestamp64Milli(created), toUnixTimestamp64Milli(heartbeat), state, message";

  private static RunRecord run(ResultSet rs) throws SQLException {
    return new RunRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
        new HourRange(HourPartition.ofEpochSecond(rs.getLong(6)), HourPartition.ofEpochSecond(rs.getLong(7))),
        HourPartition.ofEpochSecond(rs.getLong(8)), rs.getString(9), rs.getString(10), rs.getString(11),
        rs.getLong(12), rs.getString(13), Instant.ofEpochMilli(rs.getLong(14)), Instant.ofEpochMilli(rs.getLong(15)),
        RunState.valueOf(rs.getString(16)), rs.getString(17));
  }

  public Optional<RunRecord> run(String id) {
    if (!present()) {
      return Optional.empty();
    }
    return sql.query("read run " + id, "SELECT " + RUN_COLUMNS + " FROM " + t("runs") + " FINAL WHERE id = ?",
        StateStore::run, id).stream().findFirst();
  }

  /** Runs, newest first; for one target when {@code target} is not null. */
  public List<RunRecord> runs(String target) {
    if (!present()) {
      return List.of();
    }
    String where = target == null ? "" : " WHERE target = ?";
    Object[] values = target == null ? new Object[0] : new Object[] {target};
    return sql.query("list runs", "SELECT " + RUN_COLUMNS + " FROM " + t("runs") + " FINAL" + where
        + " ORDER BY created DESC", StateStore::run, values);
  }

  /** The run that holds {@code target} now: active with a fresh heartbeat. */
  public Optional<RunRecord> activeRun(String target, Instant now) {
    return runs(target).stream().filter(r -> r.state().active() && !r.interrupted(now, STALE_AFTER)).findFirst();
  }

  /** Moves a run to a new state, refusing transitions its state machine does not allow. */
  public RunRecord transition(RunRecord run, RunState to, String message) {
    RunRecord current = run(run.id()).orElse(run);
    if (current.state() != to && !current.state().canBecome(to)) {
      throw new InvalidInputException("run", "Run " + run.id() + " is " + current.state().name().toLowerCase()
          + " and cannot become " + to.name().toLowerCase() + ".");
    }
    RunRecord next = current.with(to, message, Instant.now());
    saveRun(next);
    return next;
  }

  public void heartbeat(RunRecord run) {
    run(run.id()).filter(r -> r.state().active()).ifPresent(r -> saveRun(r.with(r.state(), r.message(), Instant.now())));
  }

  public void recordHours(List<LedgerEntry> entries) {
    if (entries.isEmpty()) {
      return;
    }
    StringBuilder values = new StringBuilder();
    Object[] binds = new Object[entries.size() * 9];
    int i = 0;
    long version = versionNow();
    for (LedgerEntry e : entries) {
      values.append(values.isEmpty() ? "" : ", ")
          .append("(?, toDateTime(?, 'UTC'), ?, ?, ?, ?, fromUnixTimestamp64Milli(?, 'UTC'), ?, ?)");
      binds[i++] = e.runId();
      binds[i++] = e.hour().epochSecond();
      binds[i++] = e.state().name();
      binds[i++] = e.rows();
      binds[i++] = e.checksum();
      binds[i++] = e.attempts();
      binds[i++] = e.at().toEpochMilli();
      binds[i++] = e.error() == null ? "" : e.error();
      binds[i++] = version;
    }
    sql.execute("record " + entries.size() + " hours in the ledger", "INSERT INTO " + t("ledger")
        + " (run_id, hour, state, rows, checksum, attempts, at, error, version) VALUES " + values, binds);
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
    if (!present()) {
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

  /** The runs of one repair, newest first. */
  public List<RunRecord> repairRuns(String repairId) {
    if (!present()) {
      return List.of();
    }
    return sql.query("list the runs of repair " + repairId, "SELECT " + RUN_COLUMNS + " FROM " + t("runs")
        + " FINAL WHERE repair_id = ? ORDER BY created DESC", StateStore::run, repairId);
  }

  public void audit(String subject, String action, String detail) {
    sql.execute("write the audit trail", "INSERT INTO " + t("audit") + " (at, actor, host, subject, action, detail) "
            + "VALUES (fromUnixTimestamp64Milli(?, 'UTC'), ?, ?, ?, ?, ?)",
        Instant.now().toEpochMilli(), Operator.user(), Operator.host(), subject, action, detail);
  }

  public List<AuditEntry> auditTrail(String subject, int limit) {
    if (!present()) {
      return List.of();
    }
    String where = subject == null ? "" : " WHERE subject = ?";
    Object[] values = subject == null ? new Object[] {limit} : new Object[] {subject, limit};
    return sql.query("read the audit trail", "SELECT toUnixTimestamp64Milli(at), actor, host, subject, action, detail FROM "
            + t("audit") + where + " ORDER BY at DESC LIMIT ?",
        rs -> new AuditEntry(Instant.ofEpochMilli(rs.getLong(1)), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5), rs.getString(6)), values);
  }

  private static final java.util.concurrent.atomic.AtomicLong LAST_VERSION = new java.util.concurrent.atomic.AtomicLong();

  /** Strictly increasing within this process, and ordered by wall-clock time across processes. */
  private static long versionNow() {
    long now = System.currentTimeMillis() * 1000;
    return LAST_VERSION.updateAndGet(last -> Math.max(last + 1, now));
  }
}
