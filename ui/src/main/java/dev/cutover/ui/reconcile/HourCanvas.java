package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.ui.common.CanvasRegion;
import dev.cutover.ui.common.Palette;
import java.util.function.Consumer;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.paint.Color;
import javafx.util.Duration;

/**
 * A canvas with one column per hour in view: the hours of a {@link ChartWindow} over a
 * reconciliation's window. It resizes with its container, maps positions to hours and back, shades
 * the overlap since B, draws the boundary, the selected hour and a range being picked, and draws hours
 * that need a look at least {@link #MIN_MARK} pixels wide. The mouse and keys act through
 * {@link ChartGestures}.
 */
public abstract class HourCanvas extends CanvasRegion {

  static final double LEFT = 64;
  static final double RIGHT = 10;
  /** The narrowest an hour that needs a look is ever drawn, in pixels. */
  static final double MIN_MARK = 3;

  private final Tooltip tip = new Tooltip();
  private final ChartGestures gestures;
  protected Reconciliation report;
  protected HourClasses classes = HourClasses.NONE;
  protected Palette palette = Palette.LIGHT;
  protected HourPartition selected;
  protected ChartWindow window = new ChartWindow();
  Consumer<HourPartition> onSelect = h -> {};

  HourCanvas(String id) {
    setId(id);
    setFocusTraversable(true);
    tip.setShowDelay(Duration.millis(150));
    Tooltip.install(this, tip);
    setOnMouseMoved(e -> {
      int i = indexAt(e.getX());
      tip.setText(i < 0 ? "" : describe(i));
    });
    gestures = new ChartGestures(this);
    focusedProperty().addListener((o, a, b) -> redraw());
  }

  void setOnSelect(Consumer<HourPartition> onSelect) {
    this.onSelect = onSelect;
  }

  /** The hours this canvas shows; shared by the screen's charts so that they always line up. */
  void window(ChartWindow w) {
    this.window = w;
  }

  /** A new report and its classes; a subclass lays out what it draws from here. */
  void report(Reconciliation r, HourClasses c) {
    report = r;
    classes = c;
  }

  void show(HourPartition selectedHour, Palette p) {
    selected = selectedHour;
    palette = p;
    redraw();
  }

  /** Every hour of the report's window, in view or not. */
  int count() {
    return report == null ? 0 : (int) report.window().hours();
  }

  /** The first hour in view. */
  int first() {
    return window.span().from();
  }

  /** One past the last hour in view. */
  int last() {
    return Math.min(count(), window.span().to());
  }

  HourPartition hour(int i) {
    return report.window().from().plusHours(i);
  }

  int indexOf(HourPartition h) {
    return (int) ((h.epochSecond() - report.window().from().epochSecond()) / 3600);
  }

  double plotWidth() {
    return Math.max(1, canvas.getWidth() - LEFT - RIGHT);
  }

  /** How wide one hour is drawn now, in pixels; below 1 when more hours are in view than pixels. */
  double columnWidth() {
    int shown = window.span().hours();
    return shown <= 0 ? 0 : plotWidth() / shown;
  }

  double x(int i) {
    return LEFT + (i - first()) * columnWidth();
  }

  /** The hour under a horizontal position, or -1. */
  int indexAt(double x) {
    if (report == null || window.span().hours() == 0 || x < LEFT || x >= LEFT + plotWidth()) {
      return -1;
    }
    int i = first() + (int) ((x - LEFT) / columnWidth());
    return i < last() ? i : -1;
  }

  /** The centre of an hour's column, for tests that click it. */
  public double centreOf(HourPartition h) {
    return x(indexOf(h)) + columnWidth() / 2;
  }

  /** The left edge and width of an hour's column, for tests that measure it: {@code [x, width]}. */
  public double[] columnOf(HourPartition h) {
    return new double[] {x(indexOf(h)), columnWidth()};
  }

  /**
   * Fills hour {@code i}'s column between {@code top} and {@code bottom}, centred on the column and
   * at least {@link #MIN_MARK} pixels wide: for the hours that must not vanish when zoomed out.
   */
  void mark(GraphicsContext g, int i, double top, double bottom, Color colour) {
    double column = columnWidth();
    double w = Math.max(MIN_MARK, column - (column >= 4 ? 1 : 0));
    // On whole pixels, so that a mark of 3 pixels covers 3 pixels, not 2 and two halves; and inside the
    // plot, so that an hour at its edge is not cut to less.
    double left = Math.floor(x(i) + column / 2 - w / 2);
    double right = Math.max(left + MIN_MARK, Math.ceil(x(i) + column / 2 + w / 2));
    double shift = Math.max(0, Math.ceil(LEFT) - left) - Math.max(0, right - Math.floor(LEFT + plotWidth()));
    left += shift;
    right += shift;
    g.setFill(colour);
    g.fillRect(left, top, right - left, bottom - top);
  }

  /** Restricts drawing to the plot, right of the value labels; {@link GraphicsContext#restore()} ends it. */
  void clipToPlot(GraphicsContext g) {
    g.save();
    g.beginPath();
    g.rect(LEFT, 0, plotWidth(), canvas.getHeight());
    g.closePath();
    g.clip();
  }

  @Override
  public final void redraw() {
    GraphicsContext g = canvas.getGraphicsContext2D();
    g.setFill(palette.surface());
    g.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
    if (report == null || count() == 0 || window.span().hours() == 0) {
      return;
    }
    double h = canvas.getHeight();
    int b = window.boundary();
    if (shadesOverlap() && b < last()) {
      // The overlap since B, lightly: the hours both live writers wrote.
      double from = Math.max(LEFT, x(Math.max(b, first())));
      g.setFill(palette.liveOwner().deriveColor(0, 1, 1, palette.dark() ? 0.12 : 0.10));
      g.fillRect(from, 0, LEFT + plotWidth() - from, plotBottom(h));
    }
    draw(g, canvas.getWidth(), h);
    clipToPlot(g);
    if (b >= first() && b <= last()) {
      // B ends where the plot does: it never crosses the labels of the time axis under it.
      g.setStroke(palette.boundary());
      g.setLineWidth(2);
      g.strokeLine(x(b), 0, x(b), plotBottom(h));
    }
    int[] pick = gestures.picking();
    if (pick != null) {
      int a = Math.min(pick[0], pick[1]);
      int z = Math.max(pick[0], pick[1]) + 1;
      g.setFill(palette.text().deriveColor(0, 1, 1, 0.12));
      g.fillRect(x(a), 0, x(z) - x(a), h);
      g.setStroke(palette.text());
      g.setLineWidth(1);
      g.strokeRect(x(a), 0.5, x(z) - x(a), h - 1);
    }
    if (selected != null) {
      int i = indexOf(selected);
      if (i >= first() && i < last()) {
        double w = Math.max(MIN_MARK, columnWidth());
        g.setStroke(palette.text());
        g.setLineWidth(isFocused() ? 2 : 1);
        g.strokeRect(x(i) + columnWidth() / 2 - w / 2 - 1, 1, w + 2, h - 2);
      }
    }
    g.restore();
  }

  /** Where the plot ends, above what is drawn under it (an axis's labels); the canvas's bottom by default. */
  double plotBottom(double height) {
    return height;
  }

  /** Whether the overlap since B is shaded behind this canvas's drawing. */
  boolean shadesOverlap() {
    return true;
  }

  abstract void draw(GraphicsContext g, double width, double height);

  abstract String describe(int index);
}
