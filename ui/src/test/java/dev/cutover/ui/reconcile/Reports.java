package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reports built in a test rather than reconciled: months of hours shaped like the demo's PnL (a daily
 * rhythm, a fee fix that lowers every hour a little), one hour with an unexpected difference and one
 * acknowledged, keys as long as the demo's books and instruments. For what a test of the screen needs
 * at a size no test would reconcile.
 */
final class Reports {

  static final Identifier QUANTITY = Identifier.of("quantity");
  static final Identifier FEES = Identifier.of("fees_usd");
  static final Identifier PNL = Identifier.of("pnl_usd");
  /** The key of the unexpected hour's widest row: no part of it may be cut off on screen. */
  static final List<String> LONG_KEY = List.of("NYC-EQ-FLOW-STRUCTURED-03", "AAPL.OQ");

  private Reports() {}

  /** A spec of the same shape: two key columns, three measures. Parsed, never checked against a server. */
  static TableSpec spec() {
    return dev.cutover.engine.testing.PnlSpecs.threeMeasures();
  }

  /**
   * {@code hours} hours from {@code first}, the live writer's from {@code boundary}; hour
   * {@code unexpected} differs unexpectedly and hour {@code acknowledged} is accepted (-1: none).
   */
  static Reconciliation of(HourPartition first, int hours, HourPartition boundary, int unexpected, int acknowledged) {
    List<Diff.HourDiff> diffs = new ArrayList<>(hours);
    List<Reconciliation.HourClass> classes = new ArrayList<>(hours);
    Map<HourPartition, Map<String, Long>> counts = new HashMap<>();
    List<Diff.KeyDiff> keys = new ArrayList<>();
    List<Reconciliation.Acknowledgement> acks = new ArrayList<>();
    for (int i = 0; i < hours; i++) {
      HourPartition h = first.plusHours(i);
      int hourOfDay = (int) ((h.epochSecond() / 3600) % 24);
      double rhythm = 0.55 + 0.45 * Math.sin(Math.PI * hourOfDay / 24);
      double noise = ((i * 2654435761L) & 0xffff) / 65536.0;
      double quantity = Math.round(1000 * rhythm + 200 * noise);
      double fees = 40 * rhythm + 8 * noise;
      double pnlV1 = 2400 * (rhythm - 0.6) + 500 * (noise - 0.5);
      double pnlV2 = pnlV1 - fees;
      Reconciliation.HourStatus status = Reconciliation.HourStatus.EXPECTED;
      double quantityV1 = quantity;
      double pnlTotalV1 = pnlV1;
      if (i == unexpected || i == acknowledged) {
        // A retried append in v1: the hour's rows counted twice.
        quantityV1 = 2 * quantity;
        pnlTotalV1 = 2 * pnlV1;
        status = i == unexpected ? Reconciliation.HourStatus.UNEXPECTED : Reconciliation.HourStatus.ACKNOWLEDGED;
        counts.put(h, Map.of(Reconciliation.UNEXPECTED + "DUPLICATE_IN_V1", 3L));
        for (List<String> key : List.of(LONG_KEY, List.of("LDN-EQ-FLOW-01", "VOD.L"), List.of("ZRH-ETF-MM-02",
            "CSSMI.SW"))) {
          keys.add(new Diff.KeyDiff(h, key, Diff.Kind.DUPLICATE_IN_V1, 2, 1, Map.of(QUANTITY, 20.0, PNL, 84.0),
              Map.of(QUANTITY, 10.0, PNL, 42.0), Optional.empty()));
        }
        if (i == acknowledged) {
          acks.add(new Reconciliation.Acknowledgement(h, List.of(), "a retried append, corrected upstream",
              "operator", Instant.parse("2026-11-30T09:00:00Z"), new Reconciliation.Fingerprint(1,
                  java.util.Map.of("DUPLICATE_IN_V1", 1L), java.util.Map.of(), 1)));
        }
      } else {
        counts.put(h, Map.of("fee_fix", 12L));
      }
      diffs.add(new Diff.HourDiff(h, 12, 12, 12, 12, i, -i, List.of(new Diff.Total(QUANTITY, quantityV1, quantity),
          new Diff.Total(FEES, fees, fees), new Diff.Total(PNL, pnlTotalV1, pnlV2))));
      classes.add(new Reconciliation.HourClass(h, h.isBefore(boundary) ? Reconciliation.Owner.BACKFILL
          : Reconciliation.Owner.LIVE, status));
    }
    Reconciliation.Verdict verdict = unexpected >= 0 ? Reconciliation.Verdict.RED : acknowledged >= 0
        ? Reconciliation.Verdict.ACKNOWLEDGED : Reconciliation.Verdict.GREEN;
    return new Reconciliation("20261130-090000-built", "pnl", "trading.pnl_v2", Reconciliation.Scope.REPAIR,
        "20260601-000000-repair", "sha", Instant.parse("2026-11-30T09:00:00Z"), new HourRange(first,
        first.plusHours(hours)), boundary, verdict, diffs, keys, false, counts, List.of(), acks, classes);
  }
}
