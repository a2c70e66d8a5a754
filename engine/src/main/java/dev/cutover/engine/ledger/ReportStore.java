package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.sql.Sql;
import java.sql.Array;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reconciliation reports, acknowledgements and cutover records in the working database, beside the
 * runs and ledger of {@link StateStore}.
 */
public final class ReportStore {


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
   * Stores a reconciliation: its hours, keys, counts, coverage and lapsed acknowledgements, then its header with the
   * verdict, which the gate and every status read from then on. When {@code follows}, what only the report shows comes
   * after, by {@link #complete} (hours carried in the same files as v1's are stored here without their totals): until
   * then, for {@link #PENDING_AT_MOST}, the report is not listed ({@link #reconciliations}), so that a screen shows it
   * whole.
   */
  public void save(Reconciliation r, boolean follows) {
    // Every hour of the window that was compared or classified: a gap hour has a class but no rows.
    Map<HourPartition, Diff.HourDiff> compared = new TreeMap<>();
    r.hours().forEach(h -> compared.put(h.hour(), h));
    Map<HourPartition, Reconciliation.HourClass> classes = new TreeMap<>();
    r.classes().forEach(c -> classes.put(c.hour(), c));
    SortedSet<HourPartition> hours = new TreeSet<>(compared.keySet());
    hours.addAll(classes.keySet());
    List<Object[]> hourRows = new ArrayList<>();
    for (HourPartition hour : hours) {
      Diff.HourDiff h = compared.get(hour);
      Reconciliation.HourClass c = classes.get(hour);
      List<Diff.Total> totals = h == null ? List.of() : h.totals();
      hourRows.add(new Object[] {r.id(), hour.epochSecond(), c == null ? "" : c.owner().name(),
          c == null ? "" : c.status().name(), h == null ? 0L : h.rowsV1(), h == null ? 0L : h.rowsV2(),
          totals.stream().map(t -> t.measure().name()).toList(), totals.stream().map(Diff.Total::v1).toList(),
          totals.stream().map(Diff.Total::v2).toList(), h == null ? 0L : h.checksumV1(), h == null ? 0L : h.checksumV2(),
          h == null ? 0L : h.keysV1(), h == null ? 0L : h.keysV2(), h == null ? 0 : 1});
    }
    insert("store reconciliation hours", "reconciliation_hours", "id, hour, owner, status, rows_v1, rows_v2, measures, "
        + "totals_v1, totals_v2, checksum_v1, checksum_v2, keys_v1, keys_v2, compared", hourRows);
    insertKeys(r.id(), r.keys());
    List<Object[]> countRows = new ArrayList<>();
    r.counts().forEach((hour, byClass) -> byClass.forEach((cls, n) -> countRows.add(new Object[] {r.id(),
        hour.epochSecond(), cls, n})));
    insert("store reconciliation counts", "reconciliation_counts", "id, hour, class, keys", countRows);
    insert("store reconciliation coverage", "reconciliation_coverage", "id, hour, kind, detail", r.coverage().stream()
        .map(c -> new Object[] {r.id(), c.hour().epochSecond(), c.kind(), c.detail()}).toList());
    insert("store lapsed acknowledgements", "reconciliation_lapsed", "id, hour, key, detail", r.lapsed().stream()
        .map(a -> new Object[] {r.id(), a.hour().epochSecond(), a.key(), a.lapsed().orElse("")}).toList());
    // The header goes last: a report whose process died while saving it has no header and is never read.
    long expected = r.expectedKeys();
    sql.execute("store reconciliation " + r.id(), "INSERT INTO " + t("reconciliations") + " (id, target, spec, created, "
            + "window_from, window_to, boundary, verdict, hours, differing_hours, expected_keys, unexpected_keys, "
            + "acknowledged, coverage_issues, by, scope, repair_id, spec_hash, keys_truncated, follows) VALUES (?, ?, "
            + "?, fromUnixTimestamp64Milli(?, 'UTC'), toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), toDateTime(?, 'UTC'), ?, ?, "
            + "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        r.id(), r.target(), r.spec(), r.created().toEpochMilli(), r.window().from().epochSecond(),
        r.window().to().epochSecond(), r.boundary().epochSecond(), r.verdict().name(), (long) r.hours().size(),
        r.hours().stream().filter(h -> !h.identical()).count(), expected, r.unexpectedKeys(), (long) r.held().size(),
        (long) r.coverage().size(), Operator.user(), r.scope().name(), r.repairId(), r.specSha256(),
        r.keysTruncated() ? 1 : 0, follows ? 1 : 0);
  }

  private void insertKeys(String id, List<Diff.KeyDiff> keys) {
    insert("store reconciliation keys", "reconciliation_keys", "id, hour, key, kind, rule, measures, v1, v2, rows_v1, "
        + "rows_v2", keys.stream().map(k -> new Object[] {id, k.hour().epochSecond(), k.key(), k.kind().name(),
            k.rule().orElse(""), k.v1().keySet().stream().map(Identifier::name).toList(),
            k.v1().keySet().stream().map(m -> k.v1().get(m)).toList(),
            k.v1().keySet().stream().map(m -> k.v2().getOrDefault(m, 0.0)).toList(), k.rowsV1(), k.rowsV2()}).toList());
  }

  /**
   * What only the report of a reconciliation stored with {@code follows} shows, after its verdict: the explained keys
   * it keeps as examples, and the measure totals of the hours it saved without them (carried in the same files as
   * v1's, whose totals are v1's). The report is whole, and listed, once the last insert lands.
   */
  public void complete(String id, List<Diff.KeyDiff> explained, List<Diff.HourDiff> carriedTotals) {
    insertKeys(id, explained);
    insert("store the totals of the carried hours", "reconciliation_carried_totals", "id, hour, measures, totals",
        carriedTotals.stream().map(h -> new Object[] {id, h.hour().epochSecond(), h.totals().stream().map(t -> t
            .measure().name()).toList(), h.totals().stream().map(Diff.Total::v1).toList()}).toList());
    sql.execute("record reconciliation " + id + " whole", "INSERT INTO " + t("reconciliation_completed") + " (id, at) "
        + "VALUES (?, fromUnixTimestamp64Milli(?, 'UTC'))", id, Instant.now().toEpochMilli());
  }

  /**
   * How long a report whose display-only parts have not followed its verdict stays unlisted: reading them takes
   * seconds; a report still without them after this was left so by a reconciliation that stopped after its verdict,
   * and is listed as it is: its carried hours without totals, its explained keys without examples.
   */
  public static final java.time.Duration PENDING_AT_MOST = java.time.Duration.ofMinutes(10);

  private void insert(String what, String table, String columns, List<Object[]> rows) {
    rows(table).insert(what, columns, rows);
  }

  private final Map<String, JsonRows> writers = new ConcurrentHashMap<>();

  private JsonRows rows(String table) {
    return writers.computeIfAbsent(table, name -> new JsonRows(sql, database, name));
  }

  private static final String SUMMARY = "SELECT id, target, toUnixTimestamp64Milli(created), toUnixTimestamp(window_from), "
      + "toUnixTimestamp(window_to), toUnixTimestamp(boundary), verdict, hours, differing_hours, expected_keys, "
      + "unexpected_keys, acknowledged, coverage_issues, scope, repair_id, spec_hash FROM ";

  private static ReportSummary summary(java.sql.ResultSet rs) throws SQLException {
    String scope = rs.getString(14);
    return new ReportSummary(rs.getString(1), rs.getString(2),
        scope.isEmpty() ? Reconciliation.Scope.RANGE : Reconciliation.Scope.valueOf(scope), rs.getString(15),
        rs.getString(16), Instant.ofEpochMilli(rs.getLong(3)),
        new HourRange(HourPartition.ofEpochSecond(rs.getLong(4)), HourPartition.ofEpochSecond(rs.getLong(5))),
        HourPartition.ofEpochSecond(rs.getLong(6)), Reconciliation.Verdict.valueOf(rs.getString(7)), rs.getLong(8),
        rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12), rs.getLong(13));
  }

  public List<ReportSummary> reconciliations(String target) {
    if (!present()) {
      return List.of();
    }
    return sql.query("list reconciliations", SUMMARY + t("reconciliations") + " WHERE target = ? AND (follows = 0 OR "
        + "created < now64(3, 'UTC') - toIntervalSecond(?) OR id IN (SELECT id FROM " + t("reconciliation_completed")
        + ")) ORDER BY created DESC", ReportStore::summary, target, PENDING_AT_MOST.toSeconds());
  }

  /** The newest reconciliation of a repair over its whole window: the only kind that can open the gate. */
  public Optional<ReportSummary> decisive(String target, String repairId) {
    if (!present()) {
      return Optional.empty();
    }
    return sql.query("find the reconciliation of repair " + repairId, SUMMARY + t("reconciliations") + " WHERE target = ? "
        + "AND repair_id = ? AND scope = 'REPAIR' ORDER BY created DESC LIMIT 1", ReportStore::summary, target, repairId)
        .stream().findFirst();
  }

  /** A stored reconciliation, read back whole; empty when no report of that id was stored completely. */
  public Optional<Reconciliation> load(String id) {
    if (!present()) {
      return Optional.empty();
    }
    Optional<ReportSummary> header = sql.query("find reconciliation " + id, SUMMARY + t("reconciliations") + " WHERE id = ? "
        + "LIMIT 1", ReportStore::summary, id).stream().findFirst();
    return header.flatMap(h -> new ReportReader(sql, database.quoted()).read(h, acknowledgements(h.target(),
        h.repairId(), h.created())));
  }

  /** Each hour of a stored reconciliation, with the checksums both versions had then. */
  public TreeMap<HourPartition, StoredHour> hours(String reportId) {
    TreeMap<HourPartition, StoredHour> out = new TreeMap<>();
    sql.query("read the hours of reconciliation " + reportId, "SELECT toUnixTimestamp(hour), rows_v1, checksum_v1, "
            + "rows_v2, checksum_v2, status FROM " + t("reconciliation_hours") + " WHERE id = ? AND compared = 1",
        rs -> out.put(HourPartition.ofEpochSecond(rs.getLong(1)), new StoredHour(HourPartition.ofEpochSecond(rs.getLong(1)),
            rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getString(6).isEmpty()
                ? Reconciliation.HourStatus.IDENTICAL : Reconciliation.HourStatus.valueOf(rs.getString(6)))), reportId);
    return out;
  }

  /** Records an acknowledgement of what {@code seen} describes, made now by the operator. */
  public void acknowledge(String target, String repairId, HourPartition hour, List<String> key, String reason,
      Reconciliation.Fingerprint seen) {
    sql.execute("record the acknowledgement", "INSERT INTO " + t("acknowledgements") + " (target, hour, key, reason, by, "
        + "at, repair_id, seen) VALUES (?, toDateTime(?, 'UTC'), ?, ?, ?, fromUnixTimestamp64Milli(?, 'UTC'), ?, ?)", target,
        hour.epochSecond(), key, reason, Operator.user(), Instant.now().toEpochMilli(), repairId, Fingerprints.json(seen));
  }

  /** Records that the acknowledgements of {@code hour} (and {@code key}) in force are taken back, with a reason. */
  public void withdraw(String target, String repairId, HourPartition hour, List<String> key, String reason) {
    sql.execute("record the withdrawal of the acknowledgement", "INSERT INTO " + t("acknowledgement_withdrawals")
        + " (target, repair_id, hour, key, reason, by, at) VALUES (?, ?, toDateTime(?, 'UTC'), ?, ?, ?, "
        + "fromUnixTimestamp64Milli(?, 'UTC'))", target, repairId, hour.epochSecond(), key, reason, Operator.user(),
        Instant.now().toEpochMilli());
  }

  /** The acknowledgements made within one repair and in force now: those of an earlier repair do not carry over. */
  public List<Acknowledgement> acknowledgements(String target, String repairId) {
    return acknowledgements(target, repairId, Instant.now());
  }

  /**
   * The acknowledgements of one repair in force at {@code asOf}: made by then and not withdrawn by then (a
   * withdrawal takes back those of its hour and key made before it). One recorded without a fingerprint is
   * read as lapsed.
   */
  public List<Acknowledgement> acknowledgements(String target, String repairId, Instant asOf) {
    if (!present()) {
      return List.of();
    }
    record Withdrawal(HourPartition hour, List<String> key, Instant at) {}
    List<Withdrawal> withdrawals = sql.query("read withdrawn acknowledgements", "SELECT toUnixTimestamp(hour), key, "
        + "toUnixTimestamp64Milli(at) FROM " + t("acknowledgement_withdrawals") + " WHERE target = ? AND repair_id = ?",
        rs -> new Withdrawal(HourPartition.ofEpochSecond(rs.getLong(1)), strings(rs.getArray(2)),
            Instant.ofEpochMilli(rs.getLong(3))), target, repairId);
    return sql.query("read acknowledgements", "SELECT toUnixTimestamp(hour), key, reason, by, toUnixTimestamp64Milli(at), "
        + "seen FROM " + t("acknowledgements") + " WHERE target = ? AND repair_id = ? ORDER BY hour, at", rs -> {
          Optional<Reconciliation.Fingerprint> seen = Fingerprints.read(rs.getString(6));
          Acknowledgement a = new Acknowledgement(HourPartition.ofEpochSecond(rs.getLong(1)), strings(rs.getArray(2)),
              rs.getString(3), rs.getString(4), Instant.ofEpochMilli(rs.getLong(5)), seen, Optional.empty());
          return seen.isPresent() ? a : a.lapse("it was recorded by an earlier version of Cutover, which did not record "
              + "which differences it accepted; acknowledge the hour again");
        }, target, repairId).stream()
        .filter(a -> !a.at().isAfter(asOf))
        .filter(a -> withdrawals.stream().noneMatch(w -> w.hour().equals(a.hour()) && w.key().equals(a.key())
            && !w.at().isBefore(a.at()) && !w.at().isAfter(asOf)))
        .toList();
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
    return ReportReader.strings(array);
  }
}
