package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Progress;
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

  /** Hours compared key by key in one statement: small enough to report progress and to stop between them. */
  static final int HOURS_PER_STATEMENT = 250;

  public Reconciliation reconcile(Window which, int keyLimit) {
    return reconcile(which, keyLimit, Progress.NONE);
  }

  /**
   * Reconciles v1 against v2 over {@code which}: checksums per hour first, then the keys of differing
   * hours classified by the spec's rules, then the coverage proof; the report is saved last, so a
   * cancelled or failed reconciliation records nothing.
   */
  public Reconciliation reconcile(Window which, int keyLimit, Progress progress) {
    String target = Backfill.target(spec);
    RunRecord run = state.runs(target).stream().filter(r -> r.state() == RunState.SUCCEEDED).findFirst()
        .orElseThrow(() -> new InvalidInputException("reconcile", "No backfill of " + target + " has succeeded yet, so "
            + "there is no history to reconcile; backfill first."));
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
    progress.update("Checksums of " + window.hours() + " hours in both versions", 0.02);
    List<Diff.HourDiff> hours = differ.hours(spec.liveTable(), spec.targetTable(), window);
    Map<HourPartition, Diff.HourDiff> byHour = new TreeMap<>();
    hours.forEach(h -> byHour.put(h.hour(), h));
    List<HourPartition> differing = hours.stream().filter(h -> !h.identical()).map(Diff.HourDiff::hour).toList();
    // Count every differing key by class in ClickHouse; read keys only as a sample, unexpected ones first.
    Map<HourPartition, Map<String, Long>> counts = new TreeMap<>();
    List<Diff.KeyDiff> keys = new ArrayList<>();
    for (int i = 0; i < differing.size(); i += HOURS_PER_STATEMENT) {
      progress.check("comparing keys");
      progress.update("Comparing keys of differing hours: " + i + " of " + differing.size(),
          0.1 + 0.75 * i / differing.size());
      List<HourPartition> chunk = differing.subList(i, Math.min(differing.size(), i + HOURS_PER_STATEMENT));
      counts.putAll(differ.counts(spec.liveTable(), spec.targetTable(), chunk));
    }
    progress.check("reading unexpected keys");
    progress.update("Reading unexpected keys", 0.86);
    List<HourPartition> unexpectedHours = counts.entrySet().stream().filter(e -> e.getValue().keySet().stream()
        .anyMatch(c -> c.startsWith(Reconciliation.UNEXPECTED))).map(Map.Entry::getKey).toList();
    for (int i = 0; i < unexpectedHours.size() && keys.size() < keyLimit; i += 1000) {
      keys.addAll(differ.keys(spec.liveTable(), spec.targetTable(), unexpectedHours.subList(i,
          Math.min(unexpectedHours.size(), i + 1000)), keyLimit - keys.size()).stream().filter(k -> !k.expected()).toList());
    }
    long unexpectedCounted = counts.values().stream().flatMap(m -> m.entrySet().stream())
        .filter(e -> e.getKey().startsWith(Reconciliation.UNEXPECTED)).mapToLong(Map.Entry::getValue).sum();
    boolean truncated = keys.size() < unexpectedCounted;
    if (!differing.isEmpty()) {
      // A few explained keys, to show what the rules matched.
      keys.addAll(differ.keys(spec.liveTable(), spec.targetTable(), differing.subList(0, Math.min(24, differing.size())),
          200).stream().filter(Diff.KeyDiff::expected).toList());
    }

    progress.check("the coverage proof");
    progress.update("Proving coverage: every hour once, no gap", 0.92);
    List<CoverageIssue> coverage = coverage(window, boundary, live, byHour);
    var acks = reports.acknowledgements(target);
    Reconciliation draft = new Reconciliation("", spec.name(), target, Instant.now(), window, boundary, Verdict.RED,
        hours, keys, truncated, counts, coverage, acks, List.of());
    List<Reconciliation.Acknowledgement> used = acks.stream().filter(a -> counts.getOrDefault(a.hour(), Map.of())
        .keySet().stream().anyMatch(c -> c.startsWith(Reconciliation.UNEXPECTED))).toList();

    Set<HourPartition> issueHours = coverage.stream().map(CoverageIssue::hour).collect(Collectors.toCollection(TreeSet::new));
    List<HourClass> classes = new ArrayList<>();
    for (HourPartition h : window.list()) {
      Owner owner = h.isBefore(boundary) ? Owner.BACKFILL : Owner.LIVE;
      Diff.HourDiff d = byHour.get(h);
      HourStatus status;
      if (issueHours.contains(h)) {
        status = coverage.stream().anyMatch(c -> c.hour().equals(h) && c.kind().equals("duplicate"))
            ? HourStatus.DUPLICATE : HourStatus.GAP;
      } else if (d == null || d.identical()) {
        status = HourStatus.IDENTICAL;
      } else if (draft.unexpectedIn(h) > 0) {
        status = HourStatus.UNEXPECTED;
      } else if (unexpectedHours.contains(h)) {
        status = HourStatus.ACKNOWLEDGED;
      } else {
        status = HourStatus.EXPECTED;
      }
      classes.add(new HourClass(h, owner, status));
    }

    long unexpected = draft.unexpectedKeys();
    Verdict verdict = !coverage.isEmpty() || unexpected > 0 ? Verdict.RED
        : used.isEmpty() ? Verdict.GREEN : Verdict.ACKNOWLEDGED;
    String id = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()) + "-"
        + UUID.randomUUID().toString().substring(0, 6);
    Reconciliation result = new Reconciliation(id, spec.name(), target, Instant.now(), window, boundary, verdict, hours,
        keys, truncated, counts, coverage, used, classes);
    progress.check("saving the report");
    progress.update("Saving the report", 0.97);
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
