package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.ui.common.Formats;
import java.util.Arrays;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;

/**
 * v1's and v2's total of one measure per hour in view, as two lines, scaled to the hours in view, with
 * a time axis. The values are laid out in arrays once per report and measure; drawing visits each
 * pixel column once, with the lowest and highest value of the hours under it, so six months draw as
 * fast as a day. Hours that need a look are shaded behind the lines, at least 3 pixels wide.
 */
public final class TotalsChart extends HourCanvas {

  /** Room under the plot for the time axis. */
  static final double AXIS = 20;

  private Identifier measure;
  private double[] v1 = new double[0];
  private double[] v2 = new double[0];
  private boolean[] present = new boolean[0];
  private double[] xs = new double[0];
  private double[] ys = new double[0];

  TotalsChart() {
    super("totals-chart");
    setMinHeight(70);
    setPrefHeight(190);
  }

  /** Shows the totals of {@code m}, laid out once per report in {@code t}; drawing reads only these arrays. */
  void measure(Identifier m, MeasureTotals t) {
    measure = m;
    MeasureTotals.Series s = t.series(m);
    v1 = s.v1();
    v2 = s.v2();
    present = s.present();
  }

  @Override
  void draw(GraphicsContext g, double width, double height) {
    int from = first();
    int to = Math.min(last(), present.length);
    double low = Double.POSITIVE_INFINITY;
    double high = Double.NEGATIVE_INFINITY;
    for (int i = from; i < to; i++) {
      if (present[i]) {
        low = Math.min(low, Math.min(v1[i], v2[i]));
        high = Math.max(high, Math.max(v1[i], v2[i]));
      }
    }
    double top = 18;
    double bottom = height - AXIS;
    // The measure, and what each point is: the name the spec gives it is its unit here.
    g.setFill(palette.muted());
    g.setFont(Font.font(10));
    g.fillText(measure + " · total per hour", LEFT + 4, 11);
    ValueAxis.Scale axis = low > high ? null : ValueAxis.nice(low, high, ticks(bottom - top));
    if (axis != null) {
      ValueAxis.draw(g, axis, top, bottom, LEFT, width - RIGHT, palette);
    }
    for (int i : classes.marked()) {
      if (i >= from && i < to) {
        mark(g, i, top, bottom, DeltaChart.colour(palette, classes.status(i)).deriveColor(0, 1, 1, 0.3));
      }
    }
    g.setStroke(palette.border());
    g.setLineWidth(1);
    g.strokeLine(LEFT, bottom, width - RIGHT, bottom);
    g.setFill(palette.muted());
    g.setFont(Font.font(10));
    TimeAxis.draw(g, this, bottom);
    if (axis == null) {
      g.fillText("no hour of " + measure + " in either version in view", LEFT + 8, (top + bottom) / 2);
      return;
    }
    low = axis.low();
    double scale = (bottom - top) / (axis.high() - axis.low());
    clipToPlot(g);
    line(g, v1, palette.series1(), low, scale, bottom, from, to);
    line(g, v2, palette.series2(), low, scale, bottom, from, to);
    g.restore();
  }

  /**
   * One series: a line through each hour's centre (with a dot when hours are wide) when hours are wider
   * than a pixel; otherwise, per pixel column, one filled bar from the lowest to the highest value of
   * its hours, reaching to the previous column's middle so that the band has no breaks. Bars, not a
   * zig-zag line: a software renderer fills axis-aligned rectangles far faster than it strokes a path
   * that runs up and down every pixel.
   */
  private void line(GraphicsContext g, double[] values, Color colour, double low, double scale, double bottom, int from,
      int to) {
    double column = columnWidth();
    if (column < 1) {
      g.setFill(colour);
      int columns = (int) Math.ceil(plotWidth());
      int i = from;
      double previous = Double.NaN;
      for (int px = 0; px < columns && i < to; px++) {
        int end = Math.min(to, from + (int) Math.floor((px + 1) / column));
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (; i < end; i++) {
          if (present[i]) {
            min = Math.min(min, values[i]);
            max = Math.max(max, values[i]);
          }
        }
        if (min <= max) {
          double top = bottom - (max - low) * scale;
          double base = bottom - (min - low) * scale;
          if (!Double.isNaN(previous)) {
            top = Math.min(top, previous);
            base = Math.max(base, previous);
          }
          g.fillRect(LEFT + px, top - 0.75, 1, base - top + 1.5);
          previous = (top + base) / 2;
        }
      }
      return;
    }
    g.setStroke(colour);
    g.setLineWidth(1.5);
    int size = (to - from) + 1;
    if (xs.length < size) {
      xs = new double[size];
      ys = new double[size];
    }
    int points = 0;
    for (int i = from; i < to; i++) {
      if (present[i]) {
        xs[points] = x(i) + column / 2;
        ys[points++] = bottom - (values[i] - low) * scale;
      }
    }
    g.strokePolyline(Arrays.copyOf(xs, points), Arrays.copyOf(ys, points), points);
    if (column >= 8) {
      g.setFill(colour);
      for (int p = 0; p < points; p++) {
        g.fillOval(xs[p] - 2.5, ys[p] - 2.5, 5, 5);
      }
    }
  }

  /** As many ticks as fit one every 28 pixels or so: two to six. */
  static int ticks(double plotHeight) {
    return Math.max(2, Math.min(6, (int) (plotHeight / 28)));
  }

  @Override
  double plotBottom(double height) {
    return height - AXIS;
  }

  @Override
  String describe(int index) {
    HourPartition h = hour(index);
    if (index >= present.length || !present[index]) {
      return h + " UTC: no " + measure + " in either version";
    }
    return h + " UTC: " + measure + " v1 " + Formats.number(v1[index]) + ", v2 " + Formats.number(v2[index]);
  }
}
