package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.ui.common.Formats;
import java.util.Arrays;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;

/**
 * v1's and v2's total of one measure per hour, as two lines over the reconciliation's window. The
 * values are laid out in arrays once per report and measure; drawing visits each pixel column once,
 * with the lowest and highest value of the hours under it, so six months draw as fast as a day.
 */
public final class TotalsChart extends HourCanvas {

  private Identifier measure;
  private double[] v1 = new double[0];
  private double[] v2 = new double[0];
  private boolean[] present = new boolean[0];

  TotalsChart() {
    super("totals-chart");
    setMinHeight(80);
    setPrefHeight(190);
  }

  /** Lays out the totals of {@code m} in {@code r}, hour by hour; drawing reads only these arrays. */
  void measure(Identifier m, Reconciliation r) {
    measure = m;
    int n = r == null ? 0 : (int) r.window().hours();
    v1 = new double[n];
    v2 = new double[n];
    present = new boolean[n];
    totalsOf(r, m, (t, i) -> {
      v1[i] = t.v1();
      v2[i] = t.v2();
      present[i] = true;
    });
  }

  @Override
  void draw(GraphicsContext g, double width, double height) {
    int n = Math.min(count(), present.length);
    double low = Double.POSITIVE_INFINITY;
    double high = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      if (present[i]) {
        low = Math.min(low, Math.min(v1[i], v2[i]));
        high = Math.max(high, Math.max(v1[i], v2[i]));
      }
    }
    double top = 10;
    double bottom = height - 20;
    g.setStroke(palette.border());
    g.setLineWidth(1);
    g.strokeLine(LEFT, bottom, width - RIGHT, bottom);
    g.setFill(palette.muted());
    g.setFont(Font.font(10));
    if (low > high) {
      g.fillText("no hour of " + measure + " in either version", LEFT + 8, (top + bottom) / 2);
      return;
    }
    if (low == high) {
      low -= 1;
      high += 1;
    }
    g.fillText(Formats.compact(high), 4, top + 8);
    g.fillText(Formats.compact(low), 4, bottom);
    dates(g, bottom, width);
    double scale = (bottom - top) / (high - low);
    line(g, v1, palette.series1(), low, scale, bottom, n, width);
    line(g, v2, palette.series2(), low, scale, bottom, n, width);
  }

  /** Date labels at about eight evenly spaced hours along the bottom; none that would run off the edge. */
  private void dates(GraphicsContext g, double bottom, double width) {
    int n = count();
    int every = Math.max(1, n / 8);
    for (int i = 0; i < n; i += every) {
      String label = n > 72 ? hour(i).toString().substring(5, 10) : hour(i).toString().substring(5);
      if (x(i) + label.length() * 6 <= width - 2) {
        g.fillText(label, x(i), bottom + 14);
      }
    }
  }

  /**
   * One series: through each hour's centre when hours are wider than a pixel; otherwise one vertical
   * stroke per pixel column from the lowest to the highest value under it, joined to the next column.
   */
  private void line(GraphicsContext g, double[] values, Color colour, double low, double scale, double bottom, int n,
      double width) {
    g.setStroke(colour);
    g.setLineWidth(1.5);
    double column = columnWidth();
    int columns = (int) Math.ceil(width - LEFT - RIGHT);
    double[] xs = new double[Math.max(n, columns) * 2];
    double[] ys = new double[xs.length];
    int points = 0;
    if (column >= 1) {
      for (int i = 0; i < n; i++) {
        if (present[i]) {
          xs[points] = x(i) + column / 2;
          ys[points++] = bottom - (values[i] - low) * scale;
        }
      }
    } else {
      int i = 0;
      for (int px = 0; px < columns && i < n; px++) {
        int end = Math.min(n, (int) Math.floor((px + 1) / column));
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (; i < end; i++) {
          if (present[i]) {
            min = Math.min(min, values[i]);
            max = Math.max(max, values[i]);
          }
        }
        if (min <= max) {
          xs[points] = LEFT + px + 0.5;
          ys[points++] = bottom - (min - low) * scale;
          xs[points] = LEFT + px + 0.5;
          ys[points++] = bottom - (max - low) * scale;
        }
      }
    }
    g.strokePolyline(Arrays.copyOf(xs, points), Arrays.copyOf(ys, points), points);
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
