package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.Optional;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The History screen while it is shown: what another process does (a backfill, a reconciliation)
 * appears in its lists without a click, and the screen says when it read them.
 */
@ExtendWith(ApplicationExtension.class)
class HistoryScreenTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(2, () -> console);

  @Test
  void whatAnotherProcessDoesAppearsWhileTheScreenIsShownAndTheScreenSaysWhenItRead(FxRobot robot) throws Exception {
    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), new ScriptedDialogs());
    console = window.console();
    Fx fx = window.fx();
    fx.onFx(() -> {
      console.workspace().repair().stop(); // the banner's own 30 s timer would hide whether the screen asks it to read
      return null;
    });
    fx.click("nav-history");
    fx.waitFor(15, () -> fx.text("history-as-of").startsWith("as of "), () -> fx.text("history-as-of"));
    assertEquals(0, fx.onFx(() -> fx.node("history-runs", TableView.class).getItems().size()), "no run yet");
    String firstRead = fx.text("history-as-of");

    // Another process backfills and reconciles while the screen stays shown, untouched.
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        other.plans().defaults(spec));
    RunRecord run = Procedure.backfill(other, plan);
    Reconciliation report = other.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 1_000);

    fx.waitFor(15, () -> fx.onFx(() -> fx.node("history-runs", TableView.class).getItems().size() == 1
            && fx.node("history-reconciliations", TableView.class).getItems().size() == 1),
        () -> fx.text("history-as-of"));
    assertEquals(run.id(), fx.onFx(() -> ((RunRecord) ((dev.cutover.engine.api.OnNode<?>) fx.node("history-runs",
        TableView.class).getItems().getFirst()).value()).id()));
    assertEquals(report.id(), fx.onFx(() -> ((dev.cutover.engine.api.ReportSummary) ((dev.cutover.engine.api.OnNode<?>)
        fx.node("history-reconciliations", TableView.class).getItems().getFirst()).value()).id()));
    assertTrue(!fx.text("history-as-of").equals(firstRead), "the time of the read moved on: " + fx.text("history-as-of"));
    // The banner above says no less than the lists: it read the repair the backfill opened.
    var watch = console.workspace().repair();
    fx.waitFor(10, () -> fx.onFx(() -> watch.statusProperty().get() != null
        && watch.statusProperty().get().repair().isPresent()), () -> fx.onFx(() -> watch.panels().asOfProperty().get()));
  }
}
