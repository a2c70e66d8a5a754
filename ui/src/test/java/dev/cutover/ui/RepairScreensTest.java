package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.dialogs.DialogService;
import java.util.Optional;
import javafx.scene.control.Button;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * A repair that another process started: the Plan screen shows the boundary its first backfill
 * pinned and will not change it, plans with it, and gives the repair up only once the target's name
 * is typed and a reason written; the banner follows each step.
 */
@ExtendWith(ApplicationExtension.class)
class RepairScreensTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(2, () -> console);
  private Fx fx;
  private final ScriptedDialogs dialogs = new ScriptedDialogs();


  @Test
  void thePinnedBoundaryIsShownAndKeptUntilTheRepairIsAbandoned(FxRobot robot) throws Exception {
    // Another process backfilled the last day with a boundary two hours earlier than the safe default.
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    HourPartition pinned = disk.world().liveEdge.plusHours(-5);
    HourPartition safeDefault = disk.world().liveEdge.plusHours(-3);
    Plan first = other.plans().plan(spec, Optional.of(pinned.plusHours(-24)), Optional.empty(), Optional.of(pinned),
        other.plans().defaults(spec));
    Procedure.backfill(other, first);
    Repair repair = other.repairs().current(spec).orElseThrow();
    assertEquals(Optional.of(pinned), repair.boundary());

    open(robot);
    fx.click("nav-plan");
    fx.waitFor(30, () -> fx.text("plan-boundary").equals(pinned.toString()), () -> fx.text("plan-boundary") + " "
        + console.plan().activity().error());
    TextField boundary = fx.node("plan-boundary", TextField.class);
    assertFalse(boundary.isEditable(), "a pinned boundary cannot be changed here");
    assertTrue(fx.node("plan-boundary-reset", Button.class).isDisabled());
    assertTrue(fx.text("plan-boundary-hint").startsWith("Pinned by repair " + repair.id() + " when its first "
        + "backfill started; abandon the repair to choose another."), fx.text("plan-boundary-hint"));
    robot.clickOn(boundary).write("9");
    assertEquals(pinned.toString(), fx.text("plan-boundary"), "typing changes nothing");

    // The banner says the same, and how old it is.
    fx.waitFor(30, () -> fx.text("repair-phase").equals("backfilled"), () -> fx.text("repair-phase") + " "
        + fx.text("repair-summary"));
    assertTrue(fx.text("repair-summary").contains("B = " + pinned + " UTC"), fx.text("repair-summary"));
    assertTrue(fx.text("repair-as-of").startsWith("as of "), fx.text("repair-as-of"));

    // A plan made here takes the pinned boundary.
    fx.click("plan-make");
    fx.waitFor(30, () -> console.workspace().plan() != null, () -> console.plan().activity().error());
    assertEquals(pinned, console.workspace().plan().boundary());
    assertTrue(console.workspace().plan().pinned());
    assertEquals(pinned + " UTC", fx.text("plan-summary-boundary"));
    fx.shot("04b-plan-pinned");

    // The wrong name typed: the engine refuses, and the repair stays.
    dialogs.typedName = "visits";
    DialogService.AbandonRequest asked = dialogs.askedBy(DialogService.AbandonRequest.class,
        () -> fx.click("repair-abandon"));
    assertEquals("visits_v2", asked.table());
    assertEquals(repair.id(), asked.repairId());
    assertEquals(Optional.of(pinned), asked.boundary());
    assertEquals(Safety.ABANDON, asked.consequence());
    fx.waitFor(30, () -> !console.plan().activity().error().isEmpty(), () -> "no refusal");
    assertEquals("To abandon the repair, confirm with the target's name, visits_v2 (you typed 'visits').",
        fx.text("plan-error"));
    assertEquals(RepairPhase.BACKFILLED, other.repairs().current(spec).orElseThrow().phase());

    // Alt+A asks again; with the name typed and a reason, the repair is given up.
    dialogs.typedName = null;
    robot.push(KeyCode.ALT, KeyCode.A);
    fx.waitFor(30, () -> console.plan().repairProperty().get() == null && !console.plan().activity().running(),
        () -> console.plan().activity().error());
    assertEquals(2, dialogs.asked.stream().filter(a -> a instanceof DialogService.AbandonRequest).count());
    assertEquals(RepairPhase.ABANDONED, other.repairs().current(spec).orElseThrow().phase());
    assertEquals(safeDefault.toString(), fx.text("plan-boundary"), "the safe default is offered again");
    assertTrue(boundary.isEditable());
    assertFalse(fx.node("plan-boundary-reset", Button.class).isDisabled());
    assertEquals(null, console.workspace().plan(), "the plan made with the old boundary is gone");
    assertFalse(fx.node("repair-abandon", Button.class).isVisible(), "nothing left to abandon");
    assertTrue(other.repairs().audit(null, 50).stream().anyMatch(a -> a.action().equals("abandon")
        && a.detail().contains(dialogs.abandonReason)), "the reason is in the audit trail");

    fx.waitFor(30, () -> fx.text("repair-phase").equals("abandoned"), () -> fx.text("repair-phase"));
    assertEquals("Plan: Run preflight, then Backfill: Start", fx.text("repair-next-button"));
    assertTrue(fx.text("repair-next").startsWith("Repair " + repair.id() + " was abandoned ("), fx.text("repair-next"));
    assertTrue(fx.text("repair-summary").contains("B = " + pinned + " UTC (no longer counts)"),
        fx.text("repair-summary"));
    fx.shot("04c-plan-abandoned");
  }

  private void open(FxRobot robot) {
    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    fx = window.fx();
  }

}
