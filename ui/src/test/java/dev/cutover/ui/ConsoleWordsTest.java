package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cutover.engine.api.HourPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.TabPane;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * What the console's words say is what is: a table's name among the preflight's dependents keeps its underscores (no
 * control showing data parses a mnemonic), and the demo's live job runs only when the operator starts
 * it, with its state in words.
 */
@ExtendWith(ApplicationExtension.class)
class ConsoleWordsTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(2, () -> console);
  private Fx fx;
  private final ScriptedDialogs dialogs = new ScriptedDialogs();


  private void open(FxRobot robot, Optional<DemoControls> demo) {
    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs, demo);
    console = window.console();
    fx = window.fx();
  }

  @Test
  void aTableNameOfADependentKeepsItsUnderscores(FxRobot robot) {
    disk.world().sql.execute("an alerting view", "CREATE MATERIALIZED VIEW visits_alerts_mv ENGINE = MergeTree ORDER BY "
        + "site AS SELECT site, clicks FROM visits_v1 WHERE clicks > 100");
    open(robot, Optional.empty());
    fx.click("nav-plan");
    fx.waitFor(30, () -> !fx.text("plan-boundary").isEmpty(), () -> console.plan().activity().error());
    fx.click("plan-make");
    fx.waitFor(30, () -> console.workspace().plan() != null, () -> console.plan().activity().error());
    TabPane tabs = fx.node("plan-tabs", TabPane.class);
    fx.interact(() -> tabs.getSelectionModel().select(1));
    fx.click("preflight-run");
    fx.waitFor(60, () -> !console.plan().preflight().dependents().isEmpty(),
        () -> console.plan().preflight().activity().error());
    String name = disk.world().database + ".visits_alerts_mv";
    // The list fills on one pulse and its labels draw their text on the next layout: wait for both.
    fx.waitFor(10, () -> dependent(name).map(l -> !drawn(l).isEmpty()).orElse(false),
        () -> "the name of " + name + " was not drawn");
    Label label = fx.onFx(() -> dependent(name).orElseThrow());
    assertFalse(label.isMnemonicParsing(), "a table's name is data, not a mnemonic");
    assertEquals(name + " (reads visits_v1)", drawn(label), "the name as it is drawn");
    assertEquals(List.of(), parsingData(), "controls that show data and parse mnemonics");

    // Every other screen: no control whose text is data parses a mnemonic.
    for (String screen : List.of("backfill", "reconcile", "cutover", "history", "connection")) {
      fx.click("nav-" + screen);
      fx.waitFor(30, () -> console.currentScreen().equals(screen), console::currentScreen);
      assertEquals(List.of(), parsingData(), "on the " + screen + " screen");
    }
  }

  @Test
  void theDemosLiveJobStartsOnlyFromItsButton(FxRobot robot) {
    AtomicInteger starts = new AtomicInteger();
    AtomicInteger stops = new AtomicInteger();
    AtomicBoolean running = new AtomicBoolean();
    open(robot, Optional.of(new DemoControls() {
      @Override
      public String describe() {
        return "Test world: its live job writes nothing; deploying writes v2 from B.";
      }

      @Override
      public LiveJobState liveJob() {
        return new LiveJobState(running.get(), "");
      }

      @Override
      public void startLiveJob() {
        starts.incrementAndGet();
        running.set(true);
      }

      @Override
      public void stopLiveJob() {
        stops.incrementAndGet();
        running.set(false);
      }

      @Override
      public void deployV2(HourPartition from) {
        disk.world().writeLiveV2(from, disk.world().liveEdge.plusHours(1));
      }
    }));
    // Open, connected, every screen visited: nothing started the job.
    for (String screen : List.of("plan", "reconcile", "cutover", "history", "backfill")) {
      fx.click("nav-" + screen);
      fx.waitFor(30, () -> console.currentScreen().equals(screen), console::currentScreen);
    }
    assertEquals(0, starts.get(), "opening the console starts no live job");
    assertEquals("The demo's live job is stopped: nothing here writes the demo world.", fx.text("demo-live-state"));
    assertEquals("Start live _job", fx.text("demo-live-toggle"));

    fx.click("demo-live-toggle");
    fx.waitFor(10, () -> fx.text("demo-live-state").startsWith("The demo's live job runs"),
        () -> fx.text("demo-live-state"));
    assertEquals(1, starts.get());
    assertEquals("Stop live _job", fx.text("demo-live-toggle"));
    // Alt+J, the button's mnemonic, stops it.
    robot.push(KeyCode.ALT, KeyCode.J);
    fx.waitFor(10, () -> fx.text("demo-live-state").startsWith("The demo's live job is stopped"),
        () -> fx.text("demo-live-state"));
    assertEquals(1, stops.get());
    assertEquals(1, starts.get());
  }

  /** The label that names a dependent in the preflight's list of dependents. */
  private Optional<Label> dependent(String name) {
    return Optional.ofNullable(fx.node("dependent-" + name.replace('.', '-'), Label.class));
  }

  /** The text a labeled control draws: with a mnemonic parsed, its first underscore is gone. */
  private String drawn(Labeled l) {
    return fx.onFx(() -> l.getChildrenUnmodifiable().stream().filter(Text.class::isInstance).map(Text.class::cast)
        .map(Text::getText).findFirst().orElse(""));
  }

  /**
   * Controls on screen that parse mnemonics in a text that looks like data: a qualified name (a dot)
   * or more than one underscore. A fixed label has one underscore before its letter and no dot.
   */
  private List<String> parsingData() {
    return fx.onFx(() -> {
      List<String> found = new ArrayList<>();
      collect(console.workspace() == null ? null : fx.node("status-line", Node.class).getScene().getRoot(), found);
      return found;
    });
  }

  private static void collect(Node node, List<String> found) {
    if (node == null) {
      return;
    }
    if (node instanceof Labeled l && l.isMnemonicParsing() && l.getText() != null) {
      String t = l.getText();
      long underscores = t.chars().filter(c -> c == '_').count();
      if (t.matches(".*\\w\\.\\w.*") || underscores > 1) {
        found.add(l.getId() + ": " + t);
      }
    }
    if (node instanceof Parent p) {
      for (Node child : p.getChildrenUnmodifiable()) {
        collect(child, found);
      }
    }
  }
}
