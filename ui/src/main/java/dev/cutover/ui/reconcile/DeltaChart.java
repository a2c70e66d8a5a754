package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.ui.common.Formats;
import java.util.HashMap;
import java.util.Map;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;

/** v2 − v1 of one measure per hour, as bars coloured by how the hour was classified. */
public final class DeltaChart extends HourCanvas {

  private Identifier measure;
  private double[] deltas = new double[0];
  private final Map<HourPartition, HourStatus> status = new HashMap<>();

  DeltaChart() {
    super("delta-chart");
    setMinHeight(60);
    setPrefHeight(130);
  }

  /** Lays out v2 − v1 of {@code m} hour by hour, once per report and measure; drawing reads only the array. */
  void measure(Identifier m, Reconciliation r) {
    measure = m;
    status.clear();
    int n = r == null ? 0 : (int) r.window().hours();
    deltas = new double[n];
    if (r == null) {
      return;
    }
    r.classes().forEach(c -> status.put(c.hour(), c.status()));
    totalsOf(r, m, (t, i) -> deltas[i] = t.delta());
  }

  double delta(int i) {
    return i < deltas.length ? deltas[i] : 0;
  }

  @Override
  void draw(GraphicsContext g, double width, double height) {
    double max = 0;
    for (int i = 0; i < count(); i++) {
      max = Math.max(max, Math.abs(delta(i)));
    }
    double top = 8;
    double bottom = height - 8;
    double zero = (top + bottom) / 2;
    double scale = max == 0 ? 0 : (bottom - top) / 2 / max;
    g.setStroke(palette.border());
    g.setLineWidth(1);
    g.strokeLine(LEFT, zero, width - RIGHT, zero);
    g.setFill(palette.muted());
    g.setFont(Font.font(10));
    g.fillText(short_(max), 4, top + 8);
    g.fillText("0", 4, zero + 4);
    g.fillText(short_(-max), 4, bottom);
    double w = Math.max(1, columnWidth() - (columnWidth() >= 4 ? 1 : 0));
    for (int i = 0; i < count(); i++) {
      HourPartition h = hour(i);
      double d = delta(i);
      g.setFill(colour(status.getOrDefault(h, HourStatus.IDENTICAL)));
      double y = d >= 0 ? zero - d * scale : zero;
      double bar = Math.max(d == 0 ? 0 : 1, Math.abs(d) * scale);
      g.fillRect(x(i), y, w, bar);
      if (status.get(h) == HourStatus.GAP || status.get(h) == HourStatus.DUPLICATE || status.get(h) == HourStatus.UNEXPECTED) {
        g.fillRect(x(i), height - 5, w, 4);
      }
    }
  }

  Color colour(HourStatus s) {
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
        + status.getOrDefault(h, HourStatus.IDENTICAL).name().toLowerCase(java.util.Locale.ROOT);
  }

  private static String short_(double v) {
    return (v > 0 ? "+" : "") + Formats.compact(v);
  }
}
