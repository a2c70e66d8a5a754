package dev.cutover.ui.backfill;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.ui.backfill.HourStates.Cell;
import dev.cutover.ui.common.CanvasRegion;
import dev.cutover.ui.common.Palette;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.Consumer;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyEvent;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.util.Duration;

/**
 * Every hour of a run as one cell on a single canvas (six months are ~4,400 cells; nodes would be
 * too many): a column per day, a row per hour of the day, coloured by state. The mouse or the arrow
 * keys pick an hour; its state shows in a tooltip and in {@code onHover}.
 */
public final class HourGrid extends CanvasRegion {

  static final double LEFT = 34;
  static final double TOP = 6;
  static final double BOTTOM = 22;
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MMM d", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final HourStates states;
  private final Tooltip tip = new Tooltip();
  private Palette palette = Palette.LIGHT;
  private int cursor = -1;
  private Consumer<String> onHover = s -> {};
  // What the canvas shows now, so that a redraw paints only what changed.
  private byte[] drawn = new byte[0];
  private Geometry drawnGeometry;
  private double drawnWidth = -1;
  private double drawnHeight = -1;
  private Palette drawnPalette;
  private int drawnCursor = -1;
  private Color outside;
  private Palette outsideOf;
  /** Rectangles of cells filled since the grid was made: each is a command the renderer draws in the next frame. */
  private long fills;

  public HourGrid(HourStates states) {
    this.states = states;
    setId("hour-grid");
    setFocusTraversable(true);
    setMinHeight(heightFor(0));
    setPrefHeight(24 * 11 + TOP + BOTTOM);
    // Once shown, its height follows its window's alone (heightFor), never the room other lines leave it.
    sceneProperty().addListener((o, was, scene) -> {
      if (scene == null) {
        prefHeightProperty().unbind();
      } else {
        prefHeightProperty().bind(scene.heightProperty().map(h -> heightFor(h.doubleValue())));
      }
    });
    tip.setShowDelay(Duration.millis(150));
    Tooltip.install(this, tip);
    setOnMouseMoved(e -> pick(indexAt(e.getX(), e.getY())));
    setOnMouseClicked(e -> requestFocus());
    addEventHandler(KeyEvent.KEY_PRESSED, this::key);
    focusedProperty().addListener((o, a, b) -> redraw());
  }

  /**
   * The grid's height in a window {@code windowHeight} pixels high: rows of 4 pixels up to 900, so that at 1280 × 800
   * the whole grid is on screen below the Backfill screen's cards (six months' days are 5 pixels wide there), 8 up to
   * 1100, 11 above. It follows the window, not the room other lines leave it: a line coming or going above it (the
   * repair's banner at a run's start) would resize it, and each resize repaints every cell.
   */
  public static double heightFor(double windowHeight) {
    int row = windowHeight <= 900 ? 4 : windowHeight <= 1100 ? 8 : 11;
    return 24 * row + TOP + BOTTOM;
  }

  public void setPalette(Palette p) {
    palette = p;
    redraw();
  }

  public void setOnHover(Consumer<String> onHover) {
    this.onHover = onHover;
  }

  /** The geometry: first day's midnight, number of day columns, cell width and height. */
  record Geometry(HourPartition midnight, int offset, int days, double cellW, double cellH) {}

  Geometry geometry() {
    if (states.first().isEmpty() || states.size() == 0) {
      return null;
    }
    HourPartition first = states.first().get();
    int offset = first.start().atZone(ZoneOffset.UTC).getHour();
    HourPartition midnight = first.plusHours(-offset);
    int days = (offset + states.size() + 23) / 24;
    double cellW = Math.max(2, Math.min(28, Math.floor((canvas.getWidth() - LEFT - 4) / days)));
    double cellH = Math.max(3, Math.min(14, Math.floor((canvas.getHeight() - TOP - BOTTOM) / 24)));
    return new Geometry(midnight, offset, days, cellW, cellH);
  }

  /** The index of the hour under a point, or -1. */
  public int indexAt(double x, double y) {
    Geometry g = geometry();
    if (g == null || x < LEFT || y < TOP) {
      return -1;
    }
    int col = (int) ((x - LEFT) / g.cellW());
    int row = (int) ((y - TOP) / g.cellH());
    if (row >= 24 || col >= g.days()) {
      return -1;
    }
    int i = col * 24 + row - g.offset();
    return i >= 0 && i < states.size() ? i : -1;
  }

  /** The centre of an hour's cell, for tests that point at it. */
  public double[] centreOf(int index) {
    Geometry g = geometry();
    int slot = index + g.offset();
    return new double[] {LEFT + (slot / 24) * g.cellW() + g.cellW() / 2, TOP + (slot % 24) * g.cellH() + g.cellH() / 2};
  }

  private void pick(int index) {
    cursor = index;
    String text = index < 0 ? "" : states.describe(index);
    tip.setText(text);
    onHover.accept(text);
    redraw();
  }

  private void key(KeyEvent e) {
    if (states.size() == 0) {
      return;
    }
    int step = switch (e.getCode()) {
      case UP -> -1;
      case DOWN -> 1;
      case LEFT -> -24;
      case RIGHT -> 24;
      case HOME -> -states.size();
      case END -> states.size();
      default -> 0;
    };
    if (step != 0) {
      pick(Math.max(0, Math.min(states.size() - 1, (cursor < 0 ? 0 : cursor) + step)));
      e.consume();
    }
  }

  /**
   * Paints what changed since the last paint: only the cells whose state changed when nothing else
   * did (a batch changes a day of 4,400 cells, and a canvas keeps what was drawn on it), the whole
   * grid when its size, palette, hours or cursor changed, or while the cursor shows (its frame
   * overlaps the cells around it). Every cell is filled whole at whole pixels,
   * so a cell painted over shows nothing of its old colour.
   */
  @Override
  public void redraw() {
    Geometry geo = geometry();
    int cursorShown = cursor >= 0 && cursor < states.size() && (isFocused() || isHover()) ? cursor : -1;
    boolean whole = geo == null || !geo.equals(drawnGeometry) || palette != drawnPalette || cursorShown != drawnCursor
        || drawn.length != states.size() || cursorShown >= 0 || canvas.getWidth() != drawnWidth
        || canvas.getHeight() != drawnHeight;
    if (whole) {
      paintWhole(geo, cursorShown);
    } else {
      paintChanged(geo);
    }
  }

  private void paintChanged(Geometry geo) {
    GraphicsContext g = canvas.getGraphicsContext2D();
    double gap = gap(geo);
    for (int i = 0; i < drawn.length; i++) {
      byte now = (byte) states.cell(i).ordinal();
      if (drawn[i] != now) {
        paintCell(g, geo, gap, i);
        drawn[i] = now;
      }
    }
  }

  private void paintWhole(Geometry geo, int cursorShown) {
    GraphicsContext g = canvas.getGraphicsContext2D();
    g.setFill(palette.surface());
    g.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
    drawnGeometry = geo;
    drawnWidth = canvas.getWidth();
    drawnHeight = canvas.getHeight();
    drawnPalette = palette;
    drawnCursor = cursorShown;
    drawn = new byte[geo == null ? 0 : states.size()];
    if (geo == null) {
      return;
    }
    double gap = gap(geo);
    for (int i = 0; i < drawn.length; i++) {
      drawn[i] = (byte) states.cell(i).ordinal();
    }
    if (gap == 0) {
      paintSpans(g, geo);
    } else {
      for (int i = 0; i < drawn.length; i++) {
        paintCell(g, geo, gap, i);
      }
    }
    g.setFill(palette.muted());
    g.setFont(LABEL_FONT);
    for (int h = 0; h < 24; h += 6) {
      g.fillText(String.format(Locale.ROOT, "%02d:00", h), 0, TOP + h * geo.cellH()
          + Math.min(10, geo.cellH() + 6));
    }
    for (DayLabel label : dayLabels(geo, canvas.getWidth(), HourGrid::labelWidth)) {
      g.fillText(label.text(), label.x(), TOP + 24 * geo.cellH() + 14);
    }
    if (cursorShown >= 0) {
      int slot = cursorShown + geo.offset();
      g.setStroke(palette.text());
      g.setLineWidth(1.5);
      g.strokeRect(LEFT + (slot / 24) * geo.cellW() - 1, TOP + (slot % 24) * geo.cellH() - 1, geo.cellW() + 1,
          geo.cellH() + 1);
    }
  }

  /** A day's label under the grid: its text and where it starts. */
  record DayLabel(String text, double x) {}

  /**
   * The day labels under the grid, each under its day's column and whole within {@code width}: as many as fit
   * with a gap between them, spaced evenly by days, and none that the canvas's edge would cut.
   */
  static java.util.List<DayLabel> dayLabels(Geometry geo, double width, java.util.function.ToDoubleFunction<String>
      measure) {
    java.util.List<DayLabel> labels = new java.util.ArrayList<>();
    double widest = measure.applyAsDouble("May 30") + LABEL_GAP;
    int every = Math.max(1, (int) Math.ceil(widest / geo.cellW()));
    for (int d = 0; d < geo.days(); d += every) {
      String text = DAY.format(geo.midnight().plusHours(d * 24L).start());
      double x = LEFT + d * geo.cellW();
      if (x + measure.applyAsDouble(text) > width) {
        break;
      }
      labels.add(new DayLabel(text, x));
    }
    return labels;
  }

  private static final double LABEL_GAP = 12;
  private static final Font LABEL_FONT = Font.font(10);

  private static double labelWidth(String text) {
    javafx.scene.text.Text t = new javafx.scene.text.Text(text);
    t.setFont(LABEL_FONT);
    return t.getLayoutBounds().getWidth();
  }

  private void paintCell(GraphicsContext g, Geometry geo, double gap, int i) {
    int slot = i + geo.offset();
    g.setFill(colour(states.cell(i)));
    fill(g, LEFT + (slot / 24) * geo.cellW(), TOP + (slot % 24) * geo.cellH(), geo.cellW() - gap, geo.cellH() - gap);
  }

  /**
   * Paints every cell where no gap parts them (cells under 6 pixels wide, as six months are in a window 1280
   * pixels wide): each span of hours in one state is at most three rectangles (the rest of its first day, its
   * whole days, the start of its last day), not a rectangle an hour. A run's first frame shows thousands of
   * pending hours in a few spans; painted an hour at a time, the software renderer drew them for about 40 ms
   * with no frame meanwhile.
   */
  private void paintSpans(GraphicsContext g, Geometry geo) {
    for (int from = 0; from < drawn.length; ) {
      int to = from + 1;
      while (to < drawn.length && drawn[to] == drawn[from]) {
        to++;
      }
      g.setFill(colour(states.cell(from)));
      int first = from + geo.offset();
      int last = to - 1 + geo.offset();
      if (first / 24 == last / 24) {
        column(g, geo, first / 24, first % 24, last % 24 + 1);
      } else {
        int wholeFrom = first % 24 == 0 ? first / 24 : first / 24 + 1;
        int wholeTo = last % 24 == 23 ? last / 24 + 1 : last / 24;
        if (first % 24 != 0) {
          column(g, geo, first / 24, first % 24, 24);
        }
        if (wholeTo > wholeFrom) {
          fill(g, LEFT + wholeFrom * geo.cellW(), TOP, (wholeTo - wholeFrom) * geo.cellW(), 24 * geo.cellH());
        }
        if (last % 24 != 23) {
          column(g, geo, last / 24, 0, last % 24 + 1);
        }
      }
      from = to;
    }
  }

  /** Rows {@code fromRow} (inclusive) to {@code toRow} (exclusive) of one day's column. */
  private void column(GraphicsContext g, Geometry geo, int day, int fromRow, int toRow) {
    fill(g, LEFT + day * geo.cellW(), TOP + fromRow * geo.cellH(), geo.cellW(), (toRow - fromRow) * geo.cellH());
  }

  private void fill(GraphicsContext g, double x, double y, double w, double h) {
    fills++;
    g.fillRect(x, y, w, h);
  }

  private static double gap(Geometry geo) {
    return geo.cellW() >= 6 ? 1 : 0;
  }

  private Color outside() {
    if (outsideOf != palette) {
      outside = palette.surface().interpolate(palette.border(), 0.5);
      outsideOf = palette;
    }
    return outside;
  }

  long fills() {
    return fills;
  }

  Color colour(Cell c) {
    return switch (c) {
      case OUTSIDE -> outside();
      case PENDING -> palette.pending();
      case RUNNING -> palette.running();
      case WRITTEN -> palette.written();
      case EMPTIED -> palette.emptied();
      case FAILED -> palette.failed();
      case CARRIED -> palette.identical();
      case LIVE -> palette.live();
    };
  }
}
