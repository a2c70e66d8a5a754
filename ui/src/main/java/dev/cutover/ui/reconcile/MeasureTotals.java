package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import java.util.HashMap;
import java.util.Map;

/**
 * Every measure's totals in a report, hour by hour over its window, laid out in one pass when the report
 * arrives: switching the measure then only picks arrays and redraws, instead of walking every hour of the
 * report again at the operator's click, in code the JIT has not compiled yet the first times.
 */
final class MeasureTotals {

  static final MeasureTotals NONE = new MeasureTotals(0, Map.of());

  /** One measure's v1, v2 and v2 − v1 per hour of the window, and whether the report holds the hour at all. */
  record Series(double[] v1, double[] v2, double[] delta, boolean[] present) {

    static Series empty(int hours) {
      return new Series(new double[hours], new double[hours], new double[hours], new boolean[hours]);
    }

    double delta(int i) {
      return i < delta.length ? delta[i] : 0;
    }
  }

  private final int hours;
  private final Map<Identifier, Series> series;

  private MeasureTotals(int hours, Map<Identifier, Series> series) {
    this.hours = hours;
    this.series = series;
  }

  static MeasureTotals of(Reconciliation r) {
    if (r == null) {
      return NONE;
    }
    int n = (int) r.window().hours();
    Map<Identifier, Series> series = new HashMap<>();
    long from = r.window().from().epochSecond();
    for (Diff.HourDiff h : r.hours()) {
      long i = (h.hour().epochSecond() - from) / 3600;
      if (i < 0 || i >= n) {
        continue;
      }
      for (Diff.Total t : h.totals()) {
        Series s = series.computeIfAbsent(t.measure(), m -> Series.empty(n));
        s.v1[(int) i] = t.v1();
        s.v2[(int) i] = t.v2();
        s.delta[(int) i] = t.delta();
        s.present[(int) i] = true;
      }
    }
    return new MeasureTotals(n, series);
  }

  /** The measure's totals; hours the report does not hold (or a measure it does not) are absent. */
  Series series(Identifier measure) {
    Series s = measure == null ? null : series.get(measure);
    return s != null ? s : Series.empty(hours);
  }
}
