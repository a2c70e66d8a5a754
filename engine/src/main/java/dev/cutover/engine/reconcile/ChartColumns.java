package dev.cutover.engine.reconcile;

import java.util.List;

/**
 * The hours of a window grouped into at most one column per pixel of a chart. Six months are about
 * 4,400 hours and a chart about 1,100 pixels wide: drawing every hour would quadruple the points and
 * show nothing more. Each column keeps, for a line, its lowest and its highest hour (in time order),
 * a vertical stroke over the column's whole range, so a one-hour spike stays visible.
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

  /** The hours of column {@code c} a line through {@code series} must pass: lowest and highest, in time order. */
  List<Integer> extremes(double[] series, int c) {
    int first = first(c);
    int low = first;
    int high = first;
    for (int i = first; i < end(c); i++) {
      if (series[i] < series[low]) {
        low = i;
      }
      if (series[i] > series[high]) {
        high = i;
      }
    }
    return low == high ? List.of(low) : List.of(Math.min(low, high), Math.max(low, high));
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
