package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.CoverageIssue;
import dev.cutover.engine.api.Reconciliation.HourClass;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.engine.api.Reconciliation.Owner;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.Reconciliation.Verdict;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.repair.Coverage;
import dev.cutover.engine.repair.HourSums;
import dev.cutover.engine.repair.Milestones;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import dev.cutover.engine.tables.Readable;
import dev.cutover.engine.tables.TableNames;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Proves, inside ClickHouse, that v2 differs from v1 only where the fix says it should, and that
 * every hour of v2 is present once, owned by exactly one writer, with no key counted twice. By
 * default it covers the whole repair window, from the repair's first backfilled hour to the newest
 * hour both versions have closed: the only verdict that can open the gate.
 */
public final class Reconciler {

  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;
  private final Repairs repairs;

  public Reconciler(RepairContext on) {
    this.sql = on.sql();
    this.state = on.state();
    this.reports = on.reports();
    this.spec = on.spec();
    this.repairs = new Repairs(on);
  }

  /** Hours compared key by key in one statement: small enough to report progress and to stop between them. */
  static final int HOURS_PER_STATEMENT = 1000;

  /** Hours whose checksums decide whether to read every hour key by key at once (three in four differing). */
  static final int SAMPLE_HOURS = 24;

  /**
   * The hours a reconciliation of {@code scope} covers now: the repair window
   * {@code [first hour, newest hour both versions have closed + 1h)}, or its part before or from B,
   * or {@code range}, which must lie within the repair window. Where views write v1 and v2, the window
   * ends at the first hour within the safety margin of the newest event: later hours may still change.
   */
  public HourRange window(Repair repair, Scope scope, Optional<HourRange> range) {
    return window(repair, scope, range, new LiveReader(sql, spec).read());
  }

  /** {@link #window(Repair, Scope, Optional)} as of {@code live}, the versions' edges just read. */
  private HourRange window(Repair repair, Scope scope, Optional<HourRange> range, LiveStatus live) {
    HourPartition first = repair.firstHour().orElseThrow();
    HourPartition boundary = repair.boundary().orElseThrow();
    HourPartition end = boundary;
    if (live.liveEdge().isPresent() && live.targetEdge().isPresent()) {
      HourPartition both = live.liveEdge().get().isBefore(live.targetEdge().get()) ? live.liveEdge().get()
          : live.targetEdge().get();
      if (!both.isBefore(boundary)) {
        end = both.plusHours(1);
      }
    }
    // Views append to v1 and v2 as events arrive, each at its own moment of an insert, and events arrive up to
    // the safety margin late: an hour that recent may still change, and is judged once it has settled.
    Optional<HourPartition> unsettled = spec.correctedWriter().byViews() ? live.unsettledFrom(spec.safetyMargin())
        : Optional.empty();
    if (unsettled.isPresent() && unsettled.get().isBefore(end)) {
      end = unsettled.get().isBefore(boundary) ? boundary : unsettled.get();
    }
    return switch (scope) {
      case REPAIR -> new HourRange(first, end);
      case HISTORY -> new HourRange(first, boundary);
      case OVERLAP -> {
        if (!boundary.isBefore(end)) {
          throw new InvalidInputException("window", "There is no overlap yet: v2 has no hour at or after the boundary "
              + boundary + " that v1 also has. Deploy the corrected live writer from the boundary first.");
        }
        yield new HourRange(boundary, end);
      }
      case RANGE -> {
        HourRange r = range.orElseThrow(() -> new InvalidInputException("window", "A reconciliation of a range needs "
            + "its first and last hour."));
        if (r.from().isBefore(first) || end.isBefore(r.to())) {
          throw new InvalidInputException("window", "The range " + r + " is not inside the repair window "
              + new HourRange(first, end) + "; choose hours within it.");
        }
        yield r;
      }
    };
  }

  /**
   * Reconciles v1 against v2 over {@code scope}: checksums per hour first, then the keys of
   * differing hours classified by the spec's rules, then the coverage proof; the report is saved
   * last, so a cancelled or failed reconciliation records nothing. A verdict over the whole repair
   * records the milestones it observed (live from B, overlap, reconciled).
   */
  public Reconciliation reconcile(Scope scope, Optional<HourRange> range, int keyLimit, Progress progress) {
    String target = TableNames.target(spec);
    Repair repair = repairs.settled().filter(r -> r.boundary().isPresent() && r.firstHour().isPresent())
        .orElseThrow(() -> new StepRefusedException("reconcile", "No repair of " + target + " is under way, so there "
            + "is no history to reconcile; backfill first."));
    reports.ensureSchema();
    HourPartition boundary = repair.boundary().orElseThrow();
    LiveStatus live = new LiveReader(sql, spec).read();
    HourRange window = window(repair, scope, range, live);

    Differ differ = new Differ(sql, spec);
    // Hours carried from v1 are proven by checksum alone, by the coverage proof below: never read key by key.
    Map<HourPartition, dev.cutover.engine.api.LedgerEntry> ledger = state.hours().repairLedger(repair.id());
    Set<HourPartition> carried = carriedHours(ledger, window, boundary);
    List<HourPartition> computed = window.list().stream().filter(h -> !carried.contains(h)).toList();
    List<Diff.HourDiff> hours = new ArrayList<>();
    // Count every differing key by class in ClickHouse; read keys only as a sample, unexpected ones first.
    Map<HourPartition, Map<String, Long>> counts = new TreeMap<>();
    // The carried hours are compared beside every read of the recomputed ones below, from the sample to their keys,
    // and joined only once those are done: nothing of the recomputed hours waits for them (CarriedHours#beside).
    CarriedHours carriedHours = new CarriedHours(sql, spec);
    java.util.concurrent.CompletableFuture<CarriedHours.Compared> carriedCompared = carriedHours.beside(differ, carried);
    // A bounded repair recomputes only the hours the bug touched (and the live writer's since B): the fix changes
    // them, so no sample is read to find that out.
    boolean everyKey = !carried.isEmpty();
    if (!everyKey) {
      progress.update("Sampling " + Math.min(SAMPLE_HOURS, computed.size()) + " hours of both versions", 0.01);
      everyKey = mostlyDiffer(differ, computed);
    }
    if (everyKey) {
      // A fix that changes most hours: checksums would spare no key-level read, so one read of both tables per
      // chunk gives the recomputed hours' checksums and their differing keys together; carried hours are only
      // checksummed, beside them.
      for (int i = 0; i < computed.size(); i += HOURS_PER_STATEMENT) {
        progress.check("comparing keys");
        progress.update("Comparing keys of every hour: " + i + " of " + computed.size(),
            0.02 + 0.83 * i / computed.size());
        Differ.HoursAndCounts both = differ.hoursAndCounts(spec.liveTable(), spec.targetTable(),
            computed.subList(i, Math.min(computed.size(), i + HOURS_PER_STATEMENT)));
        hours.addAll(both.hours());
        both.hours().stream().filter(h -> !h.identical() && both.counts().containsKey(h.hour()))
            .forEach(h -> counts.put(h.hour(), both.counts().get(h.hour())));
      }
    } else {
      progress.update("Checksums of " + Figures.count(computed.size()) + " hours in both versions", 0.02);
      hours.addAll(differ.hours(spec.liveTable(), spec.targetTable(), computed));
      List<HourPartition> differing = hours.stream().filter(h -> !h.identical() && !carried.contains(h.hour()))
          .map(Diff.HourDiff::hour).toList();
      for (int i = 0; i < differing.size(); i += HOURS_PER_STATEMENT) {
        progress.check("comparing keys");
        progress.update("Comparing keys of differing hours: " + i + " of " + differing.size(),
            0.1 + 0.75 * i / differing.size());
        List<HourPartition> chunk = differing.subList(i, Math.min(differing.size(), i + HOURS_PER_STATEMENT));
        counts.putAll(differ.counts(spec.liveTable(), spec.targetTable(), chunk));
      }
    }
    List<HourPartition> differing = hours.stream().filter(h -> !h.identical() && !carried.contains(h.hour()))
        .map(Diff.HourDiff::hour).toList();
    progress.check("reading unexpected keys");
    progress.update("Reading unexpected keys", 0.86);
    KeySample sample = new KeySample(differ, spec);
    KeySample.Kept kept = sample.unexpected(counts, keyLimit);
    List<Diff.KeyDiff> keys = kept.keys();
    boolean truncated = kept.truncated();
    List<HourPartition> unexpectedHours = kept.unexpectedHours();

    CarriedHours.Compared carriedSums = CarriedHours.join(carriedCompared);
    hours.addAll(carriedSums.hours());
    hours.sort(java.util.Comparator.comparing(Diff.HourDiff::hour));
    Map<HourPartition, Diff.HourDiff> byHour = new TreeMap<>();
    hours.forEach(h -> byHour.put(h.hour(), h));

    progress.check("the coverage proof");
    progress.update("Proving coverage: every hour once, no gap", 0.92);
    Map<HourPartition, HourSums.Hour> sums = new TreeMap<>();
    hours.forEach(h -> sums.put(h.hour(), new HourSums.Hour(h.rowsV1(), h.checksumV1(), h.rowsV2(), h.checksumV2())));
    Coverage.Result proof = Coverage.of(window, boundary, sums, ledger, live.targetEdge());
    List<CoverageIssue> coverage = new ArrayList<>(proof.issues());
    // An hour whose v2 has fewer distinct keys than rows holds some key twice; the checksum pass counted both.
    coverage.addAll(countedTwice(hours.stream().filter(h -> h.rowsV2() > h.keysV2() && !carried.contains(h.hour()))
        .map(Diff.HourDiff::hour).toList()));
    coverage.sort((a, b) -> a.hour().compareTo(b.hour()));
    // The acknowledgements of hours with unexpected keys, each judged against what it was made for: one whose
    // hour (or key) differs otherwise now accepts nothing, and the verdict says so.
    progress.check("judging acknowledgements");
    List<Reconciliation.Acknowledgement> used = HeldAcknowledgements.judge(differ, spec,
        reports.acknowledgements(target, repair.id()).stream().filter(a -> counts.getOrDefault(a.hour(), Map.of())
            .keySet().stream().anyMatch(c -> c.startsWith(Reconciliation.UNEXPECTED))).toList());
    Reconciliation draft = new Reconciliation("", spec.name(), target, scope, repair.id(), spec.sha256(), Instant.now(),
        window, boundary, Verdict.RED, hours, keys, truncated, counts, coverage, used, List.of());

    Set<HourPartition> issueHours = coverage.stream().map(CoverageIssue::hour).collect(Collectors.toCollection(TreeSet::new));
    List<HourClass> classes = new ArrayList<>();
    for (HourPartition h : window.list()) {
      Owner owner = carried.contains(h) ? Owner.CARRIED : h.isBefore(boundary) ? Owner.BACKFILL : Owner.LIVE;
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
        : draft.held().isEmpty() ? Verdict.GREEN : Verdict.ACKNOWLEDGED;
    String id = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()) + "-"
        + UUID.randomUUID().toString().substring(0, 6);
    Reconciliation result = new Reconciliation(id, spec.name(), target, scope, repair.id(), spec.sha256(), Instant.now(),
        window, boundary, verdict, hours, keys, truncated, counts, coverage, used, classes);
    progress.check("saving the report");
    progress.update("Saving the report", 0.95);
    // The verdict is stored before what only the report shows (ReportRest): the gate and every status read it from now
    // on; the report is listed once the rest follows.
    boolean follows = ReportRest.follows(differing, carriedSums);
    reports.save(result, follows);
    state.audit(id, "reconcile", "reconciled " + target + " over " + scope.words() + " " + window + " for repair "
        + repair.id() + ": " + verdict.name().toLowerCase() + ", " + Figures.count(differing.size())
        + " differing hours, "
        + Figures.count(unexpected) + " unexpected keys, " + coverage.size() + " coverage issues"
        + (draft.lapsed().isEmpty() ? ""
            : ", " + draft.lapsed().size() + " acknowledgement(s) lapsed") + (carried.isEmpty() ? ""
            : ", " + Figures.count(carried.size()) + " hours carried from " + spec.liveTable()
            + " proven by checksum"));
    Milestones.record(repairs, proof.live(), spec, scope.decides() ? Optional.of(verdict) : Optional.empty());
    progress.recorded("the verdict: " + verdict.name().toLowerCase(java.util.Locale.ROOT));
    return follows ? new ReportRest(spec, reports, sample, carriedHours).complete(result, counts, differing,
        carriedSums, progress) : result;
  }

  /**
   * Whether most of these hours differ, judged from the checksums of {@link #SAMPLE_HOURS} of them spread
   * evenly (a read of that many partitions): then the key-level read covers them all anyway.
   */
  private boolean mostlyDiffer(Differ differ, List<HourPartition> hours) {
    if (hours.size() < 2 * SAMPLE_HOURS) {
      return false;
    }
    List<HourPartition> sample = new ArrayList<>();
    for (int i = 0; i < SAMPLE_HOURS; i++) {
      sample.add(hours.get((int) ((long) i * hours.size() / SAMPLE_HOURS)));
    }
    long apart = differ.hours(spec.liveTable(), spec.targetTable(), sample).stream().filter(h -> !h.identical()).count();
    return apart * 4 >= 3L * SAMPLE_HOURS;
  }

  /** The hours of {@code window} below the boundary that the repair's ledger records as carried from v1. */
  public static Set<HourPartition> carriedHours(Map<HourPartition, dev.cutover.engine.api.LedgerEntry> ledger,
      HourRange window, HourPartition boundary) {
    return ledger.values().stream().filter(e -> e.carried() && window.contains(e.hour()) && e.hour().isBefore(boundary))
        .map(dev.cutover.engine.api.LedgerEntry::hour).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Which keys of these hours of v2 appear more than once: counted twice. */
  private List<CoverageIssue> countedTwice(List<HourPartition> hours) {
    if (hours.isEmpty()) {
      return List.of();
    }
    String keys = spec.keys().stream().map(k -> k.quoted()).collect(Collectors.joining(", "));
    String time = spec.timeColumn().quoted();
    HourPartition first = hours.getFirst();
    HourPartition last = hours.getLast();
    return sql.query("find keys counted twice", "SELECT toUnixTimestamp(h), count(), sum(c) FROM (SELECT toStartOfHour("
            + time + ") AS h, " + keys + ", count() AS c FROM " + new Readable(sql, spec).from(spec.targetTable()) + " WHERE "
            + time
            + " >= toDateTime(?, 'UTC') AND " + time + " < toDateTime(?, 'UTC') AND has(?, toUnixTimestamp(toStartOfHour("
            + time + "))) GROUP BY h, " + keys + " HAVING c > 1) GROUP BY h ORDER BY h",
        rs -> new CoverageIssue(HourPartition.ofEpochSecond(rs.getLong(1)), "duplicate",
            rs.getLong(2) + " key(s) appear more than once (" + rs.getLong(3) + " rows)"),
        first.epochSecond(), last.plusHours(1).epochSecond(), hours.stream().map(HourPartition::epochSecond).toList());
  }
}
