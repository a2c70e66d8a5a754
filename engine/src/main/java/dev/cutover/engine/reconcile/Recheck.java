package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.api.Reconciliation.CoverageIssue;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.repair.Coverage;
import dev.cutover.engine.repair.HourSums;
import dev.cutover.engine.sql.Sql;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A stored verdict checked against the data as it is now. Per-hour checksums of v1 and v2 are
 * compared with those the verdict saw; only hours that changed or appeared since are compared key
 * by key, on the spot, under the same rules and acknowledgements. The coverage proof runs again over
 * the whole window, from the checksums and the ledger. A cutover a day after the verdict costs one
 * scan of each version and the keys of the new hours, not a second full reconciliation.
 */
public final class Recheck {

  /** Hours whose key comparison is listed in full before the count says "and more". */
  static final int KEY_LIMIT = 10_000;

  /**
   * What changed since the verdict and what that means.
   *
   * @param unchanged hours whose checksums equal the verdict's
   * @param changed hours that changed or appeared since, each compared key by key now
   * @param unexpected unexplained, unacknowledged keys per changed hour
   * @param coverage the coverage proof now, over the whole window, with keys counted twice in changed hours
   * @param lapsed acknowledgements of changed hours whose differences are no longer those they accepted
   */
  public record Result(HourRange window, int unchanged, List<HourPartition> changed,
      Map<HourPartition, Long> unexpected, List<CoverageIssue> coverage, List<Acknowledgement> lapsed, LiveWriter live) {

    public boolean clean() {
      return unexpected.isEmpty() && coverage.isEmpty();
    }

    public String describe() {
      String base = Figures.count(window.hours()) + " hours judged now: " + Figures.count(unchanged)
          + " unchanged since the verdict, " + Figures.count(changed.size()) + " changed or new" + (changed.isEmpty() ? "" : " (from " + changed.getFirst() + ") compared key by key now");
      if (clean()) {
        return base + "; every difference is expected or acknowledged and every hour is present once.";
      }
      List<String> problems = new ArrayList<>();
      if (!unexpected.isEmpty()) {
        problems.add(Figures.count(unexpected.values().stream().mapToLong(Long::longValue).sum())
            + " unexpected key(s) in "
            + Figures.count(unexpected.size()) + " hour(s) from " + unexpected.keySet().iterator().next());
      }
      if (!lapsed.isEmpty()) {
        Acknowledgement first = lapsed.getFirst();
        problems.add(lapsed.size() + " acknowledgement(s) no longer hold, first of " + first.subject() + ": "
            + first.lapsed().orElse("it accepts nothing"));
      }
      if (!coverage.isEmpty()) {
        CoverageIssue first = coverage.getFirst();
        problems.add(coverage.size() + " coverage issue(s), first " + first.hour() + ": " + first.kind() + ", "
            + first.detail());
      }
      return base + "; " + String.join("; ", problems) + ".";
    }
  }

  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;

  public Recheck(Sql sql, StateStore state, ReportStore reports, TableSpec spec) {
    this.sql = sql;
    this.state = state;
    this.reports = reports;
    this.spec = spec;
  }

  public Result against(Repair repair, ReportSummary verdict, HourRange window,
      Optional<HourPartition> v2Edge) {
    HourPartition boundary = repair.boundary().orElseThrow();
    var ledger = state.hours().repairLedger(repair.id());
    // A carried hour still in v1's files is proven from the parts' metadata, as the verdict proved it.
    Map<HourPartition, HourSums.Hour> now = new HourSums(sql, spec).of(window, Coverage.carried(ledger));
    TreeMap<HourPartition, ReportStore.StoredHour> then = reports.hours(verdict.id());
    TreeSet<HourPartition> all = new TreeSet<>(now.keySet());
    then.keySet().stream().filter(window::contains).forEach(all::add);
    List<HourPartition> changed = new ArrayList<>();
    int unchanged = 0;
    HourSums.Hour none = new HourSums.Hour(0, 0, 0, 0);
    for (HourPartition h : all) {
      HourSums.Hour n = now.getOrDefault(h, none);
      ReportStore.StoredHour t = then.get(h);
      boolean same = t != null && t.rowsV1() == n.rowsV1() && t.checksumV1() == n.checksumV1()
          && t.rowsV2() == n.rowsV2() && t.checksumV2() == n.checksumV2();
      if (same || t == null && n.rowsV1() == 0 && n.rowsV2() == 0) {
        unchanged++;
      } else {
        changed.add(h);
      }
    }
    // A carried hour is proven by checksum alone: the coverage proof holds it and v1 to what was carried.
    var carried = Reconciler.carriedHours(ledger, window, boundary);
    List<HourPartition> differing = changed.stream().filter(h -> !now.getOrDefault(h, none).identical()
        && !carried.contains(h)).toList();
    Differ differ = differing.isEmpty() ? null : new Differ(sql, spec);
    Map<HourPartition, Map<String, Long>> counts = new TreeMap<>();
    for (int i = 0; i < differing.size(); i += Reconciler.HOURS_PER_STATEMENT) {
      counts.putAll(differ.counts(spec.liveTable(), spec.targetTable(),
          differing.subList(i, Math.min(differing.size(), i + Reconciler.HOURS_PER_STATEMENT))));
    }
    List<Acknowledgement> acks = reports.acknowledgements(repair.target(), repair.id());
    Coverage.Result proof = Coverage.of(window, boundary, now, ledger, v2Edge);
    List<CoverageIssue> coverage = new ArrayList<>(proof.issues());
    Map<HourPartition, Long> unexpected = new TreeMap<>();
    List<Acknowledgement> lapsed = new ArrayList<>();
    for (var hour : counts.entrySet()) {
      long twice = hour.getValue().getOrDefault(Reconciliation.UNEXPECTED + Diff.Kind.DUPLICATE_IN_V2.name(), 0L);
      if (twice > 0) {
        coverage.add(new CoverageIssue(hour.getKey(), "duplicate", twice + " key(s) appear more than once in v2"));
      }
      long open = openKeys(differ, hour.getKey(), hour.getValue(), acks, lapsed);
      if (open > 0) {
        unexpected.put(hour.getKey(), open);
      }
    }
    coverage.sort((a, b) -> a.hour().compareTo(b.hour()));
    return new Result(window, unchanged, changed, unexpected, coverage, lapsed, proof.live());
  }

  /**
   * Unexpected keys of one hour that no acknowledgement accepts. The hour changed since the verdict, so its
   * acknowledgements are judged again against what each was made for; one that lapsed accepts nothing.
   */
  private long openKeys(Differ differ, HourPartition hour, Map<String, Long> classes, List<Acknowledgement> all,
      List<Acknowledgement> lapsed) {
    long total = classes.entrySet().stream().filter(e -> e.getKey().startsWith(Reconciliation.UNEXPECTED))
        .mapToLong(Map.Entry::getValue).sum();
    if (total == 0) {
      return 0;
    }
    List<Acknowledgement> judged = HeldAcknowledgements.judge(differ, spec, all.stream()
        .filter(a -> a.hour().equals(hour)).toList());
    judged.stream().filter(a -> !a.holds()).forEach(lapsed::add);
    List<Acknowledgement> acks = judged.stream().filter(Acknowledgement::holds).toList();
    if (acks.stream().anyMatch(a -> a.key().isEmpty())) {
      return 0;
    }
    if (acks.isEmpty()) {
      return total;
    }
    List<Diff.KeyDiff> keys = differ.keys(spec.liveTable(), spec.targetTable(), List.of(hour), KEY_LIMIT).stream()
        .filter(k -> !k.expected()).toList();
    long accepted = keys.stream().filter(k -> acks.stream().anyMatch(a -> Reconciliation.covers(a, k))).count();
    return Math.max(0, total - accepted);
  }
}
