package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The screenshots' own checks find what an operator would miss: text cut to an ellipsis, and text that spills out of
 * the box that holds it (drawn over the next one, or under the window's edge).
 */
@ExtendWith(ApplicationExtension.class)
class ScreenCheckTest {

  private Label cut;
  private Label spilling;
  private VBox box;
  private Scene scene;

  @Start
  void start(Stage stage) {
    cut = new Label("Coverage problems in the whole repair window");
    spilling = new Label("Wheel or + − zooms · drag or Shift+← → pans · Shift+drag picks a range · Home shows the "
        + "whole window · ← → moves the hour.");
    box = new VBox(spilling);
    cut.setMaxWidth(120);
    spilling.setWrapText(true);
    spilling.setMinHeight(Region.USE_PREF_SIZE);
    box.setMaxWidth(200);
    // Held to 30 pixels whatever its text needs, as a card in a crowded screen is.
    box.setMinHeight(30);
    box.setPrefHeight(30);
    box.setMaxHeight(30);
    scene = new Scene(new StackPane(new VBox(10, cut, new StackPane(box))), 400, 300);
    stage.setScene(scene);
    stage.show();
  }

  @Test
  void aLabelCutShortAndOneSpillingOutOfItsBoxAreBothFound(FxRobot robot) {
    Fx fx = new Fx(robot, scene);
    assertEquals(List.of("Label: Coverage problems in the whole repair window"), fx.cutOnScreen());
    List<String> clipped = fx.clippedOnScreen();
    assertEquals(1, clipped.size(), clipped.toString());
    assertTrue(clipped.getFirst().startsWith("Label: Wheel or"), clipped.toString());

    robot.interact(() -> {
      cut.setMaxWidth(Region.USE_COMPUTED_SIZE);
      box.setMinHeight(Region.USE_COMPUTED_SIZE);
      box.setPrefHeight(Region.USE_COMPUTED_SIZE);
      box.setMaxHeight(Region.USE_COMPUTED_SIZE);
    });
    assertEquals(List.of(), fx.cutOnScreen(), "room enough: nothing cut");
    assertEquals(List.of(), fx.clippedOnScreen(), "room enough: nothing spills");
  }
}
