package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.dialogs.DialogService;
import java.util.Optional;
import javafx.scene.control.Button;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The armed cutover on the Cutover screen: armed while the gate is closed (no verdict yet), behind the typed
 * confirmation and a window, in a dialog that names the server; the screen says it is armed and waits; once a
 * verdict opens the gate, the console's own turn switches consumers, and the arm is gone. Disarmed, nothing switches.
 */
@ExtendWith(ApplicationExtension.class)
class ArmedCutoverScreenTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(3, () -> console);
  private final ScriptedDialogs dialogs = new ScriptedDialogs();

  @Test
  void anArmedCutoverSwitchesByItselfOnceTheGateOpens(FxRobot robot) throws Exception {
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        other.plans().defaults(spec));
    Procedure.backfill(other, plan);
    disk.world().writeLiveV2(plan.boundary(), disk.world().liveEdge.plusHours(1));

    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    Fx fx = window.fx();
    fx.click("nav-cutover");
    fx.waitFor(60, () -> console.cutover().gateProperty().get() != null, () -> console.cutover().activity().error());
    assertFalse(console.cutover().gateProperty().get().open(), "no verdict yet: the gate is closed");
    assertTrue(fx.node("cutover-run", Button.class).isDisabled(), "no cutover now");

    // Disarmed before the gate opens: nothing switches.
    DialogService.ArmRequest asked = dialogs.askedBy(DialogService.ArmRequest.class, () -> fire(fx, "arm-run"));
    assertEquals(console.workspace().server(), asked.server(), "the dialog names the server");
    fx.waitFor(30, () -> console.cutover().armedProperty().get() != null, () -> console.cutover().activity().error());
    assertTrue(fx.text("arm-line").startsWith("Cutover armed by "), fx.text("arm-line"));
    assertTrue(fx.node("arm-run", Button.class).isDisabled(), "armed once");
    fx.waitFor(30, () -> fx.text("repair-summary").contains(" · cutover armed by "), () -> fx.text("repair-summary"));
    fx.shot("49-cutover-armed");
    fire(fx, "disarm-run");
    fx.waitFor(30, () -> console.cutover().armedProperty().get() == null, () -> console.cutover().activity().error());
    assertTrue(other.cutovers().armed(spec).isEmpty());
    assertTrue(fx.text("arm-line").startsWith("Disarmed"), fx.text("arm-line"));

    // Armed again, then a green verdict: the console's turn switches consumers, within a turn or two.
    fire(fx, "arm-run");
    fx.waitFor(30, () -> console.cutover().armedProperty().get() != null, () -> console.cutover().activity().error());
    assertEquals(Reconciliation.Verdict.GREEN, other.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR,
        10_000).verdict());
    fx.waitFor(60, () -> console.cutover().armedProperty().get() == null && console.cutover().lastSwapProperty()
        .get() != null, () -> fx.text("arm-line"));
    assertTrue(fx.text("arm-line").startsWith("The armed cutover switched consumers to v2"), fx.text("arm-line"));
    assertTrue(console.cutover().lastSwapProperty().get().verified());
    assertEquals(Gate.Version.V2, other.cutovers().rollbackGate(spec).current(), "consumers read v2");
    assertTrue(other.cutovers().armed(spec).isEmpty(), "the arm is gone once it switched");
  }

  private static void fire(Fx fx, String id) {
    Button b = fx.node(id, Button.class);
    fx.waitFor(30, () -> !b.isDisabled(), () -> "#" + id + " stays disabled");
    fx.interact(b::fire);
  }
}
