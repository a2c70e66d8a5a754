package dev.cutover.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.repair.RepairWatch;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javafx.scene.control.Spinner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * A run the console did not start (another process, or this one before the window was reopened) is
 * followed from its record and ledger; once stopped, the console resumes it and drives it: pause,
 * resume and a throttle change while it runs.
 */
@ExtendWith(ApplicationExtension.class)
class BackfillFollowTest {

  private CutoverConsole console;
  @RegisterExtension final WorldOnDisk disk = new WorldOnDisk(3, () -> console);
  private Fx fx;
  private RunHandle elsewhere;


  @AfterEach
  void close() throws Exception {
    if (elsewhere != null) {
      elsewhere.cancel();
      elsewhere.await();
    }
  }

  @Test
  void beforeAnyPlanTheThrottleShownIsTheSpecs(FxRobot robot) throws Exception {
    // The spec asks for one batch at a time and a rest as long as each batch: the controls say so before any plan
    // (they showed 2 and 0 whatever the spec said).
    java.nio.file.Files.writeString(disk.specFile(), disk.world().specYaml().replace("concurrency: 2",
        "concurrency: 1\n  rest_percent: 100\n  rows_per_second: 500"));
    open(robot, new ScriptedDialogs());
    fx.waitFor(30, () -> fx.node("throttle-concurrency", Spinner.class).getValue().equals(1)
        && fx.node("throttle-rest", Spinner.class).getValue().equals(100)
        && ((Number) fx.node("throttle-rows", Spinner.class).getValue()).longValue() == 500,
        () -> fx.node("throttle-concurrency", Spinner.class).getValue() + " "
            + fx.node("throttle-rest", Spinner.class).getValue() + " " + fx.node("throttle-rows", Spinner.class).getValue());
  }

  @Test
  void aRunStartedElsewhereIsFollowedAndAStoppedRunIsResumedAndDrivenHere(FxRobot robot) throws Exception {
    // Another process: an engine on the same working database, throttled so that the run takes a while.
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        other.plans().defaults(spec).withConcurrency(1).withBatchHours(1).withRowsPerSecond(20));
    elsewhere = dev.cutover.engine.testing.Procedure.start(other, plan);

    open(robot, new ScriptedDialogs());

    // Followed from the ledger while it runs: some hours written, some still pending.
    fx.waitFor(30, () -> fx.text("run-state").equals("Running") && count("legend-written") > 0
        && count("legend-pending") > 0 && !fx.text("run-rate").equals("0"),
        () -> fx.text("run-state") + " " + fx.text("legend-written") + " " + fx.text("run-rate"));
    assertTrue(fx.node("backfill-pause", javafx.scene.control.Button.class).isDisabled(),
        "another process drives this run: it is paused there, not here");
    fx.click("theme-toggle");
    fx.shot("17-backfill-followed-dark");
    fx.click("theme-toggle");

    // Stopped there: the screen shows it cancelled, exactly as far as the ledger says.
    elsewhere.cancel();
    assertEquals(RunState.CANCELLED, elsewhere.await().state());
    elsewhere = null;
    fx.waitFor(15, () -> fx.text("run-state").equals("Cancelled"), () -> fx.text("run-state"));
    Map<?, LedgerEntry> ledger = other.backfills().ledger(other.backfills().runs(spec).getFirst().id());
    fx.waitFor(10, () -> count("legend-written") + count("legend-emptied") == ledger.size(),
        () -> fx.text("legend-written") + " " + fx.text("legend-emptied") + " vs ledger " + ledger.size());

    // Resumed here, slowly; paused and resumed; then the throttle lifted while it runs.
    Spinner<Integer> rows = fx.node("throttle-rows", Spinner.class);
    fx.interact(() -> rows.getValueFactory().setValue(20));
    fx.click("backfill-resume-run");
    fx.waitFor(30, () -> console.backfill().drivenProperty().get() != null, () -> console.backfill().activity().error());
    // The buttons follow the screen's own step (starting the run) as well as the run: click each once it is offered.
    fx.waitFor(30, () -> !fx.node("backfill-pause", javafx.scene.control.Button.class).isDisabled(),
        () -> console.backfill().activity().messageProperty().get());
    fx.click("backfill-pause");
    fx.waitFor(30, () -> fx.text("run-state").equals("Paused"), () -> fx.text("run-state"));
    fx.waitFor(30, () -> !fx.node("backfill-resume", javafx.scene.control.Button.class).isDisabled(),
        () -> console.backfill().activity().messageProperty().get());
    fx.click("backfill-resume");
    fx.waitFor(30, () -> fx.text("run-state").equals("Running"), () -> fx.text("run-state"));
    Spinner<Integer> rest = fx.node("throttle-rest", Spinner.class);
    fx.interact(() -> {
      rows.getValueFactory().setValue(0);
      rest.getValueFactory().setValue(50);
    });
    fx.click("throttle-apply");
    fx.waitFor(120, () -> console.backfill().drivenProperty().get() == null && fx.text("run-state").equals("Succeeded"),
        () -> fx.text("run-state") + " " + fx.text("run-message"));

    String runId = other.backfills().runs(spec).getFirst().id();
    var done = other.backfills().ledger(runId);
    assertEquals(plan.hours().size(), done.size());
    long written = done.values().stream().filter(e -> e.state() == LedgerEntry.State.WRITTEN).count();
    fx.waitFor(10, () -> fx.text("legend-written").equals("Written " + Formats.count(written)),
        () -> fx.text("legend-written"));
    assertEquals("Pending 0", fx.text("legend-pending"));
    assertTrue(other.repairs().audit(runId, 50).stream().anyMatch(a -> a.action().equals("throttle")
        && a.detail().equals("rows per second limit set to none")), "the throttle change reached the run");
    assertTrue(other.repairs().audit(runId, 50).stream().anyMatch(a -> a.action().equals("throttle")
        && a.detail().equals("rest after each batch set to 50% of its time")), "the rest reached the run");
    // What a later resume would run with: the run's record keeps the throttle as last changed.
    assertEquals(50, other.plans().runSettings(spec, other.backfills().run(runId).orElseThrow()).restPercent());
    assertTrue(other.repairs().audit(runId, 50).stream().anyMatch(a -> a.action().equals("resume")));
  }

  @Test
  void aRunStartedOrEndedElsewhereBringsTheRepairBannerUpToDateAtOnce(FxRobot robot) throws Exception {
    open(robot, new ScriptedDialogs());
    RepairWatch watch = console.workspace().repair();
    fx.waitFor(15, () -> fx.onFx(() -> watch.statusProperty().get() != null), () -> fx.text("run-state"));
    assertEquals(Optional.empty(), fx.onFx(() -> watch.statusProperty().get().repair()), "no repair yet");
    // From here on only what the screens ask for reads the repair: its period (30 s) would hide whether they do.
    fx.onFx(() -> {
      watch.stop();
      return null;
    });

    // Another process starts the first backfill, which opens the repair and pins B.
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        other.plans().defaults(spec).withConcurrency(1).withBatchHours(1).withRowsPerSecond(20));
    elsewhere = dev.cutover.engine.testing.Procedure.start(other, plan);
    fx.waitFor(10, () -> fx.onFx(() -> watch.statusProperty().get().repair().isPresent()),
        () -> fx.onFx(() -> watch.panels().asOfProperty().get() + " " + watch.statusProperty().get().repair()));
    assertEquals(Optional.of(plan.boundary()), fx.onFx(() -> watch.statusProperty().get().repair().orElseThrow()
        .boundary()));

    // Stopped there: the banner reads the repair again once the screen sees the run end.
    elsewhere.cancel();
    assertEquals(RunState.CANCELLED, elsewhere.await().state());
    elsewhere = null;
    Instant ended = Instant.now();
    fx.waitFor(10, () -> fx.onFx(() -> watch.statusProperty().get().at().isAfter(ended)),
        () -> fx.onFx(() -> watch.panels().asOfProperty().get()));
    assertEquals("Cancelled", fx.text("run-state"));
  }

  @Test
  void aRunWhoseProcessIsGoneIsShownInterruptedNeverRunningAndCanBeResumed(FxRobot robot) throws Exception {
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        other.plans().defaults(spec).withConcurrency(1).withBatchHours(1).withRowsPerSecond(20));
    RunHandle run = dev.cutover.engine.testing.Procedure.start(other, plan);
    run.cancel();
    run.await();
    // Its record says running, with a heartbeat from long ago: the process that ran it died without a word.
    var store = new dev.cutover.engine.ledger.StateStore(TestEngine.session().database().sql(),
        TestEngine.session().server().database());
    var last = store.run(run.id()).orElseThrow();
    java.time.Instant longAgo = java.time.Instant.now().minus(java.time.Duration.ofMinutes(10));
    store.saveRun(new dev.cutover.engine.api.RunRecord(last.id(), last.repairId(), last.specName(), last.specHash(),
        last.target(), last.range(), last.boundary(), last.parameters(), last.osUser(), last.host(), last.pid(),
        last.toolVersion(), last.created(), longAgo, RunState.RUNNING, "running"));

    open(robot, new ScriptedDialogs());

    fx.waitFor(15, () -> fx.text("run-state").equals("Interrupted (its process stopped answering; resume it)"),
        () -> fx.text("run-state"));
    Map<?, LedgerEntry> ledger = other.backfills().ledger(run.id());
    fx.waitFor(10, () -> count("legend-written") + count("legend-emptied") == ledger.size(),
        () -> fx.text("legend-written") + " " + fx.text("legend-emptied") + " vs ledger " + ledger.size());
    Thread.sleep(2 * 2_000); // two more reads of the records: it stays interrupted, never "Running"
    assertEquals("Interrupted (its process stopped answering; resume it)", fx.text("run-state"));
    assertTrue(!fx.node("backfill-resume-run", javafx.scene.control.Button.class).isDisabled(),
        "an interrupted run resumes from its ledger");
  }

  @Test
  void closingTheWindowWhileThisConsoleDrivesARunAsksThenCancelsItSoItCanBeResumed(FxRobot robot) throws Exception {
    Engine other = new Engine(TestEngine.session().database());
    TableSpec spec = other.specs().load(disk.specFile());
    Plan plan = other.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        other.plans().defaults(spec).withConcurrency(1).withBatchHours(1).withRowsPerSecond(20));
    RunHandle first = dev.cutover.engine.testing.Procedure.start(other, plan);
    first.cancel();
    first.await();
    ScriptedDialogs dialogs = new ScriptedDialogs();
    open(robot, dialogs);
    fx.waitFor(15, () -> fx.text("run-state").equals("Cancelled"), () -> fx.text("run-state"));
    Spinner<Integer> rows = fx.node("throttle-rows", Spinner.class);
    fx.interact(() -> rows.getValueFactory().setValue(20));
    fx.click("backfill-resume-run");
    fx.waitFor(30, () -> console.backfill().drivenProperty().get() != null, () -> console.backfill().activity().error());

    dialogs.confirm = false;
    assertTrue(!fx.onFx(() -> console.backfillController().mayClose()), "the operator kept the window open");
    dialogs.confirm = true;
    assertTrue(fx.onFx(() -> console.backfillController().mayClose()));
    assertEquals("close " + first.id(), dialogs.asked.getLast());
    fx.onFx(() -> {
      console.stop();
      return null;
    });
    console = null;

    var record = other.backfills().run(first.id()).orElseThrow();
    assertEquals(RunState.CANCELLED, record.state(), record.message());
    assertTrue(record.message().endsWith("resume to continue"), record.message());
  }

  private void open(FxRobot robot, ScriptedDialogs dialogs) {
    ConsoleWindow window = ConsoleWindow.open(robot, disk.specFile(), dialogs);
    console = window.console();
    fx = window.fx();
    fx.click("nav-backfill");
  }


  private long count(String legend) {
    String text = fx.text(legend);
    return Long.parseLong(text.substring(text.lastIndexOf(' ') + 1).replace(",", ""));
  }
}
