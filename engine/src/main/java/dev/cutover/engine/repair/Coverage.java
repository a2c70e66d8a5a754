package dev.cutover.engine.repair;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.Reconciliation.CoverageIssue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The coverage proof of a repair window, from the data and the ledger alone: every hour below B is
 * in the repair's ledger, written, emptied or carried, and v2 holds exactly what the ledger recorded;
 * a carried hour's v1 still holds what was carried (a late write to v1 after the carry is a gap); every
 * hour from B on was written by the live writer and none by a backfill; no hour that v1 has is
 * missing from v2 up to v2's newest hour. Keys counted twice are found by the reconciliation, which
 * reads keys.
 */
public final class Coverage {

  /**
   * The issues found, by hour, and what they say of the corrected live writer.
   *
   * @param carried the hours below B the ledger says were carried from v1: proven by checksum alone
   */
  public record Result(List<CoverageIssue> issues, LiveWriter live, List<HourPartition> carried) {

    public Result {
      carried = List.copyOf(carried);
    }
  }

  private Coverage() {}

  /**
   * @param hours rows and checksums of both versions, for the hours either holds in {@code window}
   * @param ledger the repair's ledger: the latest entry of any of its runs, per hour
   * @param v2Edge the newest hour v2 holds, if any
   */
  public static Result of(HourRange window, HourPartition boundary, Map<HourPartition, HourSums.Hour> hours,
      Map<HourPartition, LedgerEntry> ledger, Optional<HourPartition> v2Edge) {
    List<CoverageIssue> issues = new ArrayList<>();
    List<HourPartition> below = new ArrayList<>();
    List<HourPartition> backfilledFrom = new ArrayList<>();
    List<HourPartition> missed = new ArrayList<>();
    List<HourPartition> carried = new ArrayList<>();
    Optional<HourPartition> start = Optional.empty();
    // The edge was read before the sums, while the live writers go on: an hour v2 holds in the sums is
    // one its writer has reached, whatever the earlier read said.
    Optional<HourPartition> newestInSums = hours.entrySet().stream().filter(e -> e.getValue().rowsV2() > 0)
        .map(Map.Entry::getKey).filter(h -> !h.isBefore(boundary)).max(Comparator.naturalOrder());
    Optional<HourPartition> edge = newestInSums.isPresent() && (v2Edge.isEmpty()
        || v2Edge.get().isBefore(newestInSums.get())) ? newestInSums : v2Edge;
    HourPartition v2End = edge.map(e -> e.plusHours(1)).orElse(boundary);
    HourSums.Hour none = new HourSums.Hour(0, 0, 0, 0);
    for (HourPartition h : window.list()) {
      HourSums.Hour d = hours.getOrDefault(h, none);
      LedgerEntry entry = ledger.get(h);
      if (h.isBefore(boundary)) {
        if (entry == null || !entry.complete()) {
          issues.add(new CoverageIssue(h, "gap", "no completed backfill hour in the repair's ledger"
              + (d.rowsV2() > 0 ? "; v2 holds " + Figures.count(d.rowsV2())
              + " rows that no backfill of the repair wrote" : "")));
          if (d.rowsV2() > 0) {
            below.add(h);
          }
        } else if (entry.carried()) {
          // A carry copies v1's files: what must hold is that v2 still has the carried rows and that v1 and v2
          // are the same now (by their files, or row by row where a merge or a write changed them).
          carried.add(h);
          if (entry.rows() != d.rowsV2()) {
            issues.add(new CoverageIssue(h, "owner", "v2 holds " + Figures.count(d.rowsV2())
                + " rows but the carry from v1 wrote "
                + Figures.count(entry.rows()) + ": something else wrote this hour after the backfill"));
            if (d.rowsV2() > 0) {
              below.add(h);
            }
          } else if (!d.identical()) {
            issues.add(new CoverageIssue(h, "gap", "v1 changed after this hour was carried from it at " + Figures.time(entry.at())
                + " (v1 now holds " + Figures.count(d.rowsV1()) + " rows, the carried copy "
                + Figures.count(entry.rows()) + (d.rowsV1() == entry.rows()
                ? " with other values" : "") + "): a late write to v1 that v2 lacks; run the backfill again with the "
                + "same affected window to carry it again"));
          }
        } else if (entry.rows() != d.rowsV2() || (d.rowsV2() > 0 && entry.checksum() != d.checksumV2())) {
          issues.add(new CoverageIssue(h, "owner", "v2 holds " + Figures.count(d.rowsV2())
              + " rows but the backfill wrote "
              + Figures.count(entry.rows()) + (entry.rows() == d.rowsV2() ? " with another checksum" : "")
              + ": something else wrote "
              + "this hour after the backfill"));
          if (d.rowsV2() > 0) {
            below.add(h);
          }
        }
      } else {
        if (entry != null) {
          issues.add(new CoverageIssue(h, "owner", "a backfill of the repair wrote this hour, which the live writer "
              + "owns (it is at or after B = " + boundary + ")"));
          backfilledFrom.add(h);
        }
        if (d.rowsV2() > 0 && start.isEmpty()) {
          start = Optional.of(h);
        }
        if (h.isBefore(v2End) && d.rowsV2() == 0 && d.rowsV1() > 0) {
          issues.add(new CoverageIssue(h, "gap", "v1 has " + Figures.count(d.rowsV1())
              + " rows, v2 none: the live writer skipped "
              + "this hour"));
          missed.add(h);
        }
        if (!h.isBefore(v2End) && d.rowsV1() > 0) {
          issues.add(new CoverageIssue(h, "gap", "v2's live writer has not reached this hour yet"));
        }
      }
    }
    long liveHours = edge.filter(e -> !e.isBefore(boundary))
        .map(e -> java.time.Duration.between(boundary.start(), e.end()).toHours()).orElse(0L);
    return new Result(issues, new LiveWriter(boundary, start, liveHours, below, backfilledFrom, missed), carried);
  }

  /** The hours the ledger records as carried from v1: those whose sums may be proven by their files. */
  public static java.util.Set<HourPartition> carried(Map<HourPartition, LedgerEntry> ledger) {
    return ledger.values().stream().filter(LedgerEntry::carried).map(LedgerEntry::hour)
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
  }
}
