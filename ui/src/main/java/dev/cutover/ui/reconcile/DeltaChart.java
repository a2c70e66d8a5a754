package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.Palette;
import java.util.Locale;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;

/**
 * v2 − v1 of one measure per hour in view, as bars coloured by how the hour was classified, scaled to
 * the hours in view. When hours are narrower than a pixel, each pixel column draws the extremes of
 * its hours in the colour of the most severe class among them; unexpected, acknowledged, gap and
 * duplicate hours are then drawn again on top, at least 3 pixels wide, with a tick under the chart.
 */
public final class DeltaChart extends HourCanvas {

  private Identifier measure;
  private MeasureTotals.Series series = MeasureTotals.Series.empty(0);

  DeltaChart() {
    super("delta-chart");
    setMinHeight(46);
    setPrefHeight(100);
  }

  /** Shows v2 − v1 of {@code m}, from the totals laid out once per report in {@code t}. */
  void measure(Identifier m, MeasureTotals t) {
    measure = m;
    series = t.series(m);
  }

  double delta(int i) {
    return series.delta(i);
  }

  @Override
  void draw(GraphicsContext g, double width, double height) {
    int from = first();
    int to = last();
    double max = 0;
    for (int i = from; i < to; i++) {
      max = Math.max(max, Math.abs(delta(i)));
    }
    double top = 16;
    double bottom = height - 9;
    // Symmetric round ticks around a zero line, so that an hour's bar reads against the axis at a glance.
    ValueAxis.Scale axis = ValueAxis.nice(-max, max, max == 0 ? 2 : 3);
    double zero = axis.y(0, top, bottom);
    double scale = (bottom - top) / (axis.high() - axis.low());
    ValueAxis.draw(g, axis, top, bottom, LEFT, width - RIGHT, palette);
    g.setFill(palette.muted());
    g.setFont(Font.font(10));
    g.fillText("v2 − v1 · " + measure + " per hour", LEFT + 4, 11);
    clipToPlot(g);
    double column = columnWidth();
    if (column >= 1) {
      double w = Math.max(1, column - (column >= 4 ? 1 : 0));
      for (int i = from; i < to; i++) {
        bar(g, x(i), w, delta(i), zero, scale, colour(palette, classes.status(i)));
      }
    } else {
      // One bar per pixel column: its hours' extremes, in the colour of the most severe class among them.
      int columns = (int) Math.ceil(plotWidth());
      int i = from;
      for (int px = 0; px < columns && i < to; px++) {
        int end = Math.min(to, from + (int) Math.floor((px + 1) / column));
        double up = 0;
        double down = 0;
        HourStatus worst = HourStatus.IDENTICAL;
        for (; i < end; i++) {
          up = Math.max(up, delta(i));
          down = Math.min(down, delta(i));
          HourStatus s = classes.status(i);
          if (rank(s) > rank(worst)) {
            worst = s;
          }
        }
        Color c = colour(palette, worst);
        bar(g, LEFT + px, 1, up, zero, scale, c);
        bar(g, LEFT + px, 1, down, zero, scale, c);
      }
    }
    // Hours that need a look, on top and never thinner than 3 pixels: a bar of their delta and a tick below.
    for (int i : classes.marked()) {
      if (i < from || i >= to) {
        continue;
      }
      Color c = colour(palette, classes.status(i));
      double d = delta(i);
      double y = d >= 0 ? zero - d * scale : zero;
      double bar = Math.max(d == 0 ? 0 : 2, Math.abs(d) * scale);
      if (bar > 0) {
        mark(g, i, y, y + bar, c);
      }
      mark(g, i, height - 6, height - 1, c);
    }
    g.restore();
  }

  private static void bar(GraphicsContext g, double x, double w, double d, double zero, double scale, Color c) {
    if (d == 0) {
      return;
    }
    g.setFill(c);
    double y = d > 0 ? zero - d * scale : zero;
    g.fillRect(x, y, w, Math.max(1, Math.abs(d) * scale));
  }

  /** Which class colours a pixel column that holds several hours: the one that most needs a look. */
  private static int rank(HourStatus s) {
    return switch (s) {
      case IDENTICAL -> 0;
      case EXPECTED -> 1;
      default -> 1 + HourClasses.severity(s);
    };
  }

  static Color colour(Palette palette, HourStatus s) {
    return switch (s) {
      case IDENTICAL -> palette.identical();
      case EXPECTED -> palette.expected();
      case UNEXPECTED -> palette.unexpected();
      case ACKNOWLEDGED -> palette.acknowledged();
      case GAP -> palette.gap();
      case DUPLICATE -> palette.duplicate();
    };
  }

  @Override
  String describe(int index) {
    HourPartition h = hour(index);
    return h + " UTC: Δ " + measure + " " + Formats.signed(delta(index)) + ", "
        + classes.status(index).name().toLowerCase(Locale.ROOT);
  }
}
