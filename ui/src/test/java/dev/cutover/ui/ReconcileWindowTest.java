package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.reconcile.ChartWindow;
import dev.cutover.ui.reconcile.ChartWindow.Choice;
import dev.cutover.ui.reconcile.HourCanvas;
import dev.cutover.ui.reconcile.ReconcileView;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import javafx.geometry.Point2D;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The reconcile screen on a real repair with 30 hours of overlap since B, in the embedded ClickHouse:
 * the latest stored reconciliation is shown as soon as the screen opens; a reconciliation opens the
 * charts on the overlap, its hours across the whole width; the window selector, the keyboard, the
 * wheel, a drag and a Shift+drag change the hours drawn, without reading the server again.
 */
@ExtendWith(ApplicationExtension.class)
class ReconcileWindowTest {

  private static final int OVERLAP = 30;

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(3, () -> console);
  private Fx fx;
  private final ScriptedDialogs dialogs = new ScriptedDialogs();


  @Test
  void theOverlapFillsTheChartsAndTheWindowIsTheOperatorsToChoose(FxRobot robot) throws Exception {
    // A repair whose corrected live writer took over 30 hours ago: its overlap since B is 30 hours.
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    HourPartition boundary = disk.world().liveEdge.plusHours(1 - OVERLAP);
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary), other.plans().defaults(spec));
    Procedure.backfill(other, plan);
    disk.world().writeLiveV2(boundary, disk.world().liveEdge.plusHours(1));
    // Two hours of the overlap appended twice in v1: one accepted with a reason, one not. Hours with rows: the
    // world leaves every 37th hour empty, and an empty hour appended twice is still empty.
    HourPartition unexpected = disk.world().busyFrom(boundary.plusHours(9));
    HourPartition accepted = disk.world().busyFrom(boundary.plusHours(21));
    for (HourPartition h : List.of(unexpected, accepted)) {
      disk.world().sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, "
          + "'UTC')", h.epochSecond());
    }
    other.reconciliations().acknowledge(spec, accepted, List.of(), "a retried append in v1, corrected upstream on the same day");
    Reconciliation stored = other.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.RED, stored.verdict());

    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    fx = window.fx();

    // 1. The stored reconciliation at once, read back whole, before any is run here: verdict, scope and charts.
    fx.click("nav-reconcile");
    fx.waitFor(30, () -> fx.text("verdict").endsWith("(stored)"), () -> fx.text("verdict") + " / "
        + fx.text("verdict-detail"));
    assertEquals("RED: " + stored.unexpectedKeys() + " unexpected key difference(s) (stored)", fx.text("verdict"));
    assertTrue(fx.node("verdict", Label.class).getStyleClass().contains("verdict-red"));
    assertEquals(stored.id(), console.reconcile().reportProperty().get().id(), "the stored report is the one shown");
    assertTrue(fx.text("verdict-detail").contains("over " + stored.window()), fx.text("verdict-detail"));
    assertTrue(fx.text("verdict-detail").endsWith("Shown: the latest stored reconciliation, " + stored.id() + " of "
        + dev.cutover.ui.common.Formats.time(stored.created()) + " (repair " + stored.repairId() + "), as it judged "
        + "the data then. Reconcile now to judge the data as it is now."), fx.text("verdict-detail"));
    assertTrue(fx.text("reconcile-scope").startsWith("Scope: the whole repair."), fx.text("reconcile-scope"));
    assertFalse(fx.node("reconcile-charts-empty", Label.class).isVisible(), "the charts draw the stored report");
    assertEquals(Choice.OVERLAP, console.reconcile().window().choiceProperty().get(), "and open on the overlap");
    fx.shot("21-reconcile-stored");

    // 2. A reconciliation opens the charts on the overlap: its 30 hours across the whole width.
    fx.click("reconcile-run");
    fx.waitFor(120, () -> !console.reconcile().reportProperty().get().id().equals(stored.id()),
        () -> console.reconcile().activity().error());
    Reconciliation report = console.reconcile().reportProperty().get();
    assertFalse(fx.text("verdict").endsWith("(stored)"), fx.text("verdict"));
    HourPartition end = report.window().to();
    assertEquals(disk.world().liveEdge.plusHours(1), end);
    ChartWindow chartWindow = console.reconcile().window();
    assertEquals(Choice.OVERLAP, chartWindow.choiceProperty().get());
    assertEquals(new HourRange(boundary, end), chartWindow.range());
    assertEquals(OVERLAP, chartWindow.range().hours());
    ReconcileView view = (ReconcileView) console.currentView();
    for (HourCanvas chart : new HourCanvas[] {view.totals(), view.delta(), view.coverage()}) {
      double[] first = fx.onFx(() -> chart.columnOf(boundary));
      double[] last = fx.onFx(() -> chart.columnOf(end.plusHours(-1)));
      double right = fx.onFx(() -> chart.getWidth()) - 10;
      assertEquals(64, first[0], 0.01, chart.getId() + ": B at the plot's left edge");
      assertEquals(right, last[0] + last[1], 0.01, chart.getId() + ": the newest hour at the plot's right edge");
    }
    assertEquals("Overlap since B", shownChoice());
    assertEquals("30 of 72 hours in view: " + boundary + " – " + end.toString().substring(5) + " UTC",
        fx.text("reconcile-window-range"));
    assertEquals(unexpected, console.reconcile().selectedHourProperty().get(), "the first hour worth a look");
    // The key table shows ten rows at 1280 × 800, once the screen has laid itself out around the report.
    TableView<?> keys = fx.node("reconcile-keys", TableView.class);
    Callable<Double> rows = () -> ((Region) keys.lookup(".clipped-container")).getHeight() / keys.getFixedCellSize();
    fx.waitFor(5, () -> rows.call() >= 10, () -> "the key table shows " + fx.onFx(rows) + " rows");
    fx.shot("22-reconcile-overlap");

    // 3. The window selector: B ± a day, 48 hours; the charts draw other hours.
    int[] overlapPixels = pixels(view.totals());
    robot.clickOn("#reconcile-window-around-b");
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("B ± a day", shownChoice());
    assertEquals(new HourRange(boundary.plusHours(-24), boundary.plusHours(24)), chartWindow.range());
    assertFalse(Arrays.equals(overlapPixels, pixels(view.totals())), "other hours are drawn");
    assertEquals(fx.onFx(() -> (view.delta().getWidth() - 64 - 10) / 48), fx.onFx(() -> view.delta().columnOf(boundary)[1]),
        0.001, "48 hours across the width");

    // 4. The keyboard on a chart: + and − zoom about the chosen hour, Home shows the whole window.
    clickHour(robot, view.delta(), unexpected);
    assertEquals(unexpected, console.reconcile().selectedHourProperty().get());
    int[] before = pixels(view.delta());
    robot.type(KeyCode.ADD);
    assertEquals(32, chartWindow.span().hours());
    assertTrue(chartWindow.range().contains(unexpected), "the chosen hour stays in view");
    assertFalse(Arrays.equals(before, pixels(view.delta())), "zooming redraws the chart");
    robot.type(KeyCode.SUBTRACT);
    assertEquals(48, chartWindow.span().hours());
    robot.type(KeyCode.HOME);
    assertEquals(Choice.WHOLE, chartWindow.choiceProperty().get());
    assertEquals(report.window(), chartWindow.range());
    assertEquals("Whole", shownChoice());
    // Arrows move the hour; the view follows it.
    robot.type(KeyCode.RIGHT);
    assertEquals(unexpected.plusHours(1), console.reconcile().selectedHourProperty().get());

    // 5. The wheel zooms about the hour under the mouse; a drag pans; Shift+drag picks a range.
    // A wheel turned away from the operator (JavaFX's deltaY > 0), over the unexpected hour. Fired as the
    // event itself: the headless robot's idea of up and down is not a desktop's.
    double over = fx.onFx(() -> view.totals().centreOf(unexpected));
    for (int i = 0; i < 3; i++) {
      wheel(robot, view.totals(), over, 40);
    }
    int zoomed = chartWindow.span().hours();
    assertTrue(zoomed < 72, "the wheel zoomed in: " + zoomed + " hours");
    assertTrue(chartWindow.range().contains(unexpected), "about the hour under the mouse");
    int from = chartWindow.span().from();
    double column = fx.onFx(() -> view.totals().columnOf(unexpected)[1]);
    Point2D start = screen(view.totals(), fx.onFx(() -> view.totals().centreOf(unexpected)));
    robot.drag(start, MouseButton.PRIMARY).moveTo(start.add(-4 * column, 0)).drop();
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(zoomed, chartWindow.span().hours(), "a drag keeps the width");
    assertEquals(Math.min(from + 4, 72 - zoomed), chartWindow.span().from(), "and shows later hours");
    robot.interact(chartWindow::whole);
    Point2D a = screen(view.totals(), fx.onFx(() -> view.totals().centreOf(boundary.plusHours(2))));
    Point2D b = screen(view.totals(), fx.onFx(() -> view.totals().centreOf(boundary.plusHours(13))));
    robot.press(KeyCode.SHIFT);
    robot.drag(a, MouseButton.PRIMARY).moveTo(b).drop();
    robot.release(KeyCode.SHIFT);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(Choice.CHOSEN, chartWindow.choiceProperty().get());
    assertEquals(new HourRange(boundary.plusHours(2), boundary.plusHours(14)), chartWindow.range());
    assertEquals("none: the view is the operator's own", shownChoice());
    robot.interact(() -> console.reconcile().selectedHourProperty().set(unexpected));
    fx.shot("23-reconcile-zoomed-range");
    // None of it read the server: the report is the one reconciled above.
    assertEquals(report, console.reconcile().reportProperty().get());
  }

  @Test
  void aReconciliationStoredElsewhereWhileTheScreenIsShownTakesThePlaceOfTheOneShown(FxRobot robot) throws Exception {
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    HourPartition boundary = disk.world().liveEdge.plusHours(1 - OVERLAP);
    Procedure.backfill(other, other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary),
        other.plans().defaults(spec)));
    disk.world().writeLiveV2(boundary, disk.world().liveEdge.plusHours(1));

    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    fx = window.fx();
    fx.click("nav-reconcile");
    fx.waitFor(30, () -> fx.text("verdict-detail").contains("No reconciliation has run for this target yet"),
        () -> fx.text("verdict") + " / " + fx.text("verdict-detail"));

    // The command line reconciles while the screen is shown: the screen shows that one, not "none yet".
    Reconciliation first = other.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    fx.waitFor(15, () -> fx.onFx(() -> console.reconcile().reportProperty().get() != null
            && console.reconcile().reportProperty().get().id().equals(first.id())),
        () -> fx.text("verdict") + " / " + fx.text("verdict-detail"));
    assertTrue(fx.text("verdict").endsWith("(stored)"), fx.text("verdict"));

    // Another console reconciles after v1 changed: its newer verdict takes the place of the one shown, and says so.
    HourPartition appended = disk.world().busyFrom(boundary.plusHours(9));
    disk.world().sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = "
        + "toDateTime(?, 'UTC')", appended.epochSecond());
    Reconciliation second = other.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.RED, second.verdict());
    fx.waitFor(15, () -> fx.onFx(() -> console.reconcile().reportProperty().get().id().equals(second.id())),
        () -> fx.text("verdict") + " / " + fx.text("verdict-detail"));
    assertEquals("RED: " + second.unexpectedKeys() + " unexpected key difference(s) (stored)", fx.text("verdict"));
    assertTrue(fx.text("verdict-detail").contains("A newer reconciliation was stored than the one shown"),
        fx.text("verdict-detail"));

    // One made here is the newest stored: the screen keeps it, and no look replaces it with itself.
    fx.click("reconcile-run");
    fx.waitFor(120, () -> !console.reconcile().reportProperty().get().id().equals(second.id())
        && !console.reconcile().activity().running(), () -> console.reconcile().activity().error());
    Reconciliation mine = console.reconcile().reportProperty().get();
    Thread.sleep(2 * 5_000 + 1_000); // two looks for a newer one
    assertEquals(mine.id(), console.reconcile().reportProperty().get().id());
    assertFalse(fx.text("verdict").endsWith("(stored)"), fx.text("verdict"));
  }

  private void wheel(FxRobot robot, Region chart, double x, double deltaY) {
    robot.interact(() -> {
      Point2D at = chart.localToScreen(x, chart.getHeight() / 2);
      javafx.event.Event.fireEvent(chart, new ScrollEvent(ScrollEvent.SCROLL, x, chart.getHeight() / 2, at.getX(),
          at.getY(), false, false, false, false, false, false, 0, deltaY, 0, deltaY, ScrollEvent.HorizontalTextScrollUnits.NONE,
          0, ScrollEvent.VerticalTextScrollUnits.NONE, 0, 0, null));
    });
  }

  /** Which named window the selector shows chosen, by its words. */
  private String shownChoice() {
    return fx.onFx(() -> java.util.stream.Stream.of("whole", "overlap", "around-b")
        .map(id -> fx.node("reconcile-window-" + id, javafx.scene.control.ToggleButton.class))
        .filter(javafx.scene.control.ToggleButton::isSelected).map(javafx.scene.control.ToggleButton::getText)
        .findFirst().orElse("none: the view is the operator's own"));
  }

  private Point2D screen(Region chart, double x) {
    return fx.onFx(() -> chart.localToScreen(x, chart.getHeight() / 2));
  }

  private void clickHour(FxRobot robot, HourCanvas chart, HourPartition hour) {
    robot.clickOn(screen(chart, fx.onFx(() -> chart.centreOf(hour))));
    WaitForAsyncUtils.waitForFxEvents();
  }

  /** The chart's pixels, to tell whether it drew something else. */
  private int[] pixels(Region chart) {
    return fx.onFx(() -> {
      WritableImage image = chart.snapshot(null, null);
      PixelReader reader = image.getPixelReader();
      int w = (int) image.getWidth();
      int h = (int) image.getHeight();
      int[] out = new int[w * h];
      reader.getPixels(0, 0, w, h, javafx.scene.image.PixelFormat.getIntArgbInstance(), out, 0, w);
      return out;
    });
  }
}
