package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One measure hour by hour over a range of a reconciliation: v1, v2, v2 − v1 and each hour's class,
 * indexed from the range's first hour. Hours absent from both versions hold no rows, so their totals
 * are zero; hours outside the reconciliation's classes count as identical.
 *
 * <p>The arrays are for drawing; the figures a sentence prints ({@link #summary}) are added and
 * subtracted as their type does and printed by {@link MeasureFormat}.
 */
final class HourSeries {

  final HourRange range;
  final double[] v1;
  final double[] v2;
  final double[] delta;
  final HourStatus[] status;
  private final String type;
  private final List<Number> v1Totals = new ArrayList<>();
  private final List<Number> v2Totals = new ArrayList<>();
  private int differing;
  private int largest = -1;
  private Number largestDelta;

  private HourSeries(HourRange range, String type) {
    int n = (int) range.hours();
    this.range = range;
    this.type = type;
    this.v1 = new double[n];
    this.v2 = new double[n];
    this.delta = new double[n];
    this.status = new HourStatus[n];
    Arrays.fill(status, HourStatus.IDENTICAL);
  }

  /** {@code measure} (of ClickHouse type {@code type}) over {@code range}, which lies within the window. */
  static HourSeries of(Reconciliation r, Identifier measure, String type, HourRange range) {
    HourSeries s = new HourSeries(range, type);
    for (Diff.HourDiff h : r.hours()) {
      int i = s.index(h.hour());
      for (Diff.Total t : h.totals()) {
        if (i >= 0 && t.measure().equals(measure)) {
          s.add(i, t.v1(), t.v2());
        }
      }
    }
    for (Reconciliation.HourClass c : r.classes()) {
      int i = s.index(c.hour());
      if (i >= 0) {
        s.status[i] = c.status();
      }
    }
    return s;
  }

  private void add(int i, Number a, Number b) {
    Number d = MeasureFormat.delta(a, b, type);
    v1[i] = a.doubleValue();
    v2[i] = b.doubleValue();
    delta[i] = d.doubleValue();
    v1Totals.add(a);
    v2Totals.add(b);
    if (MeasureFormat.differs(a, b, type)) {
      differing++;
      if (largest < 0 || Math.abs(delta[i]) > Math.abs(delta[largest])) {
        largest = i;
        largestDelta = d;
      }
    }
  }

  /** The hour's position from the range's first hour, or -1 outside the range. */
  private int index(HourPartition hour) {
    long i = (hour.epochSecond() - range.from().epochSecond()) / 3600;
    return hour.isBefore(range.from()) || i >= v1.length ? -1 : (int) i;
  }

  int hours() {
    return v1.length;
  }

  /**
   * What the chart shows, in one sentence: "v2 − v1 over the window: -531715.5025 in all; 4,392 of
   * 4,392 hours differ, the most at 2026-07-31 11:00 UTC (-2518.0771)."
   */
  String summary(String over) {
    Number total = MeasureFormat.delta(MeasureFormat.sum(v1Totals, type), MeasureFormat.sum(v2Totals, type), type);
    String out = "v2 − v1 over " + over + ": " + MeasureFormat.format(total, type) + " in all; "
        + Words.count(differing) + " of " + Words.count(hours(), "hour differs", "hours differ");
    return largest < 0 ? out + "." : out + ", the most at " + range.from().plusHours(largest) + " UTC ("
        + MeasureFormat.format(largestDelta, type) + ").";
  }

  static double min(double[] series) {
    double m = series.length == 0 ? 0 : Double.POSITIVE_INFINITY;
    for (double v : series) {
      m = Math.min(m, v);
    }
    return m;
  }

  static double max(double[] series) {
    double m = series.length == 0 ? 0 : Double.NEGATIVE_INFINITY;
    for (double v : series) {
      m = Math.max(m, v);
    }
    return m;
  }
}
