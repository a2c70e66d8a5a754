package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent.Listener;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.LiveRuns;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TargetTables;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Phaser;
import java.util.function.Consumer;

/**
 * One backfill run in progress: dispatches batches of hours to virtual threads, at most {@code
 * concurrency} at once, records every hour in the ledger, and can be paused, resumed, re-throttled
 * or cancelled while it runs. Hours already complete in the ledger are skipped, so a resumed run
 * continues where the last one stopped.
 *
 * <p>Its parts: {@link RunLifecycle} (where it stands), {@link StateRecorder} (the record of that),
 * {@link Throttle} and {@link Pacing} (how fast it may go), {@link BatchRetry} with {@link
 * ServerOutage} (what a failure costs), {@link StagingPool}, {@link RunProgress} and {@link
 * Heartbeat}.
 */
public final class BackfillRun implements RunHandle {

  private final Sql sql;
  private final StateStore store;
  private final TableSpec spec;
  private final List<HourPartition> hours;
  private final HourPartition boundary;
  private final Optional<HourRange> affected;
  private final Listener listener;
  private final Consumer<RunRecord> onEnd;
  private final RunLifecycle lifecycle = new RunLifecycle();
  private final StateRecorder recorder;
  private final Throttle throttle;
  private final LiveLag liveLag;
  private final Pacing pacing;
  private final BatchRetry retry;
  private final StagingPool staging;
  private final RunProgress progress;
  private final CompletableFuture<RunRecord> result = new CompletableFuture<>();

  BackfillRun(Sql sql, StateStore store, TableSpec spec, List<HourPartition> hours, HourPartition boundary,
      Optional<HourRange> affected, RunRecord run, BackfillSettings settings, Listener listener,
      Consumer<RunRecord> onEnd) {
    this.sql = sql;
    this.store = store;
    this.spec = spec;
    this.hours = List.copyOf(hours);
    this.boundary = boundary;
    this.affected = affected;
    this.listener = listener;
    this.onEnd = onEnd;
    this.recorder = new StateRecorder(store, listener, run);
    this.throttle = new Throttle(settings);
    this.liveLag = new LiveLag(sql, spec);
    DiskHeadroom disk = new DiskHeadroom(sql, spec, DiskHeadroom.batchBytes(sql, spec, run.range(),
        settings.batchHours()), recorder, lifecycle::paused);
    this.retry = new BatchRetry(new ServerOutage(sql), disk, throttle::settings, lifecycle::cancelled);
    this.staging = new StagingPool(new TargetTables(sql, spec), run.id());
    this.progress = new RunProgress(run.id(), this.hours.size(), listener);
    this.pacing = new Pacing(lifecycle, retry, throttle, progress, liveLag, new LiveWrites(sql, spec), disk,
        this::report);
  }

  void start() {
    progress.started(Instant.now());
    LiveRuns.started(id());
    Thread.ofPlatform().name("backfill-" + id()).daemon().start(this::dispatch);
    new Heartbeat(store, recorder::record, result::isDone).start();
  }

  public String id() {
    return recorder.id();
  }

  public RunRecord record() {
    return recorder.record();
  }

  /** Waits for the run to end and returns its final record. */
  public RunRecord await() throws InterruptedException {
    try {
      return result.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  public CompletableFuture<RunRecord> completion() {
    return result;
  }

  /** Stops starting new batches; batches under way finish. */
  public void pause() {
    if (lifecycle.pause()) {
      recorder.change(RunState.PAUSED, "paused by " + Operator.user());
    }
  }

  public void resume() {
    if (lifecycle.resume()) {
      recorder.change(RunState.RUNNING, "resumed by " + Operator.user());
    }
  }

  /** Ends the run after the batches under way; every hour already replaced stays replaced and recorded. */
  public void cancel() {
    lifecycle.cancel();
  }

  public boolean paused() {
    return lifecycle.paused();
  }

  /** Changes how many batches run at once, from the next batch on. */
  public void setConcurrency(int concurrency) {
    throttle.concurrency(concurrency);
    recorder.parameters(RunParameters.encode(throttle.settings(), affected));
    recorder.audit("throttle", "concurrency set to " + concurrency);
  }

  public void setRowsPerSecond(long limit) {
    throttle.rowsPerSecond(limit);
    recorder.parameters(RunParameters.encode(throttle.settings(), affected));
    recorder.audit("throttle", "rows per second limit set to " + (limit == 0 ? "none" : limit));
  }

  public void setRestPercent(int percent) {
    throttle.restPercent(percent);
    recorder.parameters(RunParameters.encode(throttle.settings(), affected));
    recorder.audit("throttle", "rest after each batch set to " + (percent == 0 ? "none" : percent + "% of its time"));
  }

  public BackfillSettings settings() {
    return throttle.settings();
  }

  private void dispatch() {
    try {
      if (new BoundaryClock(spec, boundary, liveLag::read).await(lifecycle::stopping, this::report)) {
        writeAll();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      lifecycle.fail("the run was interrupted");
    } catch (RuntimeException e) {
      lifecycle.fail(e.getMessage());
    }
    finish();
  }

  private void writeAll() throws InterruptedException {
    List<HourPartition> pending = notDone(hours);
    progress.alreadyDone(hours.size() - pending.size());
    TargetTables tables = new TargetTables(sql, spec);
    List<Identifier> columns = tables.insertableColumns(spec.targetTable());
    BatchWriter writer = new BatchWriter(sql, spec, columns, throttle.settings(), boundary, id());
    BatchTask.Context context = new BatchTask.Context(id(), store, writer, new Carrier(sql, spec, columns, boundary),
        staging, retry, progress, listener, this::report, lifecycle::fail, writer.neverHeld(tables));
    if (pending.stream().anyMatch(h -> !computes(h))) {
      tables.cannotCarry().ifPresent(why -> {
        throw new InvalidInputException("affected", why);
      });
    }
    // A bounded repair's carried hours go beside its computed batches, not before or after them (CarryLane).
    CarryLane carry = new CarryLane(pending.stream().filter(h -> !computes(h)).toList(), Carrier.textPerHour(spec),
        pacing, context);
    carry.start();
    try {
      writeComputed(pending.stream().filter(this::computes).toList(), context);
    } finally {
      carry.await();
    }
  }

  /** Dispatches the batches of {@code recomputed} hours, at most the throttle's concurrency at once; waits for them. */
  private void writeComputed(List<HourPartition> recomputed, BatchTask.Context context) throws InterruptedException {
    Phaser inFlight = new Phaser(1);
    List<List<HourPartition>> batches = Batches.of(recomputed, throttle.settings().batchHours());
    for (int next = 0; next < batches.size(); ) {
      // The place first, then the pace: a batch that ends while the dispatcher waits for its place has counted its
      // rows by the time the rows ceiling is read.
      throttle.acquire();
      if (!pacing.awaitTurn() || lifecycle.stopping()) {
        throttle.release();
        break;
      }
      // Unthrottled, batches the target never held are written a few to a task: their INSERTs as they are, then
      // one checksum and one ledger statement for all of them. A throttle that rests, paces or watches the live
      // writer keeps one batch to a task, so that what it measures and waits for is a batch. Decided once the task
      // may start, so that a throttle set while the dispatcher waited (a pause, then a rest) applies to it.
      boolean freesPlace = throttle.freesPlaceOnceComputed();
      int together = freesPlace ? Batches.together(batches, next, context.neverHeld()) : 1;
      List<HourPartition> batch = batches.subList(next, next + together).stream().flatMap(List::stream).toList();
      next += together;
      inFlight.register();
      Thread.ofVirtual().name("batch-" + batch.getFirst()).start(() -> {
        java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable release = () -> {
          if (released.compareAndSet(false, true)) {
            throttle.release();
          }
        };
        Runnable computed = freesPlace ? release : () -> { };
        long started = System.nanoTime();
        try {
          new BatchTask(context, batch, false, computed).write();
          pacing.rest(Duration.ofNanos(System.nanoTime() - started));
        } finally {
          release.run();
          inFlight.arriveAndDeregister();
        }
      });
    }
    inFlight.arriveAndAwaitAdvance();
  }

  /** Those of {@code of} that this run's ledger does not hold as done. */
  private List<HourPartition> notDone(List<HourPartition> of) {
    var done = store.hours().ledger(id());
    return of.stream().filter(h -> {
      LedgerEntry e = done.get(h);
      return e == null || !e.complete();
    }).toList();
  }

  /** Whether the run recomputes {@code hour}; otherwise it carries it from v1. */
  private boolean computes(HourPartition hour) {
    return affected.map(a -> a.contains(hour)).orElse(true);
  }

  private void finish() {
    RunState end;
    String message;
    if (lifecycle.failure() != null) {
      end = RunState.FAILED;
      message = lifecycle.failure();
    } else if (progress.anyFailed()) {
      end = RunState.FAILED;
      message = progress.failedSentence();
    } else if (lifecycle.cancelled() && progress.hoursDone() < hours.size()) {
      end = RunState.CANCELLED;
      message = "cancelled after " + Figures.count(progress.hoursDone()) + " of " + Figures.count(hours.size())
          + " hours; resume to continue";
    } else {
      end = RunState.SUCCEEDED;
      long carried = hours.stream().filter(h -> !computes(h)).count();
      message = Figures.count(hours.size()) + " hours written before the boundary " + boundary + (carried == 0 ? ""
          : " (" + Figures.count(hours.size() - carried) + " recomputed, " + Figures.count(carried) + " carried from "
          + spec.liveTable() + ")") + ", " + Figures.count(progress.rowsWritten()) + " rows in this session";
    }
    lifecycle.end();
    if (retry.serverGone()) {
      endWithoutServer(end, message);
      return;
    }
    try {
      recorder.end(end, message);
    } catch (RuntimeException e) {
      // The server may be gone, or another writer moved the run: the store's record stands.
      recorder.reread();
    }
    try {
      new TargetTables(sql, spec).dropStaging(id());
    } catch (RuntimeException e) {
      // The server may be gone; the run stays resumable from its ledger, and a cleanup drops the tables.
    }
    // The run lets go of its repair: backfilled when every hour below B is in the ledger.
    onEnd.accept(record());
    report("");
    LiveRuns.ended(id());
    result.complete(record());
  }

  /**
   * The end of a run that gave up on its server: nothing is written there (a stopped server would hold
   * each write for the whole silence bound, and a write it carried out late could undo a resume's hold
   * on the repair). The run's record reads as interrupted once this process lets go of it, and its
   * staging tables wait for the resume or a cleanup.
   */
  private void endWithoutServer(RunState end, String message) {
    recorder.endUnrecorded(end, message);
    report("");
    LiveRuns.ended(id());
    result.complete(record());
  }

  private void report(String waiting) {
    RunState state = result.isDone() ? record().state() : lifecycle.paused() ? RunState.PAUSED : RunState.RUNNING;
    progress.report(state, liveLag.last(), waiting);
  }
}
