package dev.cutover.ui.backfill;

import dev.cutover.engine.ClearedPlan;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService.BackfillRequest;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The backfill screen: starts, throttles, pauses, resumes and cancels the run this console drives,
 * follows a run another process drives by reading its record and ledger every two seconds, resumes a
 * stopped run, and watches the corrected live writer take over from the boundary.
 */
public final class BackfillModel implements ScreenController {

  static final Duration POLL = Duration.ofSeconds(2);

  private final Workspace workspace;
  private final Activity activity;
  private final Activity writer;
  private final DemoLive demoLive;
  private final RunProgress progress = new RunProgress();
  private final ObservableList<RunRecord> runs = FXCollections.observableArrayList();
  private final ObjectProperty<String> selectedRun = new SimpleObjectProperty<>();
  private final ObjectProperty<RunHandle> driven = new SimpleObjectProperty<>();
  private final BooleanProperty paused = new SimpleBooleanProperty();
  private final IntegerProperty concurrency = new SimpleIntegerProperty(2);
  private final LongProperty rowsLimit = new SimpleLongProperty(0);
  private final ObjectProperty<LiveStatus> live = new SimpleObjectProperty<>();
  private final StringProperty pollError = new SimpleStringProperty("");
  private final Queue<BackfillEvent> events = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean drainScheduled = new AtomicBoolean();
  private final BackfillEvent.Listener listener = this::received;
  private final BooleanProperty reading = new SimpleBooleanProperty();
  private TaskExecutor.Handle poll;
  private long generation;
  private RunRecord lastRead;

  public BackfillModel(Workspace workspace) {
    workspace.drivingProperty().bind(driven.isNotNull());
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
    this.writer = new Activity(workspace.executor());
    this.demoLive = new DemoLive(workspace);
    workspace.specProperty().addListener((o, was, is) -> {
      runs.clear();
      selectedRun.set(null);
      lastRead = null;
      progress.clear();
    });
    workspace.planProperty().addListener((o, was, is) -> {
      if (is != null) {
        concurrency.set(is.settings().concurrency());
        rowsLimit.set(is.settings().rowsPerSecond());
      }
    });
    selectedRun.addListener((o, was, is) -> {
      lastRead = null;
      refresh();
    });
  }

  @Override
  public void shown() {
    refresh();
    // While the server does not answer there is nothing to read: the screen is greyed and says why.
    poll = workspace.executor().every(POLL, () -> {
      if (!workspace.lost().get()) {
        refresh();
      }
    });
  }

  /**
   * Reads the runs, the live status and the ledger again after a reconnect, whatever read was under
   * way: that one went to the server as it was, and its answer is dropped.
   */
  @Override
  public void reread() {
    generation++;
    reading.set(false);
    lastRead = null;
    refresh();
  }

  @Override
  public javafx.beans.value.ObservableBooleanValue reading() {
    return reading;
  }

  @Override
  public void hidden() {
    if (poll != null) {
      poll.cancel();
      poll = null;
    }
  }

  /** Reads the runs, the live status, and the ledger of the shown run unless this console drives it. */
  public void refresh() {
    demoLive.refresh();
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (reading.get() || spec == null || engine == null) {
      return;
    }
    reading.set(true);
    long read = generation;
    String wanted = selectedRun.get();
    RunHandle mine = driven.get();
    RunRecord previous = lastRead;
    workspace.executor().submit(p -> {
      List<RunRecord> all = engine.backfills().runs(spec);
      LiveStatus status = engine.plans().live(spec);
      Optional<RunRecord> shown = all.stream().filter(r -> r.id().equals(wanted)).findFirst()
          .or(() -> wanted == null ? all.stream().findFirst() : Optional.empty());
      Map<HourPartition, LedgerEntry> ledger = null;
      if (shown.isPresent() && (mine == null || !mine.id().equals(shown.get().id())) && needsLedger(previous, shown.get())) {
        ledger = engine.backfills().ledger(shown.get().id());
      }
      boolean interrupted = shown.map(r -> r.interrupted(Instant.now(), StateStore.STALE_AFTER)).orElse(false);
      return new Snapshot(all, status, shown, ledger, interrupted);
    }, (message, fraction) -> {}, s -> {
      if (read == generation) {
        apply(s);
      }
    }, failure -> {
      if (read == generation) {
        reading.set(false);
        pollError.set(Errors.sentence(failure, "read the runs and the ledger"));
      }
    });
  }

  /** A finished run's ledger no longer changes: read it once. */
  private static boolean needsLedger(RunRecord previous, RunRecord now) {
    return previous == null || !previous.id().equals(now.id()) || previous.state() != now.state() || now.state().active();
  }

  private record Snapshot(List<RunRecord> runs, LiveStatus live, Optional<RunRecord> shown,
      Map<HourPartition, LedgerEntry> ledger, boolean interrupted) {}

  private void apply(Snapshot s) {
    reading.set(false);
    pollError.set("");
    // A run that started, stopped or ended (here or elsewhere) may have moved the repair.
    if (s.shown().isPresent() && lastRead != null && lastRead.id().equals(s.shown().get().id())
        && lastRead.state() != s.shown().get().state()) {
      workspace.repair().refresh();
    }
    runs.setAll(s.runs());
    live.set(s.live());
    RunHandle mine = driven.get();
    if (mine == null) {
      progress.liveLagProperty().set(s.live().lag());
    }
    if (s.shown().isPresent() && s.ledger() != null) {
      lastRead = s.shown().get();
      progress.show(s.shown().get(), s.ledger(), liveEnd(s.live(), s.shown().get().boundary()), Instant.now(),
          s.interrupted());
    } else if (s.shown().isEmpty() && mine == null) {
      Plan plan = workspace.plan();
      progress.clear();
      if (plan != null) {
        progress.layout(plan.range().from(), plan.range().to(), plan.boundary(), liveEnd(s.live(), plan.boundary()));
        progress.hours().changed();
        progress.totalProperty().set(plan.hours().size());
      }
    }
  }

  private static HourPartition liveEnd(LiveStatus live, HourPartition boundary) {
    return live.liveEdge().map(e -> e.plusHours(1)).orElse(boundary);
  }

  /** Starts a backfill of the current plan, once its preflight passed and the operator confirmed. */
  public void start() {
    Preflighted checked = workspace.preflightProperty().get();
    Engine engine = workspace.engine();
    if (workspace.plan() == null) {
      activity.fail("There is no plan yet; make one on the Plan screen first.");
      return;
    }
    if (checked == null || checked.cleared().isEmpty()) {
      activity.fail(checked == null ? "Run the preflight on the Plan screen first; the backfill starts only when no "
          + "check failed." : "The preflight found " + checked.report().failures().size() + " failed check(s); fix "
          + "them on the Plan screen and run it again.");
      return;
    }
    ClearedPlan cleared = checked.cleared().get();
    Plan plan = cleared.plan();
    String target = plan.spec().database() + "." + plan.spec().targetTable();
    if (!workspace.dialogs().confirmBackfill(new BackfillRequest(target, plan.range(), plan.boundary(),
        plan.hours().size(), settingsText(plan.settings())))) {
      return;
    }
    progress.clear();
    progress.layout(plan.range().from(), plan.range().to(), plan.boundary(), plan.liveEdge().plusHours(1));
    progress.hours().changed();
    int c = concurrency.get();
    long r = rowsLimit.get();
    activity.run("start the backfill", p -> engine.backfills().start(cleared, listener), run -> {
      drive(run);
      if (c != plan.settings().concurrency() || r != plan.settings().rowsPerSecond()) {
        applyThrottle();
      }
    }, failure -> workspace.repair().refresh());
  }

  static String settingsText(BackfillSettings s) {
    return s.concurrency() + " batch(es) of " + s.batchHours() + " h at once"
        + (s.rowsPerSecond() > 0 ? ", at most " + s.rowsPerSecond() + " rows/s" : ", no rows/s limit")
        + (s.maxLiveLag().isZero() ? "" : ", waits while the live writer lags more than " + s.maxLiveLag().toMinutes()
            + " min");
  }

  /**
   * Continues a run that failed, was cancelled or was interrupted, from its ledger, through the same
   * door as a new run: its plan (the run's range and boundary, its throttle with the concurrency and
   * rows/s set here) passes the preflight first, with the dependents acknowledged on the Plan screen.
   */
  public void resumeRun() {
    RunRecord stopped = progress.recordProperty().get();
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    if (stopped == null) {
      activity.fail("There is no run to resume.");
      return;
    }
    int c = concurrency.get();
    long r = rowsLimit.get();
    List<String> acks = acknowledgedDependents();
    activity.run("check and resume run " + stopped.id(), p -> {
      Plan plan = engine.plans().planResume(spec, stopped.id(), s -> s.withConcurrency(c).withRowsPerSecond(r));
      Preflighted checked = engine.plans().preflight(plan, acks, p);
      if (checked.cleared().isEmpty()) {
        throw new StepRefusedException("resume", "The preflight of the resumed run failed: " + checked.report()
            .failures().stream().map(f -> f.name() + " (" + f.finding() + ")").collect(Collectors.joining("; "))
            + ". Fix that, or acknowledge the dependents on the Plan screen, and resume again.");
      }
      Map<HourPartition, LedgerEntry> ledger = engine.backfills().ledger(stopped.id());
      LiveStatus status = engine.plans().live(spec);
      RunHandle run = engine.backfills().start(checked.cleared().get(), listener);
      return new Resumed(run, ledger, status);
    }, resumed -> {
      progress.show(resumed.run().record(), resumed.ledger(), liveEnd(resumed.live(), stopped.boundary()), Instant.now(),
          false);
      drive(resumed.run());
    });
  }

  /** The dependents acknowledged in the last preflight of this console. */
  private List<String> acknowledgedDependents() {
    Preflighted last = workspace.preflightProperty().get();
    return last == null ? List.of() : last.report().dependents().stream().filter(d -> d.acknowledged())
        .map(d -> d.name()).toList();
  }

  private record Resumed(RunHandle run, Map<HourPartition, LedgerEntry> ledger, LiveStatus live) {}

  private void drive(RunHandle run) {
    driven.set(run);
    paused.set(false);
    selectedRun.set(null);
    lastRead = null;
    progress.started(run.record());
    workspace.repair().refresh();
    run.completion().whenComplete((record, failure) -> workspace.executor().onFxThread(() -> {
      drain();
      if (driven.get() == run) {
        driven.set(null);
        paused.set(false);
      }
      lastRead = null;
      refresh();
      workspace.repair().refresh();
    }));
  }

  private void received(BackfillEvent event) {
    events.add(event);
    if (drainScheduled.compareAndSet(false, true)) {
      workspace.executor().onFxThread(this::drain);
    }
  }

  private void drain() {
    drainScheduled.set(false);
    for (BackfillEvent e; (e = events.poll()) != null; ) {
      progress.apply(e);
    }
    progress.hours().changed();
  }

  public void pause() {
    RunHandle run = driven.get();
    if (run != null) {
      activity.run("pause run " + run.id(), p -> {
        run.pause();
        return true;
      }, ok -> paused.set(true));
    }
  }

  public void resume() {
    RunHandle run = driven.get();
    if (run != null) {
      activity.run("resume run " + run.id(), p -> {
        run.resume();
        return true;
      }, ok -> paused.set(false));
    }
  }

  /** Ends the run after its batches under way, once the operator confirmed. */
  public void cancel() {
    RunHandle run = driven.get();
    if (run != null && workspace.dialogs().confirmCancelRun(run.id(), progress.doneProperty().get(),
        progress.totalProperty().get())) {
      run.cancel();
      progress.waitingProperty().set("Cancelling: the batches under way finish first.");
    }
  }

  /** Whether the window may close: asks first when this console drives a run, which closing cancels. */
  public boolean mayClose() {
    RunHandle run = driven.get();
    return run == null || workspace.dialogs().confirmCloseWhileRunning(run.id(), progress.doneProperty().get(),
        progress.totalProperty().get());
  }

  /** Applies the concurrency and rows-per-second limit to the running run, from its next batch on. */
  public void applyThrottle() {
    RunHandle run = driven.get();
    int c = concurrency.get();
    long r = rowsLimit.get();
    if (run != null) {
      activity.run("change the throttle of run " + run.id(), p -> {
        if (run.settings().concurrency() != c) {
          run.setConcurrency(c);
        }
        if (run.settings().rowsPerSecond() != r) {
          run.setRowsPerSecond(r);
        }
        return run.settings();
      }, s -> progress.waitingProperty().set("Throttle applied: " + settingsText(s) + "."));
    }
  }

  /** Starts the corrected live writer from the boundary, on the demo world, once the operator confirmed. */
  public void deployLiveWriter() {
    Optional<HourPartition> from = boundary();
    if (workspace.demo().isEmpty() || from.isEmpty()) {
      writer.fail("There is no boundary yet: plan and run the backfill first.");
      return;
    }
    var demo = workspace.demo().get();
    if (workspace.dialogs().confirmDeployLiveWriter(from.get(), demo.describe())) {
      writer.run("deploy the corrected live writer from " + from.get(), p -> {
        demo.deployV2(from.get());
        return true;
      }, ok -> {
        refresh();
        workspace.repair().refresh();
      });
    }
  }

  /** The boundary from which the live writer owns v2: the shown run's, or the plan's. */
  public Optional<HourPartition> boundary() {
    RunRecord r = progress.recordProperty().get();
    if (r != null) {
      return Optional.of(r.boundary());
    }
    return Optional.ofNullable(workspace.plan()).map(Plan::boundary);
  }

  public RunProgress progress() {
    return progress;
  }

  public Activity activity() {
    return activity;
  }

  public Activity writer() {
    return writer;
  }

  /** The demo's live job, on the demo world: started and stopped only by its button. */
  public DemoLive demoLive() {
    return demoLive;
  }

  public ObservableList<RunRecord> runs() {
    return runs;
  }

  public ObjectProperty<String> selectedRunProperty() {
    return selectedRun;
  }

  public ReadOnlyObjectProperty<RunHandle> drivenProperty() {
    return driven;
  }

  public BooleanProperty pausedProperty() {
    return paused;
  }

  public IntegerProperty concurrencyProperty() {
    return concurrency;
  }

  public LongProperty rowsLimitProperty() {
    return rowsLimit;
  }

  public ReadOnlyObjectProperty<LiveStatus> liveProperty() {
    return live;
  }

  public StringProperty pollErrorProperty() {
    return pollError;
  }

  public Workspace workspace() {
    return workspace;
  }
}
