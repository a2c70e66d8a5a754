package dev.cutover.ui.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.function.BiFunction;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A card above a large canvas, as the backfill screen's run card above its hour grid: a step starts (its bar
 * shows), the run says its first message, the step ends (its bar goes), and what lies below does not move,
 * since each move would repaint it whole. Built the plain way, the same card moves it as the step starts and
 * as it ends.
 */
@ExtendWith(ApplicationExtension.class)
class StillLayoutTest {

  private record Screen(VBox root, Label message, Activity activity, ActivityTest.Held executor, Region below) {}

  private Screen screen(FxRobot robot, BiFunction<Binder, Activity, HBox> bar, boolean still) {
    ActivityTest.Held executor = new ActivityTest.Held();
    Activity activity = new Activity(executor);
    Binder binder = new Binder();
    Label message = Widgets.wrap(new Label());
    VBox card = Widgets.card("Run", message, bar.apply(binder, activity));
    HBox top = new HBox(card);
    if (still) {
      Widgets.keepTallest(top);
    }
    Region below = new Region();
    VBox.setVgrow(below, Priority.ALWAYS);
    VBox root = new VBox(14, top, below);
    robot.interact(() -> {
      Stage stage = new Stage();
      stage.setScene(new Scene(root, 800, 500));
      stage.show();
    });
    WaitForAsyncUtils.waitForFxEvents();
    return new Screen(root, message, activity, executor, below);
  }

  /** Where {@code below} lay after each of: the screen shown, a step started, a message said, the step ended. */
  private static double[] places(FxRobot robot, Screen s) {
    double[] y = new double[4];
    y[0] = s.below().getLayoutY();
    robot.interact(() -> s.activity().runToTheEnd("start the run", p -> "started", r -> {}, f -> {}));
    WaitForAsyncUtils.waitForFxEvents();
    y[1] = s.below().getLayoutY();
    robot.interact(() -> s.message().setText("started"));
    WaitForAsyncUtils.waitForFxEvents();
    y[2] = s.below().getLayoutY();
    robot.interact(() -> s.executor().successes.getFirst().accept("started"));
    WaitForAsyncUtils.waitForFxEvents();
    y[3] = s.below().getLayoutY();
    robot.interact(() -> s.root().getScene().getWindow().hide());
    return y;
  }

  @Test
  void whatLiesBelowAStillCardStaysWhereItIs(FxRobot robot) {
    double[] y = places(robot, screen(robot, (b, a) -> Widgets.activityRow("bar", b, a), true));
    assertEquals(y[0], y[1], "a step's start");
    assertEquals(y[0], y[2], "the run's first message");
    assertEquals(y[0], y[3], "the step's end");
  }

  @Test
  void aPlainCardMovesItAtEachChange(FxRobot robot) {
    double[] y = places(robot, screen(robot, (b, a) -> Widgets.activityBar("bar", b, a), false));
    assertNotEquals(y[0], y[1], "a step's start");
    assertEquals(y[1], y[2], "an empty label is a line high already: its first text moves nothing");
    assertNotEquals(y[2], y[3], "the step's end");
  }
}
