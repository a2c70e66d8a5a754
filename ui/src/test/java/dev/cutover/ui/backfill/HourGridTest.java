package dev.cutover.ui.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.ui.backfill.HourStates.Cell;
import dev.cutover.ui.common.Palette;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The hour grid paints only the cells that changed while its size, palette and cursor stay; what it
 * shows must then be exactly what a grid painted whole from the same states shows, pixel for pixel.
 */
@ExtendWith(ApplicationExtension.class)
class HourGridTest {

  private static final int WIDTH = 900;
  private static final int HEIGHT = 300;
  private final HourPartition first = HourPartition.parse("hour", "2026-06-01T10:00");

  @Test
  void aGridPaintedChangeByChangeShowsWhatAGridPaintedWholeShows() {
    HourStates states = new HourStates();
    states.layout(first, first.plusHours(24 * 30), first.plusHours(24 * 30 + 5), first.plusHours(24 * 31));
    HourGrid grid = onFx(() -> sized(new HourGrid(states)));

    // A run as the screen sees it: a day's batch running, then written, the next running, one failed.
    for (int day = 0; day < 12; day++) {
      int d = day;
      onFx(() -> {
        for (int h = 0; h < 24; h++) {
          states.set(first.plusHours(d * 24L + h), Cell.RUNNING, 0);
          if (d > 0) {
            states.set(first.plusHours((d - 1) * 24L + h), d == 7 && h == 3 ? Cell.FAILED : Cell.WRITTEN, 100);
          }
        }
        states.changed();
        grid.redraw();
        return null;
      });
    }
    int[] changeByChange = pixels(grid);
    int[] whole = pixels(onFx(() -> sized(new HourGrid(states))));
    assertArrayEquals(whole, changeByChange, "the grid painted change by change differs from one painted whole");

    // The cells show the states: a written hour, a failed one, a running one, a pending one.
    assertEquals(colourAt(grid, 0), onFx(() -> grid.colour(Cell.WRITTEN)));
    assertEquals(colourAt(grid, 6 * 24 + 3), onFx(() -> grid.colour(Cell.FAILED)));
    assertEquals(colourAt(grid, 11 * 24), onFx(() -> grid.colour(Cell.RUNNING)));
    assertEquals(colourAt(grid, 20 * 24), onFx(() -> grid.colour(Cell.PENDING)));

    // A new palette repaints every cell, the unchanged ones too.
    Color pendingBefore = colourAt(grid, 20 * 24);
    onFx(() -> {
      grid.setPalette(Palette.DARK);
      return null;
    });
    assertNotEquals(pendingBefore, colourAt(grid, 20 * 24));
    assertEquals(colourAt(grid, 20 * 24), onFx(() -> grid.colour(Cell.PENDING)));
    HourGrid darkWhole = onFx(() -> {
      HourGrid g = sized(new HourGrid(states));
      g.setPalette(Palette.DARK);
      return g;
    });
    assertArrayEquals(pixels(darkWhole), pixels(grid));

    // A few pixels wider, the cells keep their size: the grid is still painted whole, its new strip too.
    onFx(() -> {
      grid.resize(WIDTH + 3, HEIGHT);
      grid.layout();
      return null;
    });
    HourGrid wider = onFx(() -> {
      HourGrid g = sized(new HourGrid(states), WIDTH + 3);
      g.setPalette(Palette.DARK);
      return g;
    });
    assertArrayEquals(pixels(wider), pixels(grid));
  }

  /**
   * When the run the screen drove ends, the screen follows it afresh from its ledger: the hours are laid
   * out again and filled with the states they already show. The grid then paints no cell; announcing the
   * layout alone would paint every cell pending and then back, thousands of cells in two frames.
   */
  @Test
  void aRunLaidOutAgainWithTheStatesItShowedPaintsNoCell() {
    HourPartition rangeEnd = first.plusHours(24 * 30);
    HourPartition boundary = rangeEnd.plusHours(5);
    HourPartition end = first.plusHours(24 * 31);
    HourStates states = new HourStates();
    HourGrid grid = onFx(() -> {
      HourGrid g = sized(new HourGrid(states));
      // As the hours card does: every batch of changes the states announce redraws the grid.
      states.revisionProperty().addListener((o, was, is) -> g.redraw());
      states.layout(first, rangeEnd, boundary, end);
      writeAll(states, rangeEnd);
      states.changed();
      return g;
    });
    long before = onFx(grid::fills);

    onFx(() -> {
      states.layout(first, rangeEnd, boundary, end);
      writeAll(states, rangeEnd);
      states.changed();
      return null;
    });

    assertEquals(before, (long) onFx(grid::fills), "cells painted again though none changed");
    assertArrayEquals(pixels(onFx(() -> sized(new HourGrid(states)))), pixels(grid));
    assertEquals(colourAt(grid, 0), onFx(() -> grid.colour(Cell.WRITTEN)));
  }

  /**
   * Six months at 900 pixels leave cells 4 pixels wide with no gap between them, and the grid paints each
   * span of hours in one state as a few rectangles: a run's first frame, every hour pending, is a handful of
   * fills, not one an hour. Every hour's cell still shows its own state, and what the grid shows after a run's
   * changes, painted cell by cell, is what a grid painted whole in spans shows.
   */
  @Test
  void sixMonthsWithoutGapsArePaintedInSpansAndEachHourShowsItsState() {
    HourPartition rangeEnd = first.plusHours(24 * 182);
    HourStates states = new HourStates();
    states.layout(first, rangeEnd, rangeEnd.plusHours(3), rangeEnd.plusHours(24));
    HourGrid grid = onFx(() -> sized(new HourGrid(states)));
    assertTrue(onFx(() -> grid.geometry().cellW()) < 6, "cells without a gap at this width");
    assertTrue(onFx(grid::fills) <= 12, "a grid of pending hours in a few fills, not one an hour: " + onFx(grid::fills));

    // Batches of six hours written across day boundaries, one failed hour, one running batch.
    onFx(() -> {
      for (int h = 0; h < 24 * 40 + 3; h++) {
        states.set(first.plusHours(h), h == 24 * 17 + 5 ? Cell.FAILED : Cell.WRITTEN, 10);
      }
      for (int h = 24 * 40 + 3; h < 24 * 40 + 9; h++) {
        states.set(first.plusHours(h), Cell.RUNNING, 0);
      }
      states.changed();
      grid.redraw();
      return null;
    });
    HourGrid whole = onFx(() -> sized(new HourGrid(states)));
    assertArrayEquals(pixels(whole), pixels(grid), "cell by cell differs from spans");
    List<String> wrong = onFx(() -> {
      var image = whole.snapshot(null, null).getPixelReader();
      List<String> out = new ArrayList<>();
      for (int i = 0; i < states.size(); i++) {
        double[] at = whole.centreOf(i);
        Color shown = image.getColor((int) at[0], (int) at[1]);
        if (argb(shown) != argb(whole.colour(states.cell(i)))) { // a colour mixed from two is not whole in 8 bits
          out.add("hour " + i + " (" + states.cell(i) + ") shows " + shown);
        }
      }
      return out;
    });
    assertEquals(List.of(), wrong);
  }

  private static int argb(Color c) {
    return (int) Math.round(c.getOpacity() * 255) << 24 | (int) Math.round(c.getRed() * 255) << 16
        | (int) Math.round(c.getGreen() * 255) << 8 | (int) Math.round(c.getBlue() * 255);
  }

  private void writeAll(HourStates states, HourPartition rangeEnd) {
    for (HourPartition h = first; h.isBefore(rangeEnd); h = h.plusHours(1)) {
      states.set(h, Cell.WRITTEN, 10);
    }
  }

  private static HourGrid sized(HourGrid grid) {
    return sized(grid, WIDTH);
  }

  private static HourGrid sized(HourGrid grid, int width) {
    grid.resize(width, HEIGHT);
    grid.layout();
    return grid;
  }

  private Color colourAt(HourGrid grid, int index) {
    return onFx(() -> {
      double[] at = grid.centreOf(index);
      return grid.snapshot(null, null).getPixelReader().getColor((int) at[0], (int) at[1]);
    });
  }

  private static int[] pixels(HourGrid grid) {
    return onFx(() -> {
      WritableImage image = grid.snapshot(null, null);
      int w = (int) image.getWidth();
      int h = (int) image.getHeight();
      int[] out = new int[w * h];
      image.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), out, 0, w);
      return out;
    });
  }

  @Test
  void everyDayLabelIsWholeWithinTheGridAndNoneOverlapsTheNext() {
    for (int width : new int[] {700, 1000, 1240}) { // the Backfill screen's grid at 1280, 1600 and 1920 wide
      int days = 190; // six months and some days, as the demo's history
      double cellW = Math.max(2, Math.floor((width - HourGrid.LEFT - 4) / days));
      HourGrid.Geometry geo = new HourGrid.Geometry(first.plusHours(-10), 0, days, cellW, 8);
      java.util.function.ToDoubleFunction<String> measure = text -> onFx(() -> {
        javafx.scene.text.Text t = new javafx.scene.text.Text(text);
        t.setFont(javafx.scene.text.Font.font(10));
        return t.getLayoutBounds().getWidth();
      });
      var labels = HourGrid.dayLabels(geo, width, measure);
      assertTrue(labels.size() >= 4, width + " px: " + labels);
      for (int i = 0; i < labels.size(); i++) {
        var l = labels.get(i);
        double end = l.x() + measure.applyAsDouble(l.text());
        assertTrue(end <= width, width + " px: " + l + " ends at " + end + ", past the edge");
        if (i + 1 < labels.size()) {
          assertTrue(end + 4 <= labels.get(i + 1).x(), width + " px: " + l + " runs into " + labels.get(i + 1));
        }
      }
    }
    // A grid whose last column's label would run past the canvas leaves that label out, not cut.
    HourGrid.Geometry tight = new HourGrid.Geometry(first.plusHours(-10), 0, 10, 70, 8);
    double width = HourGrid.LEFT + 10 * 70 - 30; // the last column starts 40 px before the edge: a 50 px label
    var labels = HourGrid.dayLabels(tight, width, text -> 50);
    assertEquals(9, labels.size(), labels.toString());
  }

  private static <T> T onFx(Callable<T> work) {
    return WaitForAsyncUtils.waitFor(WaitForAsyncUtils.asyncFx(work));
  }
}
