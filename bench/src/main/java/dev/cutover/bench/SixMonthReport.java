package dev.cutover.bench;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.engine.api.TableSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A reconciliation of six months built in memory, for the reconcile screen's charts without a server:
 * 183 days of hours (4,392) shaped like the demo's PnL (a daily rhythm, a fee fix that lowers every
 * hour's PnL a little), three measures, the last {@value #OVERLAP} hours written by both live writers,
 * and eight hours that need a look (four unexpected, two acknowledged, a gap, a duplicate) with
 * {@value #KEYS_PER_HOUR} differing keys each.
 *
 * @param unexpected the index of the first unexpected hour: the hour the screen chooses when it opens
 */
record SixMonthReport(TableSpec spec, Reconciliation report, int unexpected) {

  static final HourPartition FIRST = HourPartition.parse("first", "2026-06-01T00:00");
  static final int HOURS = 183 * 24;
  static final int OVERLAP = 36;
  static final int KEYS_PER_HOUR = 40;

  private static final Identifier QUANTITY = Identifier.of("quantity");
  private static final Identifier FEES = Identifier.of("fees_usd");
  private static final Identifier PNL = Identifier.of("pnl_usd");
  private static final Map<Integer, HourStatus> LOOK = Map.of(700, HourStatus.UNEXPECTED, 1200,
      HourStatus.ACKNOWLEDGED, 2000, HourStatus.UNEXPECTED, 2600, HourStatus.GAP, 3100, HourStatus.ACKNOWLEDGED,
      3500, HourStatus.UNEXPECTED, 4000, HourStatus.DUPLICATE, HOURS - 12, HourStatus.UNEXPECTED);
  private static final Instant MADE = Instant.parse("2026-12-01T09:00:00Z");

  static SixMonthReport build() {
    HourPartition boundary = FIRST.plusHours(HOURS - OVERLAP);
    List<Diff.HourDiff> hours = new ArrayList<>(HOURS);
    List<Reconciliation.HourClass> classes = new ArrayList<>(HOURS);
    Map<HourPartition, Map<String, Long>> counts = new HashMap<>();
    List<Diff.KeyDiff> keys = new ArrayList<>();
    List<Reconciliation.CoverageIssue> coverage = new ArrayList<>();
    List<Reconciliation.Acknowledgement> acks = new ArrayList<>();
    for (int i = 0; i < HOURS; i++) {
      HourPartition h = FIRST.plusHours(i);
      double rhythm = 0.55 + 0.45 * Math.sin(Math.PI * (i % 24) / 24);
      double noise = ((i * 2654435761L) & 0xffff) / 65536.0;
      double quantity = Math.round(1000 * rhythm + 200 * noise);
      double fees = 40 * rhythm + 8 * noise;
      double pnl = 2400 * (rhythm - 0.6) + 500 * (noise - 0.5);
      HourStatus status = LOOK.getOrDefault(i, HourStatus.EXPECTED);
      // v1 counts a retried append twice; a gap leaves v2 empty; a duplicate counts v2's hour twice.
      double v1 = status == HourStatus.UNEXPECTED || status == HourStatus.ACKNOWLEDGED ? 2 : 1;
      double v2 = status == HourStatus.GAP ? 0 : status == HourStatus.DUPLICATE ? 2 : 1;
      long rows = 12;
      hours.add(new Diff.HourDiff(h, rows, (long) (rows * v2), rows, rows, i, -i, List.of(
          new Diff.Total(QUANTITY, v1 * quantity, v2 * quantity), new Diff.Total(FEES, v1 * fees, v2 * fees),
          new Diff.Total(PNL, v1 * pnl, v2 * (pnl - fees)))));
      classes.add(new Reconciliation.HourClass(h, h.isBefore(boundary) ? Reconciliation.Owner.BACKFILL
          : Reconciliation.Owner.LIVE, status));
      if (status == HourStatus.EXPECTED) {
        counts.put(h, Map.of("fee_fix", rows));
        continue;
      }
      counts.put(h, Map.of(Reconciliation.UNEXPECTED + Diff.Kind.CHANGED.name(), (long) KEYS_PER_HOUR));
      for (int k = 0; k < KEYS_PER_HOUR; k++) {
        keys.add(new Diff.KeyDiff(h, List.of("BOOK-" + (k % 7), "INSTR-" + k), Diff.Kind.CHANGED, 1, 1,
            Map.of(QUANTITY, 10.0 * v1, PNL, 42.0 * v1), Map.of(QUANTITY, 10.0 * v2, PNL, 42.0 * v2),
            Optional.empty()));
      }
      if (status == HourStatus.ACKNOWLEDGED) {
        acks.add(new Reconciliation.Acknowledgement(h, List.of(), "a retried append, corrected upstream", "operator",
            MADE, new Reconciliation.Fingerprint(1, java.util.Map.of("DUPLICATE_IN_V1", 1L), java.util.Map.of(), 1)));
      } else if (status == HourStatus.GAP) {
        coverage.add(new Reconciliation.CoverageIssue(h, "gap", "no completed backfill hour in the repair's ledger"));
      } else if (status == HourStatus.DUPLICATE) {
        coverage.add(new Reconciliation.CoverageIssue(h, "owner", "a backfill of the repair wrote this hour, which "
            + "the live writer also wrote"));
      }
    }
    Reconciliation r = new Reconciliation("20261201-090000-bench", "pnl", "trading.pnl_v2",
        Reconciliation.Scope.REPAIR, "20260601-000000-repair", "sha", MADE, new HourRange(FIRST,
        FIRST.plusHours(HOURS)), boundary, Reconciliation.Verdict.RED, hours, keys, false, counts, coverage, acks,
        classes);
    return new SixMonthReport(threeMeasures(), r, 700);
  }

  /** A spec of the same shape as the demo's, with three measures. Parsed, never checked against a server. */
  private static TableSpec threeMeasures() {
    return dev.cutover.engine.testing.PnlSpecs.threeMeasures();
  }
}
