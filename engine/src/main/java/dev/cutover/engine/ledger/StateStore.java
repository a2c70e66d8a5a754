package dev.cutover.engine.ledger;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.sql.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The engine's own state in ClickHouse, in the working database: runs, the per-hour ledger, and
 * the audit trail. A second operator, or the same one after a crash, reads the same state.
 *
 * <p>Runs and ledger rows are versioned rows in ReplacingMergeTree tables, read with FINAL; the
 * audit trail only grows. A run's state changes by compare-and-set: each record of a run has a step,
 * and only the writer that claims the next step ({@link RunClaims}) writes it. The row's version
 * orders by step first, so a heartbeat written at an older step never outlives a newer state, not
 * even when the server merges the rows.
 */
public final class StateStore {



  /**
   * A step weighs more than any time-based version (microseconds since 1970 stay below 2^52 until
   * 2112); rows written before steps existed are step 0 by this rule. A UInt64 version leaves room
   * for 2047 steps per run.
   */
  private static final long STEP_WEIGHT = 1L << 52;
  private static final long MAX_STEP = Long.MAX_VALUE / STEP_WEIGHT;

  private final Sql sql;
  private final Identifier database;
  private final RunClaims claims;
  private final HourLedger hours;
  private volatile boolean present;

  public StateStore(Sql sql, String database) {
    this.sql = sql;
    this.database = Identifier.simple("database", database);
    this.claims = new RunClaims(sql, this.database);
    this.hours = new HourLedger(sql, this.database, this::present);
  }

  private String t(String table) {
    return database.quoted() + "." + table;
  }

  /** The ledger of the hours runs wrote. */
  public HourLedger hours() {
    return hours;
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
        // Tables of an earlier version get the columns this one reads; at this version, nothing is run.
        present = CutoverSchema.readable(sql, database);
      }
    }
    return present;
  }

  /** Creates Cutover's tables when absent, or brings them to this version ({@link CutoverSchema}), once per store. */
  public void ensureSchema() {
    if (present) {
      return;
    }
    CutoverSchema.ensure(sql, database);
    present = true;
  }

  /**
   * Writes a run's record at the step it is at (step 0 for a new run): a change that is no state
   * change, such as its throttle. A state change goes through {@link #transition}.
   */
  public void saveRun(RunRecord run) {
    write(run, stored(run.id()).map(Stored::step).orElse(0L));
  }

  private void write(RunRecord run, long step) {
    sql.execute("record run " + run.id(), "INSERT INTO " + t("runs") + " (id, repair_id, spec_name, spec_hash, target, "
            + "range_from, range_to, boundary, parameters, os_user, host, pid, tool_version, created, heartbeat, state, "
            + "message, step, version) VALUES (?, ?, ?, ?, ?, toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), "
            + "toDateTime(?, 'UTC'), ?, ?, ?, ?, ?, fromUnixTimestamp64Milli(?, 'UTC'), fromUnixTimestamp64Milli(?, 'UTC'), "
            + "?, ?, ?, ?)",
        run.id(), run.repairId(), run.specName(), run.specHash(), run.target(), run.range().from().epochSecond(),
        run.range().to().epochSecond(), run.boundary().epochSecond(), run.parameters(), run.osUser(), run.host(),
        run.pid(), run.toolVersion(), run.created().toEpochMilli(), run.heartbeat().toEpochMilli(), run.state().name(),
        run.message(), step, step * STEP_WEIGHT + versionNow());
  }

  private static final String RUN_COLUMNS = "id, repair_id, spec_name, spec_hash, target, toUnixTimestamp(range_from), "
      + "toUnixTimestamp(range_to), toUnixTimestamp(boundary), parameters, os_user, host, pid, tool_version, "
      + "toUnixTimestamp64Milli(created), toUnixTimestamp64Milli(heartbeat), state, message, step";

  /** A run's record with the step it was written at. */
  private record Stored(RunRecord run, long step) {}

  /** The record as read, with what is known of its process decided here, where runs are read. */
  private static RunRecord run(ResultSet rs) throws SQLException {
    RunRecord read = new RunRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
        new HourRange(HourPartition.ofEpochSecond(rs.getLong(6)), HourPartition.ofEpochSecond(rs.getLong(7))),
        HourPartition.ofEpochSecond(rs.getLong(8)), rs.getString(9), rs.getString(10), rs.getString(11),
        rs.getLong(12), rs.getString(13), Instant.ofEpochMilli(rs.getLong(14)), Instant.ofEpochMilli(rs.getLong(15)),
        RunState.valueOf(rs.getString(16)), rs.getString(17));
    return new RunRecord(read.id(), read.repairId(), read.specName(), read.specHash(), read.target(), read.range(),
        read.boundary(), read.parameters(), read.osUser(), read.host(), read.pid(), read.toolVersion(), read.created(),
        read.heartbeat(), read.state(), read.message(), LiveRuns.process(read));
  }

  private Optional<Stored> stored(String id) {
    if (!present()) {
      return Optional.empty();
    }
    return sql.query("read run " + id, "SELECT " + RUN_COLUMNS + " FROM " + t("runs") + " FINAL WHERE id = ?",
        rs -> new Stored(run(rs), rs.getLong(18)), id).stream().findFirst();
  }

  public Optional<RunRecord> run(String id) {
    return stored(id).map(Stored::run);
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
    return runs(target).stream().filter(r -> r.state().active() && !r.interrupted(now, RunRecord.STALE_AFTER))
        .findFirst();
  }

  /**
   * Moves a run to a new state by compare-and-set: of two writers that move the same run at once,
   * one wins and the other is refused. A transition the run's state machine does not allow is
   * refused too.
   *
   * <pre>{@code
   * RunRecord paused = store.transition(run, RunState.PAUSED, "paused by alice");
   * }</pre>
   *
   * @throws HeldByAnotherProcessException when another writer moved the run at the same moment; the
   *     sentence names the run and the state it is in now, the fields who moved it and when
   * @throws InvalidInputException when the run's state cannot become {@code to}
   */
  public RunRecord transition(RunRecord run, RunState to, String message) {
    return advance(run, current -> current.with(to, message, Instant.now()));
  }

  /**
   * Records {@code next} as the run's new record, by the same compare-and-set as {@link
   * #transition}: a resume, which also changes the process, the user and the throttle.
   */
  public RunRecord replace(RunRecord next) {
    return advance(next, current -> next);
  }

  private RunRecord advance(RunRecord run, java.util.function.UnaryOperator<RunRecord> change) {
    for (boolean retried = false; ; retried = true) {
      Stored current = stored(run.id()).orElse(new Stored(run, 0));
      RunRecord next = change.apply(current.run());
      RunState from = current.run().state();
      if (from != next.state() && !from.canBecome(next.state())) {
        throw new InvalidInputException("run", "Run " + run.id() + " is " + words(from) + " and cannot become "
            + words(next.state()) + ".");
      }
      long step = current.step() + 1;
      if (step > MAX_STEP) {
        throw new IllegalStateException("run " + run.id() + " changed state " + MAX_STEP + " times");
      }
      if (!claims.claim(run.id(), step, next.state())) {
        if (!retried && stored(run.id()).map(Stored::step).orElse(0L) == current.step()
            && claims.withdrawAbandoned(run.id(), step, RunRecord.STALE_AFTER)) {
          continue;
        }
        throw lost(run.id(), step, next.state());
      }
      if (stored(run.id()).map(Stored::step).orElse(0L) != current.step()) {
        // This writer read a step so old that its successor's claim was already dropped: the run moved on.
        claims.withdraw(run.id(), step);
        throw lost(run.id(), step, next.state());
      }
      write(next, step);
      claims.forget(run.id(), step, next.state());
      return next;
    }
  }

  /**
   * The refusal for a writer that lost: what the run is now, by the record or the winner's claim, and who
   * moved it when, by the winner's claim (by the run's own process once the claim is gone).
   */
  private HeldByAnotherProcessException lost(String runId, long step, RunState wanted) {
    String state = stateAt(runId, step).map(StateStore::words).orElse("changed");
    Optional<RunClaims.Note> claim = claims.note(runId, step);
    Optional<RunRecord> now = run(runId);
    Repair.Actor writer = claim.map(RunClaims.Note::writer).or(() -> now.map(r -> new Repair.Actor(r.osUser(),
        r.host(), r.pid()))).orElse(new Repair.Actor("", "", 0));
    Instant since = claim.map(RunClaims.Note::at).or(() -> now.map(RunRecord::heartbeat)).orElse(Instant.now());
    return new HeldByAnotherProcessException("backfill", Repair.Operation.BACKFILL, Optional.of(runId), writer, since,
        "Run " + runId + " is now " + state + ": another writer moved it at the same moment, so it did not become "
            + words(wanted) + ".", "Nothing was changed; look at the run again and decide.");
  }

  /** The state the winner of {@code step} moved the run to: its record once written, its claim's note before. */
  private Optional<RunState> stateAt(String runId, long step) {
    Optional<Stored> now = stored(runId);
    if (now.filter(s -> s.step() >= step).isPresent()) {
      return now.map(s -> s.run().state());
    }
    Optional<RunState> claimed = claims.note(runId, step).map(RunClaims.Note::to);
    if (claimed.isPresent()) {
      return claimed;
    }
    // The winner wrote its record and dropped its claim between the two reads: the record is there now.
    return stored(runId).map(s -> s.run().state());
  }

  private static String words(RunState state) {
    return state.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Refreshes an active run's heartbeat at the step it is at: it never undoes a state change. */
  public void heartbeat(RunRecord run) {
    stored(run.id()).filter(s -> s.run().state().active())
        .ifPresent(s -> write(s.run().with(s.run().state(), s.run().message(), Instant.now()), s.step()));
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
    return sql.query("read the audit trail", "SELECT " + AUDIT_COLUMNS + " FROM " + t("audit") + where
        + " ORDER BY at DESC LIMIT ?", StateStore::auditEntry, values);
  }

  /** The entries of {@code action} about the runs of {@code target} ({@code database.table}), newest first. */
  public List<AuditEntry> runAudit(String target, String action) {
    if (!present()) {
      return List.of();
    }
    return sql.query("read the audit trail of the runs of " + target, "SELECT " + AUDIT_COLUMNS + " FROM " + t("audit")
        + " WHERE action = ? AND subject IN (SELECT id FROM " + t("runs") + " WHERE target = ?) ORDER BY at DESC",
        StateStore::auditEntry, action, target);
  }

  /** The newest entry about {@code subject} of {@code action} whose detail starts with {@code prefix}. */
  public Optional<AuditEntry> newestAudit(String subject, String action, String prefix) {
    if (!present()) {
      return Optional.empty();
    }
    return sql.query("read the audit trail", "SELECT " + AUDIT_COLUMNS + " FROM " + t("audit") + " WHERE subject = ? "
        + "AND action = ? AND startsWith(detail, ?) ORDER BY at DESC LIMIT 1", StateStore::auditEntry, subject, action,
        prefix).stream().findFirst();
  }

  private static final String AUDIT_COLUMNS = "toUnixTimestamp64Milli(at), actor, host, subject, action, detail";

  private static AuditEntry auditEntry(ResultSet rs) throws SQLException {
    return new AuditEntry(Instant.ofEpochMilli(rs.getLong(1)), rs.getString(2), rs.getString(3), rs.getString(4),
        rs.getString(5), rs.getString(6));
  }

  private static final java.util.concurrent.atomic.AtomicLong LAST_VERSION = new java.util.concurrent.atomic.AtomicLong();

  /** Strictly increasing within this process, and ordered by wall-clock time across processes. */
  static long versionNow() {
    long now = System.currentTimeMillis() * 1000;
    return LAST_VERSION.updateAndGet(last -> Math.max(last + 1, now));
  }
}
