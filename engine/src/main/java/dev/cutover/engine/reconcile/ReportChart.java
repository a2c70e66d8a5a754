package dev.cutover.engine.reconcile;

import static dev.cutover.engine.reconcile.ChartAxes.px;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The geometry of one measure's chart in a report, for the SVG template: v1 and v2 per hour as lines,
 * v2 − v1 per hour as bars coloured by the hour's class, unexpected, acknowledged, gap and duplicate
 * hours marked on top (never thinner than {@link #MIN_MARK} pixels, so one hour in six months shows),
 * the boundary B as a labelled line and the overlap since B shaded. A time axis with UTC dates and
 * value axes with round ticks make the figures readable without hovering.
 *
 * <p>Everything here is computed from doubles: positions need no more. Figures printed as text go
 * through {@link MeasureFormat}.
 */
final class ReportChart {

  static final int WIDTH = 1200;
  static final int LEFT = 84;
  static final int RIGHT = 40;
  static final int TOP = 48;
  static final int VALUES = 190;
  static final int GAP = 14;
  static final int STRIP = 10;
  static final int DELTA = 120;
  static final int BOTTOM = 50;
  static final double MIN_MARK = 3;
  /** Time labels closer than this would touch: "2026-06-03" is about 70 pixels wide. */
  static final double TIME_LABEL_SPACING = 96;

  /** Charts of windows longer than this get a second chart of the hours around B. */
  static final int ZOOM_AFTER_HOURS = 7 * 24;
  /** How far before B the chart around B begins. */
  static final int ZOOM_BEFORE_B = 48;

  /**
   * One measure's chart over {@code view} ({@code window} or {@code around-b}), every coordinate ready
   * for the template.
   */
  record Chart(String view, String heading, String measure, String type, String summary, String label, int width,
      int height, String plotLeft, String plotRight, List<Frame> frames, List<Grid> grid, List<TimeTick> timeTicks,
      String v1, String v2, List<Bars> bars, String zero, List<Mark> marks, List<Overlap> overlap,
      List<Boundary> boundary, List<PanelLabel> panelLabels, String plotTop, String plotHeight, String stripY,
      String stripHeight, String axisTitleY) {}

  /** A panel's outline. */
  record Frame(String x, String y, String w, String h) {}

  /** A horizontal grid line with its value label. */
  record Grid(String y, String labelY, String label, String panel) {}

  /** A vertical grid line with its date label (one or two lines). */
  record TimeTick(String x, String y1, String y2, String labelY, String line1, String line2) {}

  /** The v2 − v1 bars of one class, as one path. */
  record Bars(String status, String d) {}

  /** A problem hour (or a run of them) on top of the charts: a mark in the strip and a band across the panels. */
  record Mark(String status, String x, String w, String title) {}

  /** The overlap since B, shaded, with its label and a bracket above the plot. */
  record Overlap(String x, String w, String y, String h, String label, String labelX, String labelY, String anchor,
      String x2, String bracketY) {}

  /** The boundary B as a vertical line through both panels, labelled above them. */
  record Boundary(String x, String y1, String y2, String label, String labelX, String labelY, String anchor) {}

  /** A panel's name, written up the left margin. */
  record PanelLabel(String x, String y, String text) {}

  private ReportChart() {}

  private static final int[] SEVERITY = new int[HourStatus.values().length];

  static {
    SEVERITY[HourStatus.IDENTICAL.ordinal()] = 0;
    SEVERITY[HourStatus.EXPECTED.ordinal()] = 1;
    SEVERITY[HourStatus.ACKNOWLEDGED.ordinal()] = 2;
    SEVERITY[HourStatus.UNEXPECTED.ordinal()] = 3;
    SEVERITY[HourStatus.DUPLICATE.ordinal()] = 4;
    SEVERITY[HourStatus.GAP.ordinal()] = 5;
  }

  /** The chart of {@code measure} (of ClickHouse type {@code type}) over the reconciliation's window. */
  static Chart of(Reconciliation r, Identifier measure, String type) {
    return of(r, measure, type, r.window(), "window", measure.name());
  }

  /**
   * The chart of the hours around B, from two days before it, when the window is too long to show them:
   * over six months the overlap since B is a few pixels wide.
   */
  static List<Chart> aroundBoundary(Reconciliation r, Identifier measure, String type) {
    HourRange w = r.window();
    HourPartition b = r.boundary();
    if (w.hours() <= ZOOM_AFTER_HOURS || b.isBefore(w.from()) || !b.isBefore(w.to())) {
      return List.of();
    }
    HourPartition from = b.plusHours(-ZOOM_BEFORE_B).isBefore(w.from()) ? w.from() : b.plusHours(-ZOOM_BEFORE_B);
    HourPartition to = from.plusHours(ZOOM_AFTER_HOURS).isBefore(w.to()) ? from.plusHours(ZOOM_AFTER_HOURS) : w.to();
    return List.of(of(r, measure, type, new HourRange(from, to), "around-b", measure.name() + " around B"));
  }

  private static Chart of(Reconciliation r, Identifier measure, String type, HourRange window, String view,
      String heading) {
    int n = (int) window.hours();
    long from = window.from().epochSecond();
    double plot = WIDTH - LEFT - RIGHT;
    double valuesBottom = TOP + VALUES;
    double stripTop = valuesBottom + GAP;
    double deltaTop = stripTop + STRIP + GAP;
    double deltaBottom = deltaTop + DELTA;
    int height = (int) deltaBottom + BOTTOM;

    HourSeries series = HourSeries.of(r, measure, type, window);
    double[] v1 = series.v1;
    double[] v2 = series.v2;
    double[] delta = series.delta;
    HourStatus[] status = series.status;

    ChartColumns columns = new ChartColumns(n, (int) plot);
    double perHour = plot / Math.max(1, n);
    List<ChartAxes.ValueTick> valueTicks = ChartAxes.valueTicks(Math.min(HourSeries.min(v1), HourSeries.min(v2)),
        Math.max(HourSeries.max(v1), HourSeries.max(v2)), 4);
    List<ChartAxes.ValueTick> deltaTicks = ChartAxes.valueTicks(Math.min(0, HourSeries.min(delta)),
        Math.max(0, HourSeries.max(delta)), 3);
    BigDecimal vLo = valueTicks.getFirst().value();
    BigDecimal vHi = valueTicks.getLast().value();
    BigDecimal dLo = deltaTicks.getFirst().value();
    BigDecimal dHi = deltaTicks.getLast().value();

    List<Grid> grid = new ArrayList<>();
    for (ChartAxes.ValueTick t : valueTicks) {
      double y = ChartAxes.y(t.value().doubleValue(), vLo, vHi, TOP, valuesBottom);
      grid.add(new Grid(px(y), px(y + 4), t.label(), "values"));
    }
    for (ChartAxes.ValueTick t : deltaTicks) {
      double y = ChartAxes.y(t.value().doubleValue(), dLo, dHi, deltaTop, deltaBottom);
      grid.add(new Grid(px(y), px(y + 4), t.label(), "delta"));
    }
    List<TimeTick> timeTicks = new ArrayList<>();
    for (ChartAxes.TimeTick t : ChartAxes.timeTicks(window, perHour, TIME_LABEL_SPACING)) {
      double x = LEFT + t.hour() * perHour;
      timeTicks.add(new TimeTick(px(x), px(TOP), px(deltaBottom + 4), px(deltaBottom + 18), t.line1(), t.line2()));
    }

    String v1Line = line(v1, columns, perHour, vLo, vHi, TOP, valuesBottom);
    String v2Line = line(v2, columns, perHour, vLo, vHi, TOP, valuesBottom);
    double zero = ChartAxes.y(0, dLo, dHi, deltaTop, deltaBottom);
    List<Bars> bars = bars(delta, status, columns, perHour, dLo, dHi, deltaTop, deltaBottom, zero);
    List<Mark> marks = marks(window, status, perHour);

    HourPartition b = r.boundary();
    List<Boundary> boundary = new ArrayList<>();
    List<Overlap> overlap = new ArrayList<>();
    long bIndex = (b.epochSecond() - from) / 3600;
    if (bIndex >= 0 && bIndex <= n) {
      double x = LEFT + bIndex * perHour;
      boolean right = x > LEFT + plot / 2;
      boundary.add(new Boundary(px(x), px(TOP - 14), px(deltaBottom), "B " + b + " UTC: backfill before it, the "
          + "corrected live writer from it on", px(right ? x - 5 : x + 5), px(TOP - 30), right ? "end" : "start"));
    }
    long overlapStart = Math.max(0, bIndex);
    if (overlapStart < n) {
      double x = LEFT + overlapStart * perHour;
      double x2 = LEFT + plot;
      long hours = n - overlapStart;
      String label = "overlap since B (" + Words.count(hours, "hour", "hours") + "): both versions written live";
      boolean inside = x2 - x > 320;
      overlap.add(new Overlap(px(x), px(Math.max(MIN_MARK, x2 - x)), px(TOP), px(deltaBottom - TOP), label,
          px(inside ? x + 5 : x2), px(TOP - 12), inside ? "start" : "end", px(x2), px(TOP - 6)));
    }
    List<PanelLabel> panels = List.of(new PanelLabel("16", px(TOP + VALUES / 2.0), "v1 and v2"),
        new PanelLabel("16", px(deltaTop + DELTA / 2.0), "v2 − v1"));

    String summary = series.summary(view.equals("window") ? "the window" : "these " + Words.count(n, "hour", "hours"));
    String label = "v1, v2 and v2 − v1 of " + measure.name() + " per hour, " + window;
    return new Chart(view, heading, measure.name(), type, summary, label, WIDTH, height, px(LEFT), px(LEFT + plot),
        List.of(new Frame(px(LEFT), px(TOP), px(plot), px(VALUES)), new Frame(px(LEFT), px(deltaTop), px(plot),
            px(DELTA))), grid, timeTicks, v1Line, v2Line, bars, px(zero), marks, overlap, boundary, panels,
        px(TOP), px(deltaBottom - TOP), px(stripTop), px(STRIP), px(deltaBottom + 44));
  }

  /** A line through every column's lowest and highest hour: at most two points per pixel column. */
  private static String line(double[] series, ChartColumns columns, double perHour, BigDecimal lo, BigDecimal hi,
      double top, double bottom) {
    StringBuilder points = new StringBuilder();
    for (int c = 0; c < columns.count(); c++) {
      for (int i : columns.extremes(series, c)) {
        if (!points.isEmpty()) {
          points.append(' ');
        }
        points.append(px(LEFT + (i + 0.5) * perHour)).append(',').append(px(ChartAxes.y(series[i], lo, hi, top,
            bottom)));
      }
    }
    return points.toString();
  }

  /** One bar per column from zero to its lowest and highest v2 − v1, coloured by its most severe hour. */
  private static List<Bars> bars(double[] delta, HourStatus[] status, ChartColumns columns, double perHour,
      BigDecimal lo, BigDecimal hi, double top, double bottom, double zero) {
    Map<HourStatus, StringBuilder> paths = new EnumMap<>(HourStatus.class);
    for (int c = 0; c < columns.count(); c++) {
      double low = Math.min(0, columns.min(delta, c));
      double high = Math.max(0, columns.max(delta, c));
      if (low == 0 && high == 0) {
        continue;
      }
      HourStatus worst = HourStatus.IDENTICAL;
      for (int i = columns.first(c); i < columns.end(c); i++) {
        worst = SEVERITY[status[i].ordinal()] > SEVERITY[worst.ordinal()] ? status[i] : worst;
      }
      double x = LEFT + columns.first(c) * perHour;
      double w = Math.max(1, (columns.end(c) - columns.first(c)) * perHour);
      // Bars of a few pixels or more keep a hairline between hours, so single hours can be counted.
      w = w >= 6 ? w - 1 : w;
      double yHigh = Math.min(zero - 1, ChartAxes.y(high, lo, hi, top, bottom));
      double yLow = Math.max(zero + (low < 0 ? 1 : 0), ChartAxes.y(low, lo, hi, top, bottom));
      if (high == 0) {
        yHigh = zero;
      }
      paths.computeIfAbsent(worst, s -> new StringBuilder()).append('M').append(px(x)).append(' ').append(px(yHigh))
          .append('h').append(px(w)).append('V').append(px(yLow)).append('h').append(px(-w)).append('Z');
    }
    List<Bars> out = new ArrayList<>();
    paths.forEach((s, d) -> out.add(new Bars(s.name().toLowerCase(Locale.ROOT), d.toString())));
    return out;
  }

  /** Runs of consecutive hours of one problem class, each at least {@link #MIN_MARK} pixels wide. */
  private static List<Mark> marks(HourRange window, HourStatus[] status, double perHour) {
    List<Mark> out = new ArrayList<>();
    int n = status.length;
    for (int i = 0; i < n; ) {
      HourStatus s = status[i];
      if (s == HourStatus.IDENTICAL || s == HourStatus.EXPECTED) {
        i++;
        continue;
      }
      int j = i;
      while (j < n && status[j] == s) {
        j++;
      }
      double x = LEFT + i * perHour;
      double w = (j - i) * perHour;
      if (w < MIN_MARK) {
        x -= (MIN_MARK - w) / 2;
        w = MIN_MARK;
      }
      HourPartition first = window.from().plusHours(i);
      String hours = j - i == 1 ? first + " UTC" : first + " to " + window.from().plusHours(j) + " UTC";
      out.add(new Mark(s.name().toLowerCase(Locale.ROOT), px(x), px(w), hours + ": " + s.name().toLowerCase(
          Locale.ROOT)));
      i = j;
    }
    return out;
  }
}
