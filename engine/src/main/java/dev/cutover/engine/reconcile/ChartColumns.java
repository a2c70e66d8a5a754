package dev.cutover.engine.reconcile;

import java.util.ArrayList;
import java.util.List;

/**
 * The hours of a window grouped into at most one column per pixel of a chart. Six months are about
 * 4,400 hours and a chart about 1,100 pixels wide: drawing every hour would triple the file and draw
 * nothing more. Each column keeps, for a line, its first, lowest, highest and last hour (in time
 * order), which draws the same pixels as every hour would, so a one-hour spike stays visible.
 */
final class ChartColumns {

  private final int hours;
  private final int columns;

  ChartColumns(int hours, int maxColumns) {
    this.hours = Math.max(0, hours);
    this.columns = Math.min(this.hours, Math.max(1, maxColumns));
  }

  int count() {
    return columns;
  }

  /** The first hour (from the window's start) of column {@code c}. */
  int first(int c) {
    return (int) ((long) c * hours / columns);
  }

  /** The hour after the last one of column {@code c}. */
  int end(int c) {
    return (int) ((long) (c + 1) * hours / columns);
  }

  /** The hours of column {@code c} that a line through {@code series} must pass: first, lowest, highest, last. */
  List<Integer> extremes(double[] series, int c) {
    int first = first(c);
    int last = end(c) - 1;
    int low = first;
    int high = first;
    for (int i = first; i <= last; i++) {
      if (series[i] < series[low]) {
        low = i;
      }
      if (series[i] > series[high]) {
        high = i;
      }
    }
    List<Integer> out = new ArrayList<>(4);
    for (int i : new int[] {first, Math.min(low, high), Math.max(low, high), last}) {
      if (out.isEmpty() || out.getLast() != i) {
        out.add(i);
      }
    }
    return out;
  }

  /** The lowest value of {@code series} in column {@code c}. */
  double min(double[] series, int c) {
    double m = Double.POSITIVE_INFINITY;
    for (int i = first(c); i < end(c); i++) {
      m = Math.min(m, series[i]);
    }
    return m;
  }

  /** The highest value of {@code series} in column {@code c}. */
  double max(double[] series, int c) {
    double m = Double.NEGATIVE_INFINITY;
    for (int i = first(c); i < end(c); i++) {
      m = Math.max(m, series[i]);
    }
    return m;
  }
}
