package dev.cutover.ui.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every measure of a report laid out once, hour by hour: what the charts draw after a switch of the measure. */
class MeasureTotalsTest {

  private static final HourPartition FIRST = HourPartition.parse("first", "2026-06-01T00:00");

  @Test
  void everyMeasureHoldsEveryHourOfTheReport() {
    Reconciliation r = Reports.of(FIRST, 300, FIRST.plusHours(280), 100, 200);
    MeasureTotals laidOut = MeasureTotals.of(r);
    for (Identifier m : List.of(Reports.QUANTITY, Reports.FEES, Reports.PNL)) {
      MeasureTotals.Series s = laidOut.series(m);
      assertEquals(300, s.v1().length);
      for (Diff.HourDiff h : r.hours()) {
        int i = (int) ((h.hour().epochSecond() - FIRST.epochSecond()) / 3600);
        Diff.Total t = h.totals().stream().filter(x -> x.measure().equals(m)).findFirst().orElseThrow();
        assertTrue(s.present()[i], m + " at " + h.hour());
        assertEquals(t.v1(), s.v1()[i], m + " v1 at " + h.hour());
        assertEquals(t.v2(), s.v2()[i], m + " v2 at " + h.hour());
        assertEquals(t.delta(), s.delta(i), m + " v2 − v1 at " + h.hour());
      }
    }
    // The unexpected hour counts v1's rows twice: its quantity differs, where the fee fix leaves it alone.
    assertEquals(0, laidOut.series(Reports.QUANTITY).delta(99));
    assertTrue(laidOut.series(Reports.QUANTITY).delta(100) < 0);
  }

  @Test
  void hoursAndMeasuresTheReportDoesNotHoldAreAbsent() {
    Reconciliation r = Reports.of(FIRST, 48, FIRST.plusHours(40), -1, -1);
    // The same report with its first day missing: those hours are absent, not zero totals.
    Reconciliation missing = new Reconciliation(r.id(), r.spec(), r.target(), r.scope(), r.repairId(), r.specSha256(),
        r.created(), r.window(), r.boundary(), r.verdict(), r.hours().subList(24, 48), r.keys(), r.keysTruncated(),
        r.counts(), r.coverage(), r.acknowledged(), r.classes());
    MeasureTotals.Series fees = MeasureTotals.of(missing).series(Reports.FEES);
    assertFalse(fees.present()[0]);
    assertEquals(0, fees.delta(0));
    assertTrue(fees.present()[24]);
    MeasureTotals.Series other = MeasureTotals.of(r).series(Identifier.of("not_a_measure"));
    assertEquals(48, other.present().length);
    for (boolean p : other.present()) {
      assertFalse(p);
    }
    assertEquals(0, MeasureTotals.of(null).series(Reports.FEES).present().length);
  }
}
