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
  public record Summary(String id, String target, Reconciliation.Scope scope, String repairId, String specSha256,
      Instant created, HourRange window, HourPartition boundary, Reconciliation.Verdict verdict, long hours,
      long differingHours, long expectedKeys, long unexpectedKeys, long acknowledged, long coverageIssues) {}

  /** One hour of a stored reconciliation: what both versions held then, and how it was classified. */
  public record StoredHour(HourPartition hour, long rowsV1, long checksumV1, long rowsV2, long checksumV2,
      Reconciliation.HourStatus status) {}

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

  /**
   * Whether the report tables exist; reading never creates them. Tables written by an earlier
   * version get the columns this one reads.
   */
  public boolean present() {
    if (!present) {
      boolean found = sql.queryLong("look for Cutover's report tables", "SELECT count() FROM system.tables WHERE "
          + "database = ? AND name IN ('reconciliations', 'reconciliation_hours', 'reconciliation_keys', "
          + "'acknowledgements', 'swaps')", database.name()) == 5;
      if (found) {
        ensureSchema();
      }
    }
    return present;
  }

  public void ensureSchema() {
    if (present) {
      return;
    }
    sql.execute("create the reconciliations table", "CREATE TABLE IF NOT EXISTS " + t("reconciliations") + " ("
        + "id String, target String, spec String, created DateTime64(3, 'UTC'), window_from DateTime('UTC'), "
        + "window_to DateTime('UTC'), boundary DateTime('UTC'), verdict String, hours UInt64, differing_hours UInt64, "
        + "expected_keys UInt64, unexpected_keys UInt64, acknowledged UInt64, coverage_issues UInt64, by String) "
        + "ENGINE = MergeTree ORDER BY (target, created)");
    // Added with repairs: which repair, over which hours, under which spec; what each hour held.
    sql.execute("extend the reconciliations table", "ALTER TABLE " + t("reconciliations") + " ADD COLUMN IF NOT EXISTS "
        + "scope String, ADD COLUMN IF NOT EXISTS repair_id String, ADD COLUMN IF NOT EXISTS spec_hash String");
    sql.execute("create the reconciliation hours table", "CREATE TABLE IF NOT EXISTS " + t("reconciliation_hours")
        + " (id String, hour DateTime('UTC'), owner String, status String, rows_v1 UInt64, rows_v2 UInt64, "
        + "measures Array(String), totals_v1 Array(Float64), totals_v2 Array(Float64)) ENGINE = MergeTree ORDER BY (id, hour)");
    sql.execute("extend the reconciliation hours table", "ALTER TABLE " + t("reconciliation_hours") + " ADD COLUMN IF NOT "
        + "EXISTS checksum_v1 Int64, ADD COLUMN IF NOT EXISTS checksum_v2 Int64");
    sql.execute("create the reconciliation keys table", "CREATE TABLE IF NOT EXISTS " + t("reconciliation_keys")
        + " (id String, hour DateTime('UTC'), key Array(String), kind String, rule String, measures Array(String), "
        + "v1 Array(Float64), v2 Array(Float64)) ENGINE = MergeTree ORDER BY (id, hour)");
    sql.execute("create the reconciliation counts table", "CREATE TABLE IF NOT EXISTS " + t("reconciliation_counts")
        + " (id String, hour DateTime('UTC'), class String, keys UInt64) ENGINE = MergeTree ORDER BY (id, hour)");
    sql.execute("create the acknowledgements table", "CREATE TABLE IF NOT EXISTS " + t("acknowledgements")
        + " (target String, hour DateTime('UTC'), key Array(String), reason String, by String, at DateTime64(3, 'UTC')) "
        + "ENGINE = MergeTree ORDER BY (target, hour)");
    sql.execute("extend the acknowledgements table", "ALTER TABLE " + t("acknowledgements") + " ADD COLUMN IF NOT "
        + "EXISTS repair_id String");
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
      Object[] binds = new Object[chunk.size() * 11];
      int b = 0;
      for (Diff.HourDiff h : chunk) {
        values.append(values.isEmpty() ? "" : ", ").append("(?, toDateTime(?, 'UTC'), ?, ?, ?, ?, ?, ?, ?, ?, ?)");
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
        binds[b++] = h.checksumV1();
        binds[b++] = h.checksumV2();
      }
      sql.execute("store reconciliation hours", "INSERT INTO " + t("reconciliation_hours") + " (id, hour, owner, status, "
          + "rows_v1, rows_v2, measures, totals_v1, totals_v2, checksum_v1, checksum_v2) VALUES " + values, binds);
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
      sql.execute("store reconciliation keys", "INSERT INTO " + t("reconciliation_keys") + " (id, hour, key, kind, rule, "
          + "measures, v1, v2) VALUES " + values, binds);
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
      sql.execute("store reconciliation counts", "INSERT INTO " + t("reconciliation_counts") + " (id, hour, class, keys) "
          + "VALUES " + values, binds);
    }
    // The header goes last: a report whose process died while saving it has no header and is never read.
    long expected = r.expectedKeys();
    sql.execute("store reconciliation " + r.id(), "INSERT INTO " + t("reconciliations") + " (id, target, spec, created, "
            + "window_from, window_to, boundary, verdict, hours, differing_hours, expected_keys, unexpected_keys, "
            + "acknowledged, coverage_issues, by, scope, repair_id, spec_hash) VALUES (?, ?, ?, "
            + "fromUnixTimestamp64Milli(?, 'UTC'), toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), ?, ?, ?, "
            + "?, ?, ?, ?, ?, ?, ?, ?)",
        r.id(), r.target(), r.spec(), r.created().toEpochMilli(), r.window().from().epochSecond(),
        r.window().to().epochSecond(), r.boundary().epochSecond(), r.verdict().name(), (long) r.hours().size(),
        r.hours().stream().filter(h -> !h.identical()).count(), expected, r.unexpectedKeys(), (long) r.acknowledged().size(),
        (long) r.coverage().size(), Operator.user(), r.scope().name(), r.repairId(), r.specSha256());
  }

  private static final String SUMMARY = "SELECT id, target, toUnixTimestamp64Milli(created), toUnixTimestamp(window_from), "
      + "toUnixTimestamp(window_to), toUnixTimestamp(boundary), verdict, hours, differing_hours, expected_keys, "
      + "unexpected_keys, acknowledged, coverage_issues, scope, repair_id, spec_hash FROM ";

  private static Summary summary(java.sql.ResultSet rs) throws SQLException {
    String scope = rs.getString(14);
    return new Summary(rs.getString(1), rs.getString(2),
        scope.isEmpty() ? Reconciliation.Scope.RANGE : Reconciliation.Scope.valueOf(scope), rs.getString(15),
        rs.getString(16), Instant.ofEpochMilli(rs.getLong(3)),
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

  /** The newest reconciliation of a repair over its whole window: the only kind that can open the gate. */
  public Optional<Summary> decisive(String target, String repairId) {
    if (!present()) {
      return Optional.empty();
    }
    return sql.query("find the reconciliation of repair " + repairId, SUMMARY + t("reconciliations") + " WHERE target = ? "
        + "AND repair_id = ? AND scope = 'REPAIR' ORDER BY created DESC LIMIT 1", ReportStore::summary, target, repairId)
        .stream().findFirst();
  }

  /** Each hour of a stored reconciliation, with the checksums both versions had then. */
  public TreeMap<HourPartition, StoredHour> hours(String reportId) {
    TreeMap<HourPartition, StoredHour> out = new TreeMap<>();
    sql.query("read the hours of reconciliation " + reportId, "SELECT toUnixTimestamp(hour), rows_v1, checksum_v1, "
            + "rows_v2, checksum_v2, status FROM " + t("reconciliation_hours") + " WHERE id = ?",
        rs -> out.put(HourPartition.ofEpochSecond(rs.getLong(1)), new StoredHour(HourPartition.ofEpochSecond(rs.getLong(1)),
            rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getString(6).isEmpty()
                ? Reconciliation.HourStatus.IDENTICAL : Reconciliation.HourStatus.valueOf(rs.getString(6)))), reportId);
    return out;
  }

  public void acknowledge(String target, String repairId, HourPartition hour, List<String> key, String reason) {
    sql.execute("record the acknowledgement", "INSERT INTO " + t("acknowledgements") + " (target, hour, key, reason, by, "
        + "at, repair_id) VALUES (?, toDateTime(?, 'UTC'), ?, ?, ?, fromUnixTimestamp64Milli(?, 'UTC'), ?)", target,
        hour.epochSecond(), key, reason, Operator.user(), Instant.now().toEpochMilli(), repairId);
  }

  /** The acknowledgements made within one repair: those of an earlier repair of the target do not carry over. */
  public List<Acknowledgement> acknowledgements(String target, String repairId) {
    if (!present()) {
      return List.of();
    }
    return sql.query("read acknowledgements", "SELECT toUnixTimestamp(hour), key, reason, by, toUnixTimestamp64Milli(at) FROM "
        + t("acknowledgements") + " WHERE target = ? AND repair_id = ? ORDER BY hour", rs -> new Acknowledgement(
            HourPartition.ofEpochSecond(rs.getLong(1)), strings(rs.getArray(2)), rs.getString(3), rs.getString(4),
            Instant.ofEpochMilli(rs.getLong(5))), target, repairId);
  }

  public void recordSwap(SwapRecord s) {
    sql.execute("record the " + s.action(), "INSERT INTO " + t("swaps") + " (target, action, at, by, statement, detail) "
        + "VALUES (?, ?, fromUnixTimestamp64Milli(?, 'UTC'), ?, ?, ?)", s.target(), s.action(), s.at().toEpochMilli(), s.by(), s.statement(), s.detail());
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
