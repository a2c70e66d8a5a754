package dev.cutover.ui.reconcile;

import javafx.scene.Cursor;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;

/**
 * What the mouse and the keys do on a chart of the reconcile screen: a click chooses an hour; the
 * wheel zooms about the hour under the mouse (sideways, it pans); a drag pans; a Shift+drag picks a
 * range; + and − zoom about the chosen hour; Shift+← → pan; Home shows the whole window; ← → and
 * Page Up/Down move the chosen hour, the view following it. None of it reads the server: it moves the
 * chart's {@link ChartWindow}.
 */
final class ChartGestures {

  private final HourCanvas chart;
  private double pressX = Double.NaN;
  private int pressFrom;
  private int pickFrom = -1;
  private int pickTo = -1;

  ChartGestures(HourCanvas chart) {
    this.chart = chart;
    chart.addEventHandler(MouseEvent.MOUSE_PRESSED, this::pressed);
    chart.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::dragged);
    chart.addEventHandler(MouseEvent.MOUSE_RELEASED, this::released);
    chart.setOnMouseClicked(e -> {
      int i = chart.indexAt(e.getX());
      if (e.isStillSincePress() && i >= 0) {
        chart.onSelect.accept(chart.hour(i));
      }
    });
    chart.addEventHandler(ScrollEvent.SCROLL, this::scrolled);
    chart.addEventHandler(KeyEvent.KEY_PRESSED, this::key);
  }

  /** The first and last hour of a range being picked, or null when none is. */
  int[] picking() {
    return pickFrom >= 0 && pickTo >= 0 ? new int[] {pickFrom, pickTo} : null;
  }

  /** The hour under a horizontal position, the nearest one in view when outside the plot. */
  private int nearestAt(double x) {
    double left = HourCanvas.LEFT;
    double clamped = Math.max(left, Math.min(left + chart.plotWidth() - 0.5, x));
    return Math.max(chart.first(), Math.min(chart.last() - 1, chart.first() + (int) ((clamped - left)
        / chart.columnWidth())));
  }

  private void pressed(MouseEvent e) {
    if (chart.report == null || e.getX() < HourCanvas.LEFT) {
      return;
    }
    chart.requestFocus();
    pressX = e.getX();
    pressFrom = chart.first();
    if (e.isShiftDown()) {
      pickFrom = nearestAt(e.getX());
      pickTo = pickFrom;
    } else {
      chart.setCursor(Cursor.CLOSED_HAND);
    }
  }

  private void dragged(MouseEvent e) {
    if (Double.isNaN(pressX)) {
      return;
    }
    if (pickFrom >= 0) {
      pickTo = nearestAt(e.getX());
      chart.redraw();
    } else {
      chart.window.panTo(pressFrom + (int) Math.round((pressX - e.getX()) / chart.columnWidth()));
    }
    e.consume();
  }

  private void released(MouseEvent e) {
    if (pickFrom >= 0 && !e.isStillSincePress()) {
      chart.window.pick(pickFrom, nearestAt(e.getX()));
    }
    pickFrom = -1;
    pickTo = -1;
    pressX = Double.NaN;
    chart.setCursor(null);
    chart.redraw();
  }

  private void scrolled(ScrollEvent e) {
    ChartWindow window = chart.window;
    if (chart.report == null || window.span().hours() == 0) {
      return;
    }
    if (Math.abs(e.getDeltaX()) > Math.abs(e.getDeltaY())) {
      int step = Math.max(1, window.span().hours() / 10);
      window.pan(e.getDeltaX() > 0 ? -step : step);
    } else if (e.getDeltaY() != 0) {
      double anchor = chart.first() + Math.max(0, Math.min(chart.plotWidth(), e.getX() - HourCanvas.LEFT))
          / chart.columnWidth();
      window.zoom(e.getDeltaY() > 0 ? 0.8 : 1.25, anchor);
    }
    e.consume();
  }

  private void key(KeyEvent e) {
    ChartWindow window = chart.window;
    if (chart.report == null) {
      return;
    }
    KeyCode code = e.getCode();
    String typed = e.getText();
    if (code == KeyCode.PLUS || code == KeyCode.ADD || code == KeyCode.EQUALS || "+".equals(typed)) {
      zoomKey(2 / 3.0);
    } else if (code == KeyCode.MINUS || code == KeyCode.SUBTRACT || "-".equals(typed)) {
      zoomKey(1.5);
    } else if (code == KeyCode.HOME) {
      window.whole();
    } else if (e.isShiftDown() && (code == KeyCode.LEFT || code == KeyCode.RIGHT)) {
      int step = Math.max(1, window.span().hours() / 4);
      window.pan(code == KeyCode.LEFT ? -step : step);
    } else {
      int step = switch (code) {
        case LEFT -> -1;
        case RIGHT -> 1;
        case PAGE_UP -> -24;
        case PAGE_DOWN -> 24;
        default -> 0;
      };
      if (step == 0) {
        return;
      }
      int now = chart.selected == null ? chart.first() : chart.indexOf(chart.selected);
      int next = Math.max(0, Math.min(chart.count() - 1, now + step));
      window.reveal(next);
      chart.onSelect.accept(chart.hour(next));
    }
    e.consume();
  }

  /** Zooms about the chosen hour when it is in view, about the middle otherwise. */
  private void zoomKey(double factor) {
    ChartWindow window = chart.window;
    int i = chart.selected == null ? -1 : chart.indexOf(chart.selected);
    if (window.span().contains(i)) {
      window.zoom(factor, i + 0.5);
    } else {
      window.zoom(factor);
    }
  }
}
