package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.CoverageIssue;
import dev.cutover.engine.api.Reconciliation.HourClass;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.engine.api.Reconciliation.Owner;
import dev.cutover.engine.api.Reconciliation.Verdict;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.backfill.LiveReader;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Proves, inside ClickHouse, that v2 differs from v1 only where the fix says it should, and that
 * every hour of v2 is present once, owned by exactly one writer, with no key counted twice.
 */
public final class Reconciler {

  /** Which hours to compare. */
  public enum Window {
    /** From the backfill's range start to the newest hour of either version. */
    ALL,
    /** The hours both live writers wrote: from the boundary on. */
    OVERLAP,
    /** The backfilled history: before the boundary. */
    HISTORY
  }

  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;

  public Reconciler(Sql sql, StateStore state, ReportStore reports, TableSpec spec) {
    this.sql = sql;
    this.state = state;
    this.reports = reports;
    this.spec = spec;
  }

  public Reconciliation reconcile(Window which, int keyLimit) {
    String target = Backfill.target(spec);
    RunRecord run = state.runs(target).stream().filter(r -> r.state() == RunState.SUCCEEDED).findFirst()
        .orElseThrow(() -> new InvalidInputException("reconcile", "No backfill of " + target + " has succeeded yet, so "
            + "there is no history to reconcile; run ./cutover backfill first."));
    reports.ensureSchema();
    HourPartition boundary = run.boundary();
    LiveStatus live = new LiveReader(sql, spec).read();
    HourPartition newest = live.liveEdge().orElse(boundary);
    if (live.targetEdge().isPresent() && newest.isBefore(live.targetEdge().get())) {
      newest = live.targetEdge().get();
    }
    HourPartition end = newest.plusHours(1);
    HourRange window = switch (which) {
      case ALL -> new HourRange(run.range().from(), end);
      case HISTORY -> new HourRange(run.range().from(), boundary);
      case OVERLAP -> {
        if (!boundary.isBefore(end)) {
          throw new InvalidInputException("window", "There is no overlap yet: neither version has an hour at or after "
              + "the boundary " + boundary + ". Deploy the corrected live writer from the boundary first.");
        }
        yield new HourRange(boundary, end);
      }
    };

    Differ differ = new Differ(sql, spec);
    List<Diff.HourDiff> hours = differ.hours(spec.liveTable(), spec.targetTable(), window);
    Map<HourPartition, Diff.HourDiff> byHour = new TreeMap<>();
    hours.forEach(h -> byHour.put(h.hour(), h));
    List<HourPartition> differing = hours.stream().filter(h -> !h.identical()).map(Diff.HourDiff::hour).toList();
    List<Diff.KeyDiff> keys = new ArrayList<>();
    for (int i = 0; i < differing.size() && keys.size() < keyLimit; i += 200) {
      keys.addAll(differ.keys(spec.liveTable(), spec.targetTable(), differing.subList(i, Math.min(differing.size(), i + 200)),
          keyLimit - keys.size()));
    }
    boolean truncated = keys.size() >= keyLimit;

    List<CoverageIssue> coverage = coverage(window, boundary, live, byHour);
    var acks = reports.acknowledgements(target);
    List<Reconciliation.Acknowledgement> used = acks.stream()
        .filter(a -> keys.stream().anyMatch(k -> !k.expected() && Reconciliation.covers(a, k))).toList();

    Set<HourPartition> issueHours = coverage.stream().map(CoverageIssue::hour).collect(Collectors.toCollection(TreeSet::new));
    Map<HourPartition, List<Diff.KeyDiff>> keysByHour = new HashMap<>();
    keys.forEach(k -> keysByHour.computeIfAbsent(k.hour(), h -> new ArrayList<>()).add(k));
    List<HourClass> classes = new ArrayList<>();
    boolean unknownHours = false;
    for (HourPartition h : window.list()) {
      Owner owner = h.isBefore(boundary) ? Owner.BACKFILL : Owner.LIVE;
      Diff.HourDiff d = byHour.get(h);
      HourStatus status;
      if (issueHours.contains(h)) {
        status = coverage.stream().anyMatch(c -> c.hour().equals(h) && c.kind().equals("duplicate"))
            ? HourStatus.DUPLICATE : HourStatus.GAP;
      } else if (d == null || d.identical()) {
        status = HourStatus.IDENTICAL;
      } else {
        List<Diff.KeyDiff> ks = keysByHour.getOrDefault(h, List.of());
        boolean unexplained = ks.stream().anyMatch(k -> !k.expected() && acks.stream().noneMatch(a -> Reconciliation.covers(a, k)));
        boolean acked = ks.stream().anyMatch(k -> !k.expected());
        if (ks.isEmpty()) {
          unknownHours = true; // differs, but the key list was cut before this hour: not proven
          status = HourStatus.UNEXPECTED;
        } else {
          status = unexplained ? HourStatus.UNEXPECTED : acked ? HourStatus.ACKNOWLEDGED : HourStatus.EXPECTED;
        }
      }
      classes.add(new HourClass(h, owner, status));
    }

    long unexpected = keys.stream().filter(k -> !k.expected() && acks.stream().noneMatch(a -> Reconciliation.covers(a, k))).count();
    Verdict verdict = !coverage.isEmpty() || unexpected > 0 || unknownHours ? Verdict.RED
        : used.isEmpty() ? Verdict.GREEN : Verdict.ACKNOWLEDGED;
    String id = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()) + "-"
        + UUID.randomUUID().toString().substring(0, 6);
    Reconciliation result = new Reconciliation(id, spec.name(), target, Instant.now(), window, boundary, verdict, hours,
        keys, truncated, coverage, used, classes);
    reports.save(result);
    state.audit(id, "reconcile", "reconciled " + target + " over " + window + ": " + verdict.name().toLowerCase() + ", "
        + differing.size() + " differing hours, " + unexpected + " unexpected keys, " + coverage.size() + " coverage issues");
    return result;
  }

  private List<CoverageIssue> coverage(HourRange window, HourPartition boundary, LiveStatus live,
      Map<HourPartition, Diff.HourDiff> byHour) {
    List<CoverageIssue> issues = new ArrayList<>();
    TreeMap<HourPartition, LedgerEntry> ledger = reports.latestLedger(Backfill.target(spec));
    HourPartition v2End = live.targetEdge().map(e -> e.plusHours(1)).orElse(boundary);
    for (HourPartition h : window.list()) {
      Diff.HourDiff d = byHour.get(h);
      long rowsV1 = d == null ? 0 : d.rowsV1();
      long rowsV2 = d == null ? 0 : d.rowsV2();
      LedgerEntry entry = ledger.get(h);
      if (h.isBefore(boundary)) {
        if (entry == null || !entry.complete()) {
          issues.add(new CoverageIssue(h, "gap", "no completed backfill hour in the ledger"));
        } else if (entry.rows() != rowsV2 || (rowsV2 > 0 && entry.checksum() != d.checksumV2())) {
          issues.add(new CoverageIssue(h, "owner", "v2 holds " + rowsV2 + " rows but the backfill wrote " + entry.rows()
              + " with another checksum: something else wrote this hour"));
        }
      } else {
        if (entry != null) {
          issues.add(new CoverageIssue(h, "owner", "the backfill wrote an hour the live writer owns"));
        }
        if (h.isBefore(v2End) && rowsV2 == 0 && rowsV1 > 0) {
          issues.add(new CoverageIssue(h, "gap", "v1 has " + rowsV1 + " rows, v2 none: the live writer skipped this hour"));
        }
        if (!h.isBefore(v2End) && rowsV1 > 0) {
          issues.add(new CoverageIssue(h, "gap", "v2's live writer has not reached this hour yet"));
        }
      }
    }
    String keys = spec.keys().stream().map(k -> k.quoted()).collect(Collectors.joining(", "));
    String time = spec.timeColumn().quoted();
    sql.query("find keys counted twice", "SELECT toUnixTimestamp(h), count(), sum(c) FROM (SELECT toStartOfHour(" + time
            + ") AS h, " + keys + ", count() AS c FROM " + spec.qualified(spec.targetTable()) + " WHERE " + time
            + " >= toDateTime(?, 'UTC') AND " + time + " < toDateTime(?, 'UTC') GROUP BY h, " + keys
            + " HAVING c > 1) GROUP BY h ORDER BY h",
        rs -> new CoverageIssue(HourPartition.ofEpochSecond(rs.getLong(1)), "duplicate",
            rs.getLong(2) + " key(s) appear more than once (" + rs.getLong(3) + " rows)"),
        window.from().epochSecond(), window.to().epochSecond()).forEach(issues::add);
    issues.sort((a, b) -> a.hour().compareTo(b.hour()));
    return issues;
  }
}
