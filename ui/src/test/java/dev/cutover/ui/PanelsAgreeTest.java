package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.repair.RepairWatch;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * Every panel is built from one snapshot of the repair, so none contradicts another for longer than one read
 * of it. The contradictions operators saw, each made again: a gate that said "held by the backfill run" under
 * a banner that said "reconciled — Next: Cut over"; a green "cut over" badge above "Consumers read v1 again";
 * a run shown succeeded under a banner that still said "backfilling"; and (in {@code
 * ViewConsoleProcedureTest}) a view-fed repair's card that said the view writes v2 beside a next step that
 * said nothing does.
 */
@ExtendWith(ApplicationExtension.class)
class PanelsAgreeTest {

  /** One read of the snapshot after a change, with room for the read itself on a busy machine. */
  private static final int ONE_REFRESH = (int) RepairWatch.PERIOD.toSeconds() + 10;

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(3, () -> console);
  private Fx fx;
  private final ScriptedDialogs dialogs = new ScriptedDialogs();

  private RepairSnapshot snapshot() {
    return fx.onFx(() -> console.workspace().repair().snapshotProperty().get());
  }

  @Test
  void theGateTheBannerTheBadgeAndTheRunsAgreeWithinOneRead(FxRobot robot) throws Exception {
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    HourPartition boundary = disk.world().liveEdge.plusHours(-3);
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.of(boundary),
        other.plans().defaults(spec));
    Procedure.backfill(other, plan);
    disk.world().writeLiveV2(boundary, disk.world().liveEdge.plusHours(1));
    assertEquals(Reconciliation.Verdict.GREEN, other.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR,
        10_000).verdict());

    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    fx = window.fx();
    fx.click("nav-cutover");
    fx.waitFor(ONE_REFRESH, () -> fx.text("gate-title").equals("Cutover gate") && fx.text("repair-phase")
        .equals("reconciled"), () -> fx.text("gate-title") + " / " + fx.text("repair-phase"));
    // The gate and the banner come from one snapshot: its time is the gate's, or the gate's is older and said.
    assertTrue(fx.text("gate-judged").contains(dev.cutover.ui.common.Formats.clock(snapshot().gate().orElseThrow()
        .at())), fx.text("gate-judged"));

    // 1. Another process cuts over: the gate, the headline and the badge move together, within one read.
    other.cutovers().cutover(spec, "visits");
    fx.waitFor(ONE_REFRESH, () -> fx.text("gate-title").equals("Rollback gate"), () -> fx.text("gate-title"));
    assertEquals("cut over", fx.text("repair-phase"), "the badge, from the same snapshot as the gate");
    assertTrue(fx.text("consumer-version").contains("read v2"), fx.text("consumer-version"));

    // 2. A rollback made here: the badge never stays green "cut over" above "Consumers read v1 again".
    dialogs.askedBy(DialogService.SwapRequest.class, () -> fx.click("rollback-run"));
    fx.waitFor(60, () -> !console.cutover().activity().running(), () -> console.cutover().activity().error());
    fx.waitFor(ONE_REFRESH, () -> fx.text("gate-title").equals("Cutover gate") && fx.text("repair-phase")
        .equals("rolled back"), () -> fx.text("gate-title") + " / " + fx.text("repair-phase"));
    assertTrue(fx.text("gate-summary").startsWith("Consumers read v1 again since "), fx.text("gate-summary"));

    // 3. A backfill run from another process holds the repair: the gate says so, and so does the banner.
    var held = other.backfills().start(Procedure.clear(other, other.plans().plan(spec, Optional.of(disk.world()
        .first), Optional.of(disk.world().first.plusHours(24)), Optional.empty(), other.plans().defaults(spec)
        .withRowsPerSecond(5))), dev.cutover.engine.api.BackfillEvent.Listener.NONE);
    fx.waitFor(ONE_REFRESH, () -> snapshot().latestRun().map(r -> r.id().equals(held.id())).orElse(false),
        () -> "the snapshot has not seen run " + held.id());
    fx.waitFor(ONE_REFRESH, () -> fx.text("repair-phase").equals("backfilling") && fx.text("gate-summary")
        .startsWith("Cutover gate closed"), () -> fx.text("repair-phase") + " / " + fx.text("gate-summary"));
    RepairSnapshot during = snapshot();
    assertTrue(during.gate().orElseThrow().gate().unmet().stream().anyMatch(c -> c.name().equals("no backfill running")
        || c.name().equals("repair")), during.gate().orElseThrow().gate().unmet().toString());
    assertTrue(fx.text("repair-next").toLowerCase(java.util.Locale.ROOT).contains("wait"), fx.text("repair-next"));

    // 4. The run ends: the banner stops saying it is backfilling within one read, as the runs say it succeeded.
    assertEquals(dev.cutover.engine.api.RunState.SUCCEEDED, held.await().state());
    fx.waitFor(ONE_REFRESH, () -> !fx.text("repair-phase").equals("backfilling")
        && snapshot().latestRun().orElseThrow().state() == dev.cutover.engine.api.RunState.SUCCEEDED,
        () -> fx.text("repair-phase"));
    assertTrue(!fx.text("repair-next").toLowerCase(java.util.Locale.ROOT).contains("writing the history"),
        fx.text("repair-next"));
  }
}
