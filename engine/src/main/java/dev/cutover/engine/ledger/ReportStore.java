package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.sql.Sql;
import java.sql.Array;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reconciliation reports, acknowledgements and cutover records in the working database, beside the
 * runs and ledger of {@link StateStore}.
 */
public final class ReportStore {

  /** The header of a stored reconciliation: enough for the cutover gate and the history screen. */
  public record Summary(String id, String target, Instant created, HourRange window, HourPartition boundary,
      Reconciliation.Verdict verdict, long hours, long differingHours, long expectedKeys, long unexpectedKeys,
      long acknowledged, long coverageIssues) {}

  /** One swap of the consumer view, or a drop of v1. */
  public record SwapRecord(String target, String action, Instant at, String by, String statement, String detail) {}

  private final Sql sql;
  private final Identifier database;
  private volatile boolean present;

  public ReportStore(Sql sql, String database) {
    this.sql = sql;
    this.database = Identifier.simple("database", database);
  }

  private String t(String table) {
    return database.quoted() + "." + table;
  }

  /** Whether the report tables exist; reading never creates them. */
  public boolean present() {
    if (!present) {
      present = sql.queryLong("look for Cutover's report tables", "SELECT count() FROM system.tables WHERE database = ? "
          + "AND name IN ('reconciliations', 'reconciliation_hours', 'reconciliation_keys', 'acknowledgements', 'swaps')",
          database.name()) == 5;
    }
    return present;
  }

  public void ensureSchema() {
    sql.execute("create the reconciliations table", "CREATE TABLE IF NOT EXISTS " + t("reconciliations") + " ("
        + "id String, target String, spec String, created DateTime64(3, 'UTC'), window_from DateTime('UTC'), "
        + "window_to DateTime('UTC'), boundary DateTime('UTC'), verdict String, hours UInt64, differing_hours UInt64, "
        + "expected_keys UInt64, unexpected_keys UInt64, acknowledged UInt64, coverage_issues UInt64, by String) "
        + "ENGINE = MergeTree ORDER BY (target, created)");
    sql.execute("create the reconciliation hours table", "CREATE TABLE IF NOT EXISTS " + t("reconciliation_hours")
        + " (id String, hour DateTime('UTC'), owner String, status String, rows_v1 UInt64, rows_v2 UInt64, "
        + "measures Array(String), totals_v1 Array(Float64), totals_v2 Array(Float64)) ENGINE = MergeTree ORDER BY (id, hour)");
    sql.execute("create the reconciliation keys table", "CREATE TABLE IF NOT EXISTS " + t("reconciliation_keys")
        + " (id String, hour DateTime('UTC'), key Array(String), kind String, rule String, measures Array(String), "
        + "v1 Array(Float64), v2 Array(Float64)) ENGINE = MergeTree ORDER BY (id, hour)");
    sql.execute("create the reconciliation counts table", "CREATE TABLE IF NOT EXISTS " + t("reconciliation_counts")
        + " (id String, hour DateTime('UTC'), class String, keys UInt64) ENGINE = MergeTree ORDER BY (id, hour)");
    sql.execute("create the acknowledgements table", "CREATE TABLE IF NOT EXISTS " + t("acknowledgements")
        + " (target String, hour DateTime('UTC'), key Array(String), reason String, by String, at DateTime64(3, 'UTC')) "
        + "ENGINE = MergeTree ORDER BY (target, hour)");
    sql.execute("create the swaps table", "CREATE TABLE IF NOT EXISTS " + t("swaps") + " (target String, action String, "
        + "at DateTime64(3, 'UTC'), by String, statement String, detail String) ENGINE = MergeTree ORDER BY (target, at)");
    present = true;
  }

  public void save(Reconciliation r) {
    Map<HourPartition, Reconciliation.HourClass> classes = new TreeMap<>();
    r.classes().forEach(c -> classes.put(c.hour(), c));
    for (int i = 0; i < r.hours().size(); i += 500) {
      List<Diff.HourDiff> chunk = r.hours().subList(i, Math.min(r.hours().size(), i + 500));
      StringBuilder values = new StringBuilder();
      Object[] binds = new Object[chunk.size() * 9];
      int b = 0;
      for (Diff.HourDiff h : chunk) {
        values.append(values.isEmpty() ? "" : ", ").append("(?, toDateTime(?, 'UTC'), ?, ?, ?, ?, ?, ?, ?)");
        var c = classes.get(h.hour());
        binds[b++] = r.id();
        binds[b++] = h.hour().epochSecond();
        binds[b++] = c == null ? "" : c.owner().name();
        binds[b++] = c == null ? "" : c.status().name();
        binds[b++] = h.rowsV1();
        binds[b++] = h.rowsV2();
        binds[b++] = h.totals().stream().map(t -> t.measure().name()).toList();
        binds[b++] = h.totals().stream().map(Diff.Total::v1).toList();
        binds[b++] = h.totals().stream().map(Diff.Total::v2).toList();
      }
      sql.execute("store reconciliation hours", "INSERT INTO " + t("reconciliation_hours") + " VALUES " + values, binds);
    }
    for (int i = 0; i < r.keys().size(); i += 500) {
      List<Diff.KeyDiff> chunk = r.keys().subList(i, Math.min(r.keys().size(), i + 500));
      StringBuilder values = new StringBuilder();
      Object[] binds = new Object[chunk.size() * 8];
      int b = 0;
      for (Diff.KeyDiff k : chunk) {
        values.append(values.isEmpty() ? "" : ", ").append("(?, toDateTime(?, 'UTC'), ?, ?, ?, ?, ?, ?)");
        binds[b++] = r.id();
        binds[b++] = k.hour().epochSecond();
        binds[b++] = k.key();
        binds[b++] = k.kind().name();
        binds[b++] = k.rule().orElse("");
        binds[b++] = k.v1().keySet().stream().map(Identifier::name).toList();
        binds[b++] = k.v1().keySet().stream().map(m -> k.v1().get(m)).toList();
        binds[b++] = k.v1().keySet().stream().map(m -> k.v2().getOrDefault(m, 0.0)).toList();
      }
      sql.execute("store reconciliation keys", "INSERT INTO " + t("reconciliation_keys") + " VALUES " + values, binds);
    }
    List<Object[]> countRows = new java.util.ArrayList<>();
    r.counts().forEach((hour, byClass) -> byClass.forEach((cls, n) -> countRows.add(new Object[] {hour.epochSecond(), cls, n})));
    for (int i = 0; i < countRows.size(); i += 1000) {
      List<Object[]> chunk = countRows.subList(i, Math.min(countRows.size(), i + 1000));
      StringBuilder values = new StringBuilder();
      Object[] binds = new Object[chunk.size() * 4];
      int b = 0;
      for (Object[] row : chunk) {
        values.append(values.isEmpty() ? "" : ", ").append("(?, toDateTime(?, 'UTC'), ?, ?)");
        binds[b++] = r.id();
        binds[b++] = row[0];
        binds[b++] = row[1];
        binds[b++] = row[2];
      }
      sql.execute("store reconciliation counts", "INSERT INTO " + t("reconciliation_counts") + " VALUES " + values, binds);
    }
    // The header goes last: a report whose process died while saving it has no header and is never read.
    long expected = r.expectedKeys();
    sql.execute("store reconciliation " + r.id(), "INSERT INTO " + t("reconciliations") + " VALUES (?, ?, ?, "
            + "fromUnixTimestamp64Milli(?, 'UTC'), toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), ?, ?, ?, ?, ?, ?, ?, ?)",
        r.id(), r.target(), r.spec(), r.created().toEpochMilli(), r.window().from().epochSecond(),
        r.window().to().epochSecond(), r.boundary().epochSecond(), r.verdict().name(), (long) r.hours().size(),
        r.hours().stream().filter(h -> !h.identical()).count(), expected, r.unexpectedKeys(), (long) r.acknowledged().size(),
        (long) r.coverage().size(), Operator.user());
  }

  private static final String SUMMARY = "SELECT id, target, toUnixTimestamp64Milli(created), toUnixTimestamp(window_from), "
      + "toUnixTimestamp(window_to), toUnixTimestamp(boundary), verdict, hours, differing_hours, expected_keys, "
      + "unexpected_keys, acknowledged, coverage_issues FROM ";

  private static Summary summary(java.sql.ResultSet rs) throws SQLException {
    return new Summary(rs.getString(1), rs.getString(2), Instant.ofEpochMilli(rs.getLong(3)),
        new HourRange(HourPartition.ofEpochSecond(rs.getLong(4)), HourPartition.ofEpochSecond(rs.getLong(5))),
        HourPartition.ofEpochSecond(rs.getLong(6)), Reconciliation.Verdict.valueOf(rs.getString(7)), rs.getLong(8),
        rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12), rs.getLong(13));
  }

  public List<Summary> reconciliations(String target) {
    if (!present()) {
      return List.of();
    }
    return sql.query("list reconciliations", SUMMARY + t("reconciliations") + " WHERE target = ? ORDER BY created DESC",
        ReportStore::summary, target);
  }

  public Optional<Summary> latest(String target) {
    return reconciliations(target).stream().findFirst();
  }

  public void acknowledge(String target, HourPartition hour, List<String> key, String reason) {
    sql.execute("record the acknowledgement", "INSERT INTO " + t("acknowledgements") + " VALUES (?, toDateTime(?, 'UTC'), "
        + "?, ?, ?, fromUnixTimestamp64Milli(?, 'UTC'))", target, hour.epochSecond(), key, reason, Operator.user(),
        Instant.now().toEpochMilli());
  }

  public List<Acknowledgement> acknowledgements(String target) {
    if (!present()) {
      return List.of();
    }
    return sql.query("read acknowledgements", "SELECT toUnixTimestamp(hour), key, reason, by, toUnixTimestamp64Milli(at) FROM "
        + t("acknowledgements") + " WHERE target = ? ORDER BY hour", rs -> new Acknowledgement(
            HourPartition.ofEpochSecond(rs.getLong(1)), strings(rs.getArray(2)), rs.getString(3), rs.getString(4),
            Instant.ofEpochMilli(rs.getLong(5))), target);
  }

  /** For each hour of a target, the latest ledger entry of any run. */
  public TreeMap<HourPartition, LedgerEntry> latestLedger(String target) {
    TreeMap<HourPartition, LedgerEntry> out = new TreeMap<>();
    if (!new StateStore(sql, database.name()).present()) {
      return out;
    }
    sql.query("read the ledger of " + target, "SELECT any(run_id), toUnixTimestamp(hour), argMax(state, at), "
            + "argMax(rows, at), argMax(checksum, at), argMax(attempts, at), toUnixTimestamp64Milli(max(at)), "
            + "argMax(error, at) FROM " + t("ledger") + " FINAL WHERE run_id IN (SELECT id FROM " + t("runs")
            + " FINAL WHERE target = ?) GROUP BY hour ORDER BY hour",
        rs -> new LedgerEntry(rs.getString(1), HourPartition.ofEpochSecond(rs.getLong(2)),
            LedgerEntry.State.valueOf(rs.getString(3)), rs.getLong(4), rs.getLong(5), rs.getInt(6),
            Instant.ofEpochMilli(rs.getLong(7)), rs.getString(8)), target)
        .forEach(e -> out.put(e.hour(), e));
    return out;
  }

  public void recordSwap(SwapRecord s) {
    sql.execute("record the " + s.action(), "INSERT INTO " + t("swaps") + " VALUES (?, ?, fromUnixTimestamp64Milli(?, 'UTC'), "
        + "?, ?, ?)", s.target(), s.action(), s.at().toEpochMilli(), s.by(), s.statement(), s.detail());
  }

  public List<SwapRecord> swaps(String target) {
    if (!present()) {
      return List.of();
    }
    return sql.query("read the swaps", "SELECT target, action, toUnixTimestamp64Milli(at), by, statement, detail FROM "
        + t("swaps") + " WHERE target = ? ORDER BY at", rs -> new SwapRecord(rs.getString(1), rs.getString(2),
            Instant.ofEpochMilli(rs.getLong(3)), rs.getString(4), rs.getString(5), rs.getString(6)), target);
  }

  private static List<String> strings(Array array) throws SQLException {
    Object value = array.getArray();
    if (value instanceof Object[] items) {
      return Arrays.stream(items).map(String::valueOf).toList();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(String::valueOf).toList();
    }
    return List.of();
  }
}
