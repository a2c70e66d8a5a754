package dev.cutover.bench;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.ui.common.Palette;
import dev.cutover.ui.reconcile.ChartWindow.Span;
import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.Axis;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.renderer.ErrorStyle;
import io.fair_acc.chartfx.renderer.LineStyle;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.dataset.spi.DoubleDataSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;

/**
 * The Reconcile screen's totals and delta charts drawn by a chart library (ChartFX 11.3.1) instead of the
 * console's own canvas, for section 28 only: v1 and v2 of one measure as two lines over every hour of the
 * window, and v2 − v1 per hour as bars, with the hours that need a look as bars of their own at a fixed
 * width, one data set per class. Both charts show the hours of a {@link Span} of the report's window: the
 * x axes are set to it with auto-ranging off, and the y axes to the values in view, as the console scales
 * its charts. The library draws in the scene's pre- and post-layout pulse listeners; {@link #beforeLayout}
 * and {@link #afterLayout} run the same work where a timed step needs it, in the order a pulse runs it.
 */
final class LibraryCharts {

  /** An XYChart whose layout hooks a timed step can run in the order a pulse runs them. */
  static final class PulsedChart extends XYChart {

    PulsedChart(Axis... axes) {
      super(axes);
    }

    void beforeLayout() {
      runPreLayout();
    }

    void afterLayout() {
      runPostLayout();
    }

    /** Whether the chart still has something to lay out or draw. */
    boolean dirty() {
      return state.isDirty() || dataSetState.isDirty();
    }
  }

  /**
   * Whether the library's renderers compute screen coordinates on threads of their own beside the FX thread: on
   * by default in the library; {@code -Dbench.jvm=-Dbench.chartlib.parallel=false} draws on the FX thread alone,
   * as the console's canvas does.
   */
  static final boolean PARALLEL = Boolean.parseBoolean(System.getProperty("bench.chartlib.parallel", "true"));

  private final PulsedChart totals;
  private final PulsedChart delta;
  private final DefaultNumericAxis totalsX = new DefaultNumericAxis("UTC");
  private final DefaultNumericAxis totalsY = new DefaultNumericAxis();
  private final DefaultNumericAxis deltaX = new DefaultNumericAxis("UTC");
  private final DefaultNumericAxis deltaY = new DefaultNumericAxis();
  private final DoubleDataSet v1 = new DoubleDataSet("v1");
  private final DoubleDataSet v2 = new DoubleDataSet("v2");
  private final DoubleDataSet change = new DoubleDataSet("v2 − v1");
  /** The hours that need a look, one data set per class, at the positions of {@link #marked}. */
  private final Map<HourStatus, DoubleDataSet> marks = new LinkedHashMap<>();
  private final Map<HourStatus, List<Integer>> marked = new LinkedHashMap<>();
  private final VBox card;
  private final long first;
  /** Hour centres in epoch seconds. */
  private final double[] xs;
  /** Per measure: v1, v2 and v2 − v1 per hour of the window, laid out once as the console lays out its own. */
  private final Map<Identifier, double[][]> series = new HashMap<>();
  private Identifier measure;
  private Span span = new Span(0, 0);

  /**
   * @param width the width of the console's charts card
   * @param height its height; the totals chart takes {@code totalsShare} of it, the delta chart the rest
   */
  LibraryCharts(Reconciliation r, Identifier m, double width, double height, double totalsShare) {
    first = r.window().from().epochSecond();
    int n = (int) r.window().hours();
    xs = new double[n];
    for (int i = 0; i < n; i++) {
      xs[i] = first + i * 3600L + 1800;
    }
    for (Diff.HourDiff h : r.hours()) {
      int i = (int) ((h.hour().epochSecond() - first) / 3600);
      for (Diff.Total t : h.totals()) {
        double[][] s = series.computeIfAbsent(t.measure(), k -> new double[3][n]);
        s[0][i] = t.v1();
        s[1][i] = t.v2();
        s[2][i] = t.delta();
      }
    }
    for (Reconciliation.HourClass c : r.classes()) {
      HourStatus s = c.status();
      if (s != HourStatus.EXPECTED && s != HourStatus.IDENTICAL) {
        marked.computeIfAbsent(s, k -> new ArrayList<>()).add((int) ((c.hour().epochSecond() - first) / 3600));
      }
    }
    Palette p = Palette.LIGHT;
    for (DefaultNumericAxis x : new DefaultNumericAxis[] {totalsX, deltaX}) {
      x.setTimeAxis(true);
      x.setAutoRanging(false);
      x.setUnit(null);
    }
    for (DefaultNumericAxis y : new DefaultNumericAxis[] {totalsY, deltaY}) {
      y.setAutoRanging(false);
      y.setAutoUnitScaling(true);
    }
    totals = new PulsedChart(totalsX, totalsY);
    ErrorDataSetRenderer lines = (ErrorDataSetRenderer) totals.getRenderers().getFirst();
    lines.setErrorStyle(ErrorStyle.NONE);
    lines.setParallelImplementation(PARALLEL);
    lines.setDrawMarker(false);
    lines.setPolyLineStyle(LineStyle.NORMAL);
    v1.setStyle(style(p.series1(), 1.5));
    v2.setStyle(style(p.series2(), 1.5));
    lines.getDatasets().addAll(v1, v2);

    delta = new PulsedChart(deltaX, deltaY);
    ErrorDataSetRenderer bars = (ErrorDataSetRenderer) delta.getRenderers().getFirst();
    bars.setErrorStyle(ErrorStyle.NONE);
    bars.setParallelImplementation(PARALLEL);
    bars.setDrawMarker(false);
    bars.setPolyLineStyle(LineStyle.NONE);
    bars.setDrawBars(true);
    change.setStyle(style(p.expected(), 1));
    bars.getDatasets().add(change);
    // The hours that need a look: never narrower than the console's 3 pixels, each class in its own colour.
    ErrorDataSetRenderer looks = new ErrorDataSetRenderer();
    looks.setErrorStyle(ErrorStyle.NONE);
    looks.setParallelImplementation(PARALLEL);
    looks.setDrawMarker(false);
    looks.setPolyLineStyle(LineStyle.NONE);
    looks.setDrawBars(true);
    looks.setDynamicBarWidth(false);
    looks.setShiftBar(false);
    looks.setBarWidth(3);
    for (HourStatus s : marked.keySet()) {
      DoubleDataSet d = new DoubleDataSet(s.name().toLowerCase(java.util.Locale.ROOT));
      d.setStyle(style(colour(p, s), 1));
      marks.put(s, d);
      looks.getDatasets().add(d);
    }
    delta.getRenderers().add(looks);
    for (XYChart c : new XYChart[] {totals, delta}) {
      c.setAnimated(false);
      // The console's card keeps its legend in a row of its own above the charts, which this card leaves out.
      c.setLegendVisible(false);
      VBox.setVgrow(c, Priority.ALWAYS);
    }
    totals.setPrefSize(width, height * totalsShare);
    delta.setPrefSize(width, height * (1 - totalsShare));
    card = new VBox(2, totals, delta);
    card.setMinSize(width, height);
    card.setPrefSize(width, height);
    card.setMaxSize(width, height);
    measure(m);
  }

  VBox card() {
    return card;
  }

  /** Shows {@code m}: the data sets take its values, and the y axes its range over the hours in view. */
  void measure(Identifier m) {
    measure = m;
    double[][] s = series.get(m);
    v1.set(xs, s[0], true);
    v2.set(xs, s[1], true);
    // An hour that needs a look is drawn by its class's data set alone, not also as an expected difference.
    double[] expected = s[2].clone();
    marked.values().forEach(at -> at.forEach(i -> expected[i] = 0));
    change.set(xs, expected, false);
    marks.forEach((status, d) -> {
      List<Integer> at = marked.get(status);
      double[] x = new double[at.size()];
      double[] y = new double[at.size()];
      for (int k = 0; k < x.length; k++) {
        x[k] = xs[at.get(k)];
        y[k] = s[2][at.get(k)];
      }
      d.set(x, y, false);
    });
    totalsY.setName(m.toString());
    deltaY.setName("v2 − v1");
    scaleValues();
  }

  /** Shows the hours of {@code s}: both x axes, then the y axes to the values in view. */
  void show(Span s) {
    span = s;
    double from = first + s.from() * 3600L;
    double to = first + s.to() * 3600L;
    totalsX.set(from, to);
    deltaX.set(from, to);
    scaleValues();
  }

  /** The y axes to the lowest and highest value in view, the delta's symmetric about zero. */
  private void scaleValues() {
    double[][] s = series.get(measure);
    double low = Double.POSITIVE_INFINITY;
    double high = Double.NEGATIVE_INFINITY;
    double most = 0;
    for (int i = span.from(); i < span.to(); i++) {
      low = Math.min(low, Math.min(s[0][i], s[1][i]));
      high = Math.max(high, Math.max(s[0][i], s[1][i]));
      most = Math.max(most, Math.abs(s[2][i]));
    }
    if (low > high) {
      return;
    }
    double pad = Math.max((high - low) * 0.05, 1e-9);
    totalsY.set(low - pad, high + pad);
    most = most == 0 ? 1 : most * 1.05;
    deltaY.set(-most, most);
  }

  void beforeLayout() {
    totals.beforeLayout();
    delta.beforeLayout();
  }

  void afterLayout() {
    totals.afterLayout();
    delta.afterLayout();
  }

  boolean dirty() {
    return totals.dirty() || delta.dirty();
  }

  private static String style(Color c, double width) {
    String web = String.format("#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
        Math.round(c.getBlue() * 255));
    return "-fx-line-color: " + web + "; -fx-marker-color: " + web + "; -fx-line-width: " + width + ";";
  }

  private static Color colour(Palette p, HourStatus s) {
    return switch (s) {
      case UNEXPECTED -> p.unexpected();
      case ACKNOWLEDGED -> p.acknowledged();
      case GAP -> p.gap();
      case DUPLICATE -> p.duplicate();
      case EXPECTED -> p.expected();
      case IDENTICAL -> p.identical();
    };
  }
}
