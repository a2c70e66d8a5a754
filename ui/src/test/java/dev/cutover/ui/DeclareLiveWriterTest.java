package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Optional;
import javafx.scene.control.Button;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * Outside the demo, the corrected live writer is the operator's own job: the Backfill screen lets them
 * declare it deployed, and from then on the card and the repair's banner say it is waited for, where
 * both asked for its deployment again until its first hour arrived.
 */
@ExtendWith(ApplicationExtension.class)
class DeclareLiveWriterTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(3, () -> console);

  @Test
  void aDeclaredWriterIsWaitedForOnTheCardAndTheBanner(FxRobot robot) throws Exception {
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        other.plans().defaults(spec));
    assertEquals(RunState.SUCCEEDED, Procedure.backfill(other, plan).state());
    HourPartition b = plan.boundary();
    String target = spec.database() + "." + spec.targetTable();

    ScriptedDialogs dialogs = new ScriptedDialogs();
    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    Fx fx = window.fx();
    fx.click("nav-backfill");
    Button declare = fx.node("declare-live-writer", Button.class);
    fx.waitFor(30, () -> fx.text("repair-next-button").equals("Backfill: Deploy the corrected writer")
        && !declare.isDisabled(), () -> fx.text("repair-next-button") + " / " + declare.isDisabled());
    // The card's words come from the Backfill screen's own read, which may land after the banner's.
    fx.waitFor(30, () -> fx.text("v2-status").equals("No hour at or after B in v2 yet: the corrected live writer has "
        + "not started."), () -> fx.text("v2-status"));
    assertEquals(Safety.DECLARE_LIVE, fx.text("declare-live-safety"));

    // Declined: nothing is written.
    dialogs.declaredWriter = null;
    fx.click("declare-live-writer");
    fx.waitFor(10, () -> dialogs.asked.contains("declare " + target + " from " + b), () -> dialogs.asked.toString());
    assertEquals(List.of(), declarations(other, target));

    dialogs.declaredWriter = "visits-job 4.2";
    fx.click("declare-live-writer");
    fx.waitFor(30, () -> fx.text("v2-status").startsWith("Declared deployed (visits-job 4.2) by ")
        && fx.text("repair-next-button").equals("Backfill")
        && fx.text("repair-next").startsWith("The corrected live writer (visits-job 4.2) was declared deployed from "
            + "B = " + b + " by "),
        () -> fx.text("v2-status") + " / " + fx.text("repair-next-button") + " / " + fx.text("repair-next") + " / "
            + fx.text("writer-error"));
    long v1FromB = java.time.Duration.between(b.start(), disk.world().liveEdge.start()).toHours() + 1;
    assertTrue(fx.text("v2-status").endsWith(": no hour at or after B in v2 yet, while v1 has written "
        + dev.cutover.ui.common.Formats.hours(v1FromB) + " from B. If its first hour does not come, check that it "
        + "runs and starts at B."), fx.text("v2-status"));
    List<AuditEntry> lines = declarations(other, target);
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.getFirst().detail().endsWith("visits-job 4.2"), lines.toString());
    fx.shot("07b-backfill-writer-declared");

    // The writer's hours arrive: they are read from the data, and there is nothing left to declare.
    disk.world().writeLiveV2(b, disk.world().liveEdge.plusHours(1));
    fx.click("repair-refresh");
    fx.waitFor(60, () -> fx.text("v2-status").equals("The corrected live writer has caught up with v1.")
        && declare.isDisabled() && !fx.text("repair-next-button").startsWith("Backfill"),
        () -> fx.text("v2-status") + " / " + fx.text("repair-next-button"));
  }

  private static List<AuditEntry> declarations(Engine engine, String target) {
    return engine.repairs().audit(target, 50).stream().filter(a -> a.action().equals("deploy live writer")).toList();
  }
}
