package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import javafx.scene.canvas.GraphicsContext;

/**
 * The time axis under a chart: ticks and UTC labels at a round step (an hour, a few hours, a day, a
 * week…) chosen so that labels never overlap at the zoom in view.
 */
final class TimeAxis {

  private static final long[] STEPS = {1, 2, 3, 6, 12, 24, 48, 96, 168, 336, 672};
  private static final double CHAR = 5.6;

  private TimeAxis() {}

  /** Draws ticks and labels along {@code y} for the hours {@code chart} shows, in the current fill and font. */
  static void draw(GraphicsContext g, HourCanvas chart, double y) {
    int first = chart.first();
    int last = chart.last();
    double column = chart.columnWidth();
    if (last <= first || column <= 0) {
      return;
    }
    boolean days = last - first > 72;
    double label = (days ? 5 : 11) * CHAR;
    long step = STEPS[STEPS.length - 1];
    for (long s : STEPS) {
      if (s * column >= label + 14 && (!days || s >= 24)) {
        step = s;
        break;
      }
    }
    long base = chart.hour(0).epochSecond() / 3600;
    long firstHour = base + first;
    long aligned = Math.floorDiv(firstHour + step - 1, step) * step;
    double right = chart.x(last) - 2;
    g.setStroke(g.getFill());
    g.setLineWidth(1);
    for (long h = aligned; h < base + last; h += step) {
      int i = (int) (h - base);
      double x = chart.x(i);
      g.strokeLine(x, y, x, y + 3);
      String text = days ? HourPartition.ofEpochSecond(h * 3600).toString().substring(5, 10)
          : HourPartition.ofEpochSecond(h * 3600).toString().substring(5);
      if (x + text.length() * CHAR <= right + HourCanvas.RIGHT) {
        g.fillText(text, x + 2, y + 13);
      }
    }
  }
}
