package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.ReportStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What only a reconciliation's report shows, read and stored after its verdict: the examples of explained keys, and
 * v1's totals of the hours carried in the same files (months of hours in a bounded repair, most of what it would
 * read). Neither decides the verdict; the report is listed once they are stored ({@link ReportStore#complete}).
 */
final class ReportRest {

  private final TableSpec spec;
  private final ReportStore reports;
  private final KeySample sample;
  private final CarriedHours carriedHours;

  ReportRest(TableSpec spec, ReportStore reports, KeySample sample, CarriedHours carriedHours) {
    this.spec = spec;
    this.reports = reports;
    this.sample = sample;
    this.carriedHours = carriedHours;
  }

  /** Whether anything follows the verdict of a reconciliation with these differing and carried hours. */
  static boolean follows(List<HourPartition> differing, CarriedHours.Compared carried) {
    return !differing.isEmpty() || !carried.same().isEmpty();
  }

  /**
   * {@code stored}, whose verdict is stored, made whole: its explained keys and carried hours' totals read and
   * stored. Nothing cancels it once the verdict is stored; a failure says that the verdict stands.
   */
  Reconciliation complete(Reconciliation stored, Map<HourPartition, Map<String, Long>> counts,
      List<HourPartition> differing, CarriedHours.Compared carried, Progress progress) {
    String verdict = stored.verdict().name().toLowerCase(Locale.ROOT);
    progress.update("Verdict stored (" + verdict + "); reading " + (carried.same().isEmpty() ? ""
        : spec.liveTable() + "'s totals of " + Figures.count(carried.same().size()) + " carried hours and ")
        + "examples of explained keys for the report", 0.97);
    List<Diff.KeyDiff> explained;
    List<Diff.HourDiff> totals;
    try {
      explained = sample.explained(counts, differing);
      totals = carriedHours.totals(carried.same());
      reports.complete(stored.id(), explained, totals);
    } catch (QueryFailedException e) {
      // The verdict stands and acts: say so, rather than let the reconciliation read as failed.
      throw new QueryFailedException("The verdict (" + verdict + ") of reconciliation " + stored.id() + " is stored "
          + "and the gate reads it, but its report is not whole: " + e.getMessage() + " Reconcile again for the "
          + "report's charts and examples.", e.errorCode(), e.queryId().orElse(null), e.retryable(), e.unreachable(), e);
    }
    Map<HourPartition, Diff.HourDiff> hours = new TreeMap<>();
    stored.hours().forEach(h -> hours.put(h.hour(), h));
    totals.forEach(h -> hours.put(h.hour(), h));
    List<Diff.KeyDiff> keys = new ArrayList<>(stored.keys());
    keys.addAll(explained);
    return new Reconciliation(stored.id(), stored.spec(), stored.target(), stored.scope(), stored.repairId(),
        stored.specSha256(), stored.created(), stored.window(), stored.boundary(), stored.verdict(),
        List.copyOf(hours.values()), keys, stored.keysTruncated(), stored.counts(), stored.coverage(),
        stored.acknowledged(), stored.classes());
  }
}
