package dev.cutover.ui.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.ui.RenderedFrames;
import dev.cutover.ui.ScriptedDialogs;
import dev.cutover.ui.Themes;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Palette;
import dev.cutover.ui.reconcile.ChartWindow.Choice;
import dev.cutover.ui.tasks.ImmediateTaskExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The reconcile screen on six months of hours (a report built in the test, 4,392 hours): it opens on
 * the overlap since B across the whole chart, the one unexpected and the one acknowledged hour stay at
 * least 3 pixels wide at every zoom out to the whole window, the key table shows ten rows and whole
 * keys. Prints how long a refresh of the charts takes at each zoom; speed is judged in benchmarks,
 * not here.
 */
@ExtendWith(ApplicationExtension.class)
class SixMonthsChartsTest {

  /** The console's content area at 1280 × 800: less the sidebar, title, status line, banner and padding. */
  static final double WIDTH = 1090;
  static final double HEIGHT = 696;

  private static final HourPartition FIRST = HourPartition.parse("first", "2026-06-01T00:00");
  private static final int HOURS = 183 * 24;
  private static final int OVERLAP = 30;
  private static final int UNEXPECTED = 2000;
  private static final int ACKNOWLEDGED = 3100;

  private ReconcileModel model;
  private ReconcileView view;

  private void open(FxRobot robot, Reconciliation r) {
    robot.interact(() -> {
      Workspace w = new Workspace(new ImmediateTaskExecutor(), new ScriptedDialogs());
      w.specProperty().set(Reports.spec());
      model = new ReconcileModel(w);
      view = new ReconcileView(model, new ReconcileController(model));
      StackPane content = new StackPane(view.root());
      content.setPadding(new Insets(18, 22, 18, 22));
      Scene scene = new Scene(content, WIDTH, HEIGHT);
      Themes.apply(scene, Themes.LIGHT);
      Stage stage = new Stage();
      stage.setScene(scene);
      stage.show();
      model.show(r);
    });
    WaitForAsyncUtils.waitForFxEvents();
  }

  private static Reconciliation sixMonths() {
    return Reports.of(FIRST, HOURS, FIRST.plusHours(HOURS - OVERLAP), UNEXPECTED, ACKNOWLEDGED);
  }

  @Test
  void opensOnTheOverlapAcrossTheWholeChart(FxRobot robot) {
    open(robot, sixMonths());
    ChartWindow window = model.window();
    assertEquals(Choice.OVERLAP, window.choiceProperty().get());
    assertEquals(OVERLAP, window.span().hours());
    for (HourCanvas chart : new HourCanvas[] {view.totals(), view.delta(), view.coverage()}) {
      double[] first = on(() -> chart.columnOf(FIRST.plusHours(HOURS - OVERLAP)));
      double[] last = on(() -> chart.columnOf(FIRST.plusHours(HOURS - 1)));
      double right = on(() -> chart.getWidth() - HourCanvas.RIGHT);
      assertEquals(HourCanvas.LEFT, first[0], 0.01, chart.getId() + ": the overlap's first hour at the plot's left edge");
      assertEquals(right, last[0] + last[1], 0.01, chart.getId() + ": its last hour at the plot's right edge");
      assertTrue(first[1] > 25, chart.getId() + ": 30 hours fill the width, " + first[1] + " px each");
    }
  }

  @Test
  void hoursThatNeedALookStayAtLeastThreePixelsWideAtEveryZoom(FxRobot robot) {
    open(robot, sixMonths());
    ChartWindow window = model.window();
    Palette p = Palette.LIGHT;
    // Another hour selected, so that the selection's frame does not touch the marks.
    robot.interact(() -> model.selectedHourProperty().set(FIRST.plusHours(10)));
    robot.interact(window::whole);
    assertEquals(HOURS, window.span().hours());
    assertTrue(on(() -> view.delta().columnWidth()) < 0.25, "six months: a fifth of a pixel per hour");
    List<String> timings = new ArrayList<>();
    int zooms = 0;
    while (true) {
      int hours = window.span().hours();
      for (int[] hour : new int[][] {{UNEXPECTED, 0}, {ACKNOWLEDGED, 1}}) {
        robot.interact(() -> window.reveal(hour[0]));
        Color colour = hour[1] == 0 ? p.unexpected() : p.acknowledged();
        int wide = widestRun(view.delta(), colour, on(() -> view.delta().getHeight()) - 3);
        assertTrue(wide >= 3, "at " + hours + " hours in view, the " + (hour[1] == 0 ? "unexpected" : "acknowledged")
            + " hour is " + wide + " px wide in the delta chart");
      }
      timings.add(String.format(Locale.ROOT, "%,d hours: %.1f ms", hours, refreshMillis(window)));
      if (hours <= ChartWindow.MIN_HOURS) {
        break;
      }
      robot.interact(() -> window.zoom(0.4, UNEXPECTED + 0.5));
      zooms++;
    }
    assertTrue(zooms > 5);
    System.out.println("[chart refresh, six months] median of 5 redraws of the three charts (FX thread, software "
        + "pipeline; measured here, judged in benchmarks): " + String.join("; ", timings));
  }

  @Test
  void theKeyTableShowsTenRowsAndWholeKeys(FxRobot robot) {
    open(robot, sixMonths());
    HourPartition incident = FIRST.plusHours(UNEXPECTED);
    assertEquals(incident, model.selectedHourProperty().get(), "the first hour worth a look is chosen");
    TableView<Diff.KeyDiff> keys = view.keys();
    assertEquals(3, keys.getItems().size());
    Region rows = on(() -> (Region) keys.lookup(".clipped-container"));
    assertNotNull(rows);
    // Once the screen has laid itself out: the divider follows the table's first layouts.
    Callable<Double> shown = () -> rows.getHeight() / keys.getFixedCellSize();
    try {
      WaitForAsyncUtils.waitFor(5, java.util.concurrent.TimeUnit.SECONDS, () -> on(shown) >= ReconcileView.KEY_ROWS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the key table shows " + on(shown) + " rows", e);
    }
    String longest = String.join(" / ", Reports.LONG_KEY);
    List<String> drawn = on(() -> keys.lookupAll(".table-cell").stream()
        .filter(n -> n instanceof TableCell<?, ?> c && c.getTableColumn().getText().equals("Key") && !c.isEmpty())
        .map(n -> ((Text) n.lookup(".text")).getText()).toList());
    assertTrue(drawn.contains(longest), "the whole key is drawn, not cut: " + drawn);
  }

  /**
   * A switch of the measure repaints the charts in one frame, and nothing after it: the measure picker
   * must not make the next pulse repaint the whole screen, a second software frame for nothing (a
   * ComboBox does, after every change of its value). Frames are counted by the renderer's own callback.
   */
  @Test
  void aMeasureSwitchIsOneFrame(FxRobot robot) throws Exception {
    RenderedFrames frames = sixMonthsCountingFrames(robot);
    for (var m : List.of(Reports.FEES, Reports.QUANTITY, Reports.PNL)) {
      assertEquals(1, framesFor(frames, robot, () -> model.chooseMeasure(m)), "frames rendered for the switch to " + m);
      int last = HOURS - 1;
      assertTrue(on(() -> view.totals().describe(last)).contains(m.toString()), "the totals chart shows " + m);
    }
  }

  @Test
  void theOverlapIsOfferedOnlyWhenTheReportHasOne(FxRobot robot) {
    // B at the window's end: no hour from B on, so no overlap to show.
    open(robot, Reports.of(FIRST, HOURS, FIRST.plusHours(HOURS), 0, 0));
    javafx.scene.control.ToggleButton overlap = on(() -> (javafx.scene.control.ToggleButton) view.root()
        .lookup("#reconcile-window-overlap"));
    javafx.scene.control.ToggleButton whole = on(() -> (javafx.scene.control.ToggleButton) view.root()
        .lookup("#reconcile-window-whole"));
    assertEquals(Choice.WHOLE, model.window().choiceProperty().get());
    assertTrue(on(overlap::isDisabled), "no overlap in this report");
    assertTrue(on(whole::isSelected), "the whole window is shown chosen");
    robot.interact(() -> model.show(sixMonths()));
    assertTrue(!on(overlap::isDisabled), "a report with hours from B on offers them");
    assertTrue(on(overlap::isSelected), "and opens on them");
  }

  /**
   * Zooming from a named window into one of the operator's own, and back, is one frame each: the window
   * picker follows the view without a second frame of the whole screen (a ComboBox's value costs one).
   */
  @Test
  void aMoveBetweenANamedWindowAndOneOfTheOperatorsIsOneFrame(FxRobot robot) throws Exception {
    RenderedFrames frames = sixMonthsCountingFrames(robot);
    ChartWindow window = model.window();
    for (Runnable move : List.<Runnable>of(() -> window.zoom(2 / 3.0), window::whole, () -> window.zoom(2 / 3.0),
        window::whole)) {
      Choice was = on(() -> window.choiceProperty().get());
      int rendered = framesFor(frames, robot, move);
      Choice is = on(() -> window.choiceProperty().get());
      assertTrue(was != is, "the move changes the window's choice: " + was + " to " + is);
      assertEquals(1, rendered, "frames rendered for the move from " + was + " to " + is);
    }
  }

  /** The six months' report on screen, its frames counted from now on. */
  private RenderedFrames sixMonthsCountingFrames(FxRobot robot) {
    open(robot, sixMonths());
    return on(() -> {
      // Away from the key limit's text field, whose caret would blink frames of its own.
      view.totals().requestFocus();
      return new RenderedFrames(view.root().getScene());
    });
  }

  /** How many frames the renderer draws for {@code action}, from a quiet screen to a quiet screen. */
  private static int framesFor(RenderedFrames frames, FxRobot robot, Runnable action) throws Exception {
    frames.awaitQuiet();
    int before = frames.count();
    robot.interact(action);
    WaitForAsyncUtils.waitFor(5, java.util.concurrent.TimeUnit.SECONDS, () -> frames.count() > before);
    frames.awaitQuiet();
    return frames.count() - before;
  }

  /** Median time of five refreshes of the three charts at the current zoom, on the FX thread. */
  private double refreshMillis(ChartWindow window) {
    List<Double> ms = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ms.add(on(() -> {
        long t0 = System.nanoTime();
        view.totals().redraw();
        view.delta().redraw();
        view.coverage().redraw();
        view.root().getScene().snapshot(null);
        return (System.nanoTime() - t0) / 1e6;
      }));
    }
    return ms.stream().sorted().toList().get(2);
  }

  /** The widest run of pixel columns of {@code colour} along row {@code y} of a chart. */
  private int widestRun(Node chart, Color colour, double y) {
    return on(() -> {
      WritableImage image = chart.snapshot(null, null);
      PixelReader pixels = image.getPixelReader();
      int row = (int) y;
      int widest = 0;
      int run = 0;
      for (int x = 0; x < (int) image.getWidth(); x++) {
        Color c = pixels.getColor(x, row);
        boolean match = Math.abs(c.getRed() - colour.getRed()) < 0.03 && Math.abs(c.getGreen() - colour.getGreen())
            < 0.03 && Math.abs(c.getBlue() - colour.getBlue()) < 0.03;
        run = match ? run + 1 : 0;
        widest = Math.max(widest, run);
      }
      return widest;
    });
  }

  private static <T> T on(Callable<T> read) {
    return WaitForAsyncUtils.waitForAsyncFx(10_000, read);
  }
}
