package dev.cutover.ui.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.ui.RenderedFrames;
import dev.cutover.ui.ScriptedDialogs;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.tasks.ImmediateTaskExecutor;
import java.time.Instant;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Backfill screen's run picker: it follows the latest run until the operator picks one, keeps that
 * pick while runs start and end around it, and a new run in its list repaints no more than the picker and
 * writes no menu.
 */
@ExtendWith(ApplicationExtension.class)
class RunPickerTest {

  private static final HourPartition FIRST = HourPartition.parse("first", "2026-06-01T00:00");

  private BackfillModel model;
  private RunPicker picker;
  private MenuButton box;
  private RenderedFrames frames;

  private static RunRecord run(String id, RunState state) {
    Instant now = Instant.parse("2026-12-02T01:00:00Z");
    return new RunRecord(id, "repair-1", "pnl", "sha", "db.pnl_v2", new HourRange(FIRST, FIRST.plusHours(24)),
        FIRST.plusHours(24), "", "alice", "host", 1, "test", now, now, state, "");
  }

  private void open(FxRobot robot) {
    robot.interact(() -> {
      model = new BackfillModel(new Workspace(new ImmediateTaskExecutor(), new ScriptedDialogs()));
      picker = new RunPicker(new Binder(), model);
      box = picker.node();
      // A screen's worth of other nodes around the picker: a repaint of the whole scene renders them all.
      VBox root = new VBox(8, box);
      for (int i = 0; i < 40; i++) {
        root.getChildren().add(new Button("button " + i));
      }
      Scene scene = new Scene(root, 800, 1200);
      Stage stage = new Stage();
      stage.setScene(scene);
      stage.show();
      frames = new RenderedFrames(scene);
    });
    WaitForAsyncUtils.waitForFxEvents();
  }

  @Test
  void followsTheLatestUntilARunIsPickedAndKeepsThePick(FxRobot robot) {
    open(robot);
    assertEquals("latest run (none yet)", text());
    robot.interact(() -> model.runs().setAll(run("r2", RunState.RUNNING), run("r1", RunState.SUCCEEDED)));
    assertEquals(List.of(RunPicker.LATEST, "r2", "r1"), picker.entries());
    assertEquals("latest: r2 · running", text());
    assertNull(model.selectedRunProperty().get());

    // The operator opens the menu, written as it opens with the run shown marked, and picks the older run.
    robot.interact(box::show);
    assertEquals(List.of("latest: r2 · running", "r2 · running", "r1 · succeeded"),
        box.getItems().stream().map(MenuItem::getText).toList());
    assertTrue(((RadioMenuItem) box.getItems().getFirst()).isSelected());
    robot.interact(() -> box.getItems().get(2).fire());
    robot.interact(box::hide);
    assertEquals("r1", model.selectedRunProperty().get());
    assertEquals("r1 · succeeded", text());

    // The latest run ends and a new one starts: the pick stays, and the words follow the states.
    robot.interact(() -> model.runs().setAll(run("r2", RunState.SUCCEEDED), run("r1", RunState.SUCCEEDED)));
    robot.interact(() -> model.runs().setAll(run("r3", RunState.RUNNING), run("r2", RunState.SUCCEEDED),
        run("r1", RunState.SUCCEEDED)));
    assertEquals("r1", model.selectedRunProperty().get());
    assertEquals("r1 · succeeded", text());
    assertEquals("r2 · succeeded", WaitForAsyncUtils.waitForAsyncFx(10_000, () -> picker.words("r2")));
    robot.interact(box::show);
    assertTrue(((RadioMenuItem) box.getItems().get(3)).isSelected(), "the pick is marked where it now stands");
    robot.interact(box::hide);

    // Back to the latest, by the picker or by the screen (a run this console starts).
    robot.interact(() -> picker.pick(RunPicker.LATEST));
    assertNull(model.selectedRunProperty().get());
    robot.interact(() -> model.selectedRunProperty().set("r2"));
    assertEquals("r2 · succeeded", text());
    robot.interact(() -> model.selectedRunProperty().set(null));
    assertEquals("latest: r3 · running", text());
  }

  /**
   * A run that starts adds itself to the list while the screen follows it; a ComboBox's new list makes
   * the next two pulses repaint the whole scene, the picker's does not.
   */
  @Test
  void aNewRunInTheListIsNotARepaintOfTheScreen(FxRobot robot) throws Exception {
    open(robot);
    for (int n = 1; n <= 3; n++) {
      frames.awaitQuiet();
      int before = frames.count();
      List<RunRecord> runs = new java.util.ArrayList<>();
      for (int i = n; i >= 1; i--) {
        runs.add(run("r" + i, i == n ? RunState.RUNNING : RunState.SUCCEEDED));
      }
      robot.interact(() -> model.runs().setAll(runs));
      Thread.sleep(200);
      frames.awaitQuiet();
      assertTrue(frames.count() - before <= 1, "frames rendered for run r" + n + " in the list: " + (frames.count() - before));
      assertEquals("latest: r" + n + " · running", text());
      assertTrue(box.getItems().isEmpty(), "a list that changes writes no menu until the operator opens it");
    }
  }

  /** What the picker shows. */
  private String text() {
    WaitForAsyncUtils.waitForFxEvents();
    return WaitForAsyncUtils.waitForAsyncFx(10_000, box::getText);
  }
}
