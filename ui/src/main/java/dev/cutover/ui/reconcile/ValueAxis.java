package dev.cutover.ui.reconcile;

import dev.cutover.ui.common.Palette;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * The value axis beside a chart: a range widened to round ticks (1, 2, 2.5 or 5 times a power of ten), a light
 * gridline at each tick across the plot, and each tick's label in the gutter left of the plot, right-aligned, with
 * as many decimals as the step needs and no more ({@code 20k}, {@code 22.5k}, {@code 0}, {@code −20k}).
 */
final class ValueAxis {

  private static final double[] NICE = {1, 2, 2.5, 5, 10};

  /** {@code [low, high]} with a tick every {@code step}, from {@code low} on. */
  record Scale(double low, double high, double step) {

    List<Double> ticks() {
      List<Double> out = new ArrayList<>();
      long n = Math.round((high - low) / step);
      for (long i = 0; i <= n; i++) {
        out.add(low + i * step);
      }
      return out;
    }

    /** Where {@code v} lies between {@code bottom} (at {@code low}) and {@code top} (at {@code high}). */
    double y(double v, double top, double bottom) {
      return bottom - (v - low) / (high - low) * (bottom - top);
    }
  }

  private ValueAxis() {}

  /**
   * The round range around {@code [low, high]} with at most {@code ticks} ticks; a range of one value is widened
   * around it, so that a flat series sits in the middle of the plot rather than on an edge.
   */
  static Scale nice(double low, double high, int ticks) {
    if (!(low < high)) {
      double pad = low == 0 ? 1 : Math.abs(low) / 10;
      low -= pad;
      high += pad;
    }
    double raw = (high - low) / Math.max(1, ticks - 1);
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = NICE[NICE.length - 1] * power;
    for (double m : NICE) {
      if (m * power >= raw) {
        step = m * power;
        break;
      }
    }
    return new Scale(Math.floor(low / step) * step, Math.ceil(high / step) * step, step);
  }

  /**
   * Draws a gridline across {@code [left, right]} at each tick of {@code s} between {@code top} and {@code bottom},
   * and its label right-aligned just left of {@code left}; the zero line, when zero is a tick, stronger than the rest.
   */
  static void draw(GraphicsContext g, Scale s, double top, double bottom, double left, double right, Palette palette) {
    g.setFont(Font.font(10));
    g.setTextAlign(TextAlignment.RIGHT);
    g.setTextBaseline(VPos.CENTER);
    for (double t : s.ticks()) {
      double y = Math.round(s.y(t, top, bottom)) + 0.5;
      boolean zero = Math.abs(t) < s.step() / 1e6;
      g.setStroke(zero ? palette.muted() : palette.border().deriveColor(0, 1, 1, 0.6));
      g.setLineWidth(1);
      g.strokeLine(left, y, right, y);
      g.setFill(palette.muted());
      g.fillText(label(zero ? 0 : t, s), left - 6, y);
    }
    g.setTextAlign(TextAlignment.LEFT);
    g.setTextBaseline(VPos.BASELINE);
  }

  /** A tick's label: the unit (k, M, G) of the largest tick, and the decimals the step needs in that unit. */
  static String label(double v, Scale s) {
    double largest = Math.max(Math.abs(s.low()), Math.abs(s.high()));
    double unit = largest >= 1e9 ? 1e9 : largest >= 1e6 ? 1e6 : largest >= 1e3 ? 1e3 : 1;
    String suffix = unit == 1e9 ? "G" : unit == 1e6 ? "M" : unit == 1e3 ? "k" : "";
    double step = s.step() / unit;
    int decimals = 0;
    while (decimals < 9 && Math.abs(step * Math.pow(10, decimals) - Math.rint(step * Math.pow(10, decimals))) > 1e-6) {
      decimals++;
    }
    String digits = String.format(Locale.ROOT, "%." + decimals + "f", Math.abs(v) / unit);
    return (v < 0 ? "−" : "") + digits + (v == 0 ? "" : suffix);
  }
}
