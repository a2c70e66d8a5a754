package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.ui.common.CanvasRegion;
import dev.cutover.ui.common.Palette;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyEvent;
import javafx.util.Duration;

/**
 * A canvas with one column per hour of a reconciliation's window: resizes with its container, maps
 * the mouse to an hour (tooltip, click selects), moves the selection with the arrow keys.
 */
public abstract class HourCanvas extends CanvasRegion {

  static final double LEFT = 64;
  static final double RIGHT = 10;

  private final Tooltip tip = new Tooltip();
  protected Reconciliation report;
  protected Palette palette = Palette.LIGHT;
  protected HourPartition selected;
  private Consumer<HourPartition> onSelect = h -> {};

  HourCanvas(String id) {
    setId(id);
    setFocusTraversable(true);
    tip.setShowDelay(Duration.millis(150));
    Tooltip.install(this, tip);
    setOnMouseMoved(e -> {
      int i = indexAt(e.getX());
      tip.setText(i < 0 ? "" : describe(i));
    });
    setOnMouseClicked(e -> {
      requestFocus();
      int i = indexAt(e.getX());
      if (i >= 0) {
        onSelect.accept(hour(i));
      }
    });
    addEventHandler(KeyEvent.KEY_PRESSED, e -> {
      if (report == null) {
        return;
      }
      int step = switch (e.getCode()) {
        case LEFT -> -1;
        case RIGHT -> 1;
        case PAGE_UP -> -24;
        case PAGE_DOWN -> 24;
        default -> 0;
      };
      if (step != 0) {
        int now = selected == null ? 0 : (int) (selected.epochSecond() - report.window().from().epochSecond()) / 3600;
        onSelect.accept(hour(Math.max(0, Math.min(count() - 1, now + step))));
        e.consume();
      }
    });
    focusedProperty().addListener((o, a, b) -> redraw());
  }

  void setOnSelect(Consumer<HourPartition> onSelect) {
    this.onSelect = onSelect;
  }

  void show(Reconciliation r, HourPartition selectedHour, Palette p) {
    report = r;
    selected = selectedHour;
    palette = p;
    redraw();
  }

  int count() {
    return report == null ? 0 : (int) report.window().hours();
  }

  HourPartition hour(int i) {
    return report.window().from().plusHours(i);
  }

  double columnWidth() {
    return count() == 0 ? 0 : (canvas.getWidth() - LEFT - RIGHT) / count();
  }

  double x(int i) {
    return LEFT + i * columnWidth();
  }

  /** The hour under a horizontal position, or -1. */
  int indexAt(double x) {
    if (count() == 0 || x < LEFT) {
      return -1;
    }
    int i = (int) ((x - LEFT) / columnWidth());
    return i < count() ? i : -1;
  }

  /** The centre of an hour's column, for tests that click it. */
  public double centreOf(HourPartition h) {
    int i = (int) ((h.epochSecond() - report.window().from().epochSecond()) / 3600);
    return x(i) + columnWidth() / 2;
  }

  @Override
  public final void redraw() {
    GraphicsContext g = canvas.getGraphicsContext2D();
    g.setFill(palette.surface());
    g.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
    if (report == null || count() == 0) {
      return;
    }
    draw(g, canvas.getWidth(), canvas.getHeight());
    if (selected != null && report.window().contains(selected)) {
      int i = (int) ((selected.epochSecond() - report.window().from().epochSecond()) / 3600);
      g.setStroke(palette.text());
      g.setLineWidth(isFocused() ? 2 : 1);
      g.strokeRect(x(i) - 1, 1, Math.max(3, columnWidth()) + 2, canvas.getHeight() - 2);
    }
  }

  /**
   * Hands each hour's total of {@code measure} in {@code r} to {@code each}, with the hour's index in
   * the window: what a chart lays out once per report and measure, so that drawing reads arrays only.
   */
  static void totalsOf(Reconciliation r, Identifier measure, ObjIntConsumer<Diff.Total> each) {
    if (r == null || measure == null) {
      return;
    }
    long from = r.window().from().epochSecond();
    long n = r.window().hours();
    for (Diff.HourDiff h : r.hours()) {
      long i = (h.hour().epochSecond() - from) / 3600;
      if (i < 0 || i >= n) {
        continue;
      }
      for (Diff.Total t : h.totals()) {
        if (t.measure().equals(measure)) {
          each.accept(t, (int) i);
          break;
        }
      }
    }
  }

  abstract void draw(GraphicsContext g, double width, double height);

  abstract String describe(int index);
}
