package dev.cutover.ui.backfill;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.ui.Workspace;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * The run this console drives: its events, which come on the run's threads, shown on the FX thread
 * in batches; pause, resume, cancel and the throttle, each a request to the run; and, when it ends,
 * the screen and the repair read again.
 */
final class RunControls {

  private final BackfillModel model;
  private final Workspace workspace;
  private final RunReading reading;
  private final Queue<BackfillEvent> events = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean drainScheduled = new AtomicBoolean();
  private final BackfillEvent.Listener listener = this::received;

  RunControls(BackfillModel model, RunReading reading) {
    this.model = model;
    this.workspace = model.workspace();
    this.reading = reading;
  }

  /** Where the events of a run this console starts go. */
  BackfillEvent.Listener listener() {
    return listener;
  }

  /** Shows {@code run} as the one this console drives, until it ends. */
  void drive(RunHandle run) {
    model.driven().set(run);
    model.pausedProperty().set(false);
    model.selectedRunProperty().set(null);
    reading.forget();
    model.progress().started(run.record());
    workspace.repair().refresh();
    run.completion().whenComplete((record, failure) -> workspace.executor().onFxThread(() -> {
      drain();
      if (model.drivenProperty().get() == run) {
        model.driven().set(null);
        model.pausedProperty().set(false);
      }
      reading.forget();
      reading.refresh();
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
    // While one shard's part is shown alone, the screen reads that part's feed; the run's merged events wait.
    boolean merged = model.shownShardProperty().get() == null;
    for (BackfillEvent e; (e = events.poll()) != null; ) {
      if (merged) {
        model.progress().apply(e);
      }
    }
    model.progress().hours().changed();
  }

  void pause() {
    RunHandle run = model.drivenProperty().get();
    if (run != null) {
      model.activity().run("pause run " + run.id(), p -> {
        run.pause();
        return true;
      }, ok -> model.pausedProperty().set(true));
    }
  }

  void resume() {
    RunHandle run = model.drivenProperty().get();
    if (run != null) {
      model.activity().run("resume run " + run.id(), p -> {
        run.resume();
        return true;
      }, ok -> model.pausedProperty().set(false));
    }
  }

  /** Ends the run after its batches under way, once the operator confirmed. */
  void cancel() {
    RunHandle run = model.drivenProperty().get();
    RunProgress progress = model.progress();
    if (run != null && workspace.dialogs().confirmCancelRun(run.id(), progress.doneProperty().get(),
        progress.totalProperty().get())) {
      run.cancel();
      progress.waitingProperty().set("Cancelling: the batches under way finish first.");
    }
  }

  /** Whether the window may close: asks first when this console drives a run, which closing cancels. */
  boolean mayClose() {
    RunHandle run = model.drivenProperty().get();
    return run == null || workspace.dialogs().confirmCloseWhileRunning(run.id(), model.progress().doneProperty().get(),
        model.progress().totalProperty().get());
  }

  /**
   * Applies the concurrency, the rows-per-second limit and the rest after each batch to the running
   * run, from its next batch on.
   */
  void applyThrottle() {
    RunHandle run = model.drivenProperty().get();
    UnaryOperator<BackfillSettings> throttle = model.screenThrottle();
    // On a cluster each shard's part takes the throttle within its share of the cluster's totals: said per shard.
    boolean sharded = workspace.spec() != null && workspace.spec().cluster().isPresent();
    if (run != null) {
      model.activity().run("change the throttle of run " + run.id(), p -> {
        BackfillSettings now = run.settings();
        BackfillSettings wanted = throttle.apply(now);
        if (wanted.concurrency() != now.concurrency()) {
          run.setConcurrency(wanted.concurrency());
        }
        if (wanted.rowsPerSecond() != now.rowsPerSecond()) {
          run.setRowsPerSecond(wanted.rowsPerSecond());
        }
        if (wanted.restPercent() != now.restPercent()) {
          run.setRestPercent(wanted.restPercent());
        }
        return run.settings();
      }, s -> model.progress().waitingProperty().set((sharded ? "Throttle applied on each shard, within its share of "
          + "the cluster's totals: " : "Throttle applied: ") + settingsText(s) + "."));
    }
  }

  static String settingsText(BackfillSettings s) {
    return s.concurrency() + " batch(es) of " + s.batchHours() + " h at once"
        + (s.rowsPerSecond() > 0 ? ", at most " + s.rowsPerSecond() + " rows/s" : ", no rows/s limit")
        + (s.maxLiveLag().isZero() ? "" : ", waits while the live writer lags more than " + s.maxLiveLag().toMinutes()
            + " min")
        + (s.restPercent() > 0 ? ", rests " + s.restPercent() + "% of each batch's time after it" : "");
  }
}
