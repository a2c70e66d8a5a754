package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillEvent.Listener;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.LiveRuns;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One backfill run in progress: dispatches batches of hours to virtual threads, at most {@code
 * concurrency} at once, records every hour in the ledger, and can be paused, resumed, re-throttled
 * or cancelled while it runs. Hours already complete in the ledger are skipped, so a resumed run
 * continues where the last one stopped.
 */
public final class BackfillRun implements RunHandle {

  private static final Duration HEARTBEAT = Duration.ofSeconds(10);
  private static final Duration LAG_POLL = Duration.ofSeconds(5);

  private final Sql sql;
  private final StateStore store;
  private final TableSpec spec;
  private final List<HourPartition> hours;
  private final HourPartition boundary;
  private final Optional<HourRange> affected;
  private final Listener listener;
  private final java.util.function.Consumer<RunRecord> onEnd;
  private final AtomicReference<RunRecord> run;
  private final AtomicReference<BackfillSettings> settings;
  private final Batches.Permits permits;
  private final Object pauseLock = new Object();
  private volatile boolean paused;
  private volatile boolean cancelled;
  private final AtomicReference<String> fatal = new AtomicReference<>();
  private final AtomicLong hoursDone = new AtomicLong();
  private final AtomicLong rowsWritten = new AtomicLong();
  private final Set<HourPartition> failedHours = new ConcurrentSkipListSet<>();
  private final Queue<Identifier> stagingPool = new ConcurrentLinkedQueue<>();
  private final AtomicInteger stagingSlots = new AtomicInteger();
  private final CompletableFuture<RunRecord> result = new CompletableFuture<>();
  private final ServerOutage outage;
  private volatile Duration liveLag = Duration.ZERO;
  private volatile Instant lagReadAt = Instant.EPOCH;
  private volatile Instant started;
  private long hoursAlreadyDone;

  BackfillRun(Sql sql, StateStore store, TableSpec spec, List<HourPartition> hours, HourPartition boundary,
      Optional<HourRange> affected, RunRecord run, BackfillSettings settings, Listener listener,
      java.util.function.Consumer<RunRecord> onEnd) {
    this.sql = sql;
    this.store = store;
    this.spec = spec;
    this.hours = List.copyOf(hours);
    this.boundary = boundary;
    this.affected = affected;
    this.run = new AtomicReference<>(run);
    this.settings = new AtomicReference<>(settings);
    this.listener = listener;
    this.onEnd = onEnd;
    this.permits = new Batches.Permits(settings.concurrency());
    this.outage = new ServerOutage(sql);
  }

  void start() {
    started = Instant.now();
    LiveRuns.started(id());
    Thread.ofPlatform().name("backfill-" + run.get().id()).daemon().start(this::dispatch);
    Thread.ofVirtual().name("heartbeat-" + run.get().id()).start(this::heartbeat);
  }

  public String id() {
    return run.get().id();
  }

  public RunRecord record() {
    return run.get();
  }

  /** Waits for the run to end and returns its final record. */
  public RunRecord await() throws InterruptedException {
    try {
      return result.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  public CompletableFuture<RunRecord> completion() {
    return result;
  }

  /** Stops starting new batches; batches under way finish. */
  public void pause() {
    if (!paused && !result.isDone()) {
      paused = true;
      changeState(RunState.PAUSED, "paused by " + dev.cutover.engine.ledger.Operator.user());
    }
  }

  public void resume() {
    if (paused) {
      changeState(RunState.RUNNING, "resumed by " + dev.cutover.engine.ledger.Operator.user());
      synchronized (pauseLock) {
        paused = false;
        pauseLock.notifyAll();
      }
    }
  }

  /** Ends the run after the batches under way; every hour already replaced stays replaced and recorded. */
  public void cancel() {
    cancelled = true;
    synchronized (pauseLock) {
      pauseLock.notifyAll();
    }
  }

  public boolean paused() {
    return paused;
  }

  /** Changes how many batches run at once, from the next batch on. */
  public void setConcurrency(int concurrency) {
    BackfillSettings next = settings.get().withConcurrency(concurrency);
    settings.set(next);
    permits.resize(concurrency);
    saveSettings();
    store.audit(id(), "throttle", "concurrency set to " + concurrency);
  }

  public void setRowsPerSecond(long limit) {
    settings.set(settings.get().withRowsPerSecond(limit));
    saveSettings();
    store.audit(id(), "throttle", "rows per second limit set to " + (limit == 0 ? "none" : limit));
  }

  /** The run's record keeps its throttle as it is now: a resume goes on with it. */
  private void saveSettings() {
    try {
      String parameters = RunParameters.encode(settings.get(), affected);
      store.saveRun(run.updateAndGet(r -> r.withParameters(parameters, Instant.now())));
    } catch (QueryFailedException e) {
      // The throttle applies here at once; only the record of it waits for the server.
    }
  }

  public BackfillSettings settings() {
    return settings.get();
  }

  private void dispatch() {
    try {
      var done = store.ledger(id());
      List<HourPartition> pending = hours.stream().filter(h -> {
        LedgerEntry e = done.get(h);
        return e == null || !e.complete();
      }).toList();
      hoursAlreadyDone = hours.size() - pending.size();
      hoursDone.set(hoursAlreadyDone);
      List<Identifier> columns = new TargetTables(sql, spec).insertableColumns(spec.targetTable());
      BatchWriter writer = new BatchWriter(sql, spec, columns, settings.get(), boundary);
      Carrier carrier = new Carrier(sql, spec, columns, boundary);
      List<HourPartition> toCarry = pending.stream().filter(h -> !computes(h)).toList();
      if (!toCarry.isEmpty()) {
        new TargetTables(sql, spec).cannotCarry().ifPresent(why -> {
          throw new dev.cutover.engine.api.InvalidInputException("affected", why);
        });
      }
      // Computed hours first, carried ones last: the carry is taken as late as the run allows.
      List<List<HourPartition>> batches = new ArrayList<>(Batches.of(pending.stream().filter(this::computes).toList(),
          settings.get().batchHours()));
      batches.addAll(Batches.of(toCarry, settings.get().batchHours()));
      Phaser inFlight = new Phaser(1);
      for (List<HourPartition> batch : batches) {
        if (!awaitTurn()) {
          break;
        }
        permits.acquire();
        if (cancelled || fatal.get() != null) {
          permits.release();
          break;
        }
        inFlight.register();
        BatchWriter batchWriter = writer;
        Thread.ofVirtual().name("batch-" + batch.getFirst()).start(() -> {
          try {
            writeBatch(batchWriter, carrier, batch);
          } finally {
            permits.release();
            inFlight.arriveAndDeregister();
          }
        });
      }
      inFlight.arriveAndAwaitAdvance();
      finish();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fatal.compareAndSet(null, "the run was interrupted");
      finish();
    } catch (RuntimeException e) {
      fatal.compareAndSet(null, e.getMessage());
      finish();
    }
  }

  /**
   * Waits while paused, while the server gives no answer, throttled by rows per second, or held back
   * by the live writer's lag.
   */
  private boolean awaitTurn() throws InterruptedException {
    while (true) {
      if (cancelled || fatal.get() != null) {
        return false;
      }
      if (outage.ongoing()) {
        Thread.sleep(200);
        continue;
      }
      if (paused) {
        synchronized (pauseLock) {
          while (paused && !cancelled) {
            pauseLock.wait(1000);
          }
        }
        continue;
      }
      BackfillSettings s = settings.get();
      if (s.rowsPerSecond() > 0) {
        double elapsed = Math.max(0.001, Duration.between(started, Instant.now()).toMillis() / 1000.0);
        double allowedAfter = rowsWritten.get() / (double) s.rowsPerSecond();
        if (allowedAfter > elapsed) {
          Thread.sleep(Math.min(1000, (long) ((allowedAfter - elapsed) * 1000) + 1));
          continue;
        }
      }
      if (!s.maxLiveLag().isZero()) {
        Duration lag = currentLag();
        if (lag.compareTo(s.maxLiveLag()) > 0) {
          progress("the live writer lags " + minutes(lag) + ", more than the limit of " + minutes(s.maxLiveLag())
              + "; waiting for it to catch up");
          Thread.sleep(1000);
          continue;
        }
      }
      return true;
    }
  }

  private Duration currentLag() {
    if (Duration.between(lagReadAt, Instant.now()).compareTo(LAG_POLL) >= 0) {
      try {
        liveLag = new LiveReader(sql, spec).read().lag();
      } catch (QueryFailedException e) {
        // Reading the lag is advisory; the batches report real failures.
      }
      lagReadAt = Instant.now();
    }
    return liveLag;
  }

  /** Whether the run recomputes {@code hour}; otherwise it carries it from v1. */
  private boolean computes(HourPartition hour) {
    return affected.map(a -> a.contains(hour)).orElse(true);
  }

  private void writeBatch(BatchWriter writer, Carrier carrier, List<HourPartition> batch) {
    boolean carry = !computes(batch.getFirst());
    Identifier staging = carry ? null : stagingPool.poll();
    try {
      // A staging table new to this process may hold rows a crashed process left: its first batch empties it.
      boolean newStaging = staging == null;
      if (newStaging && !carry) {
        staging = new TargetTables(sql, spec).staging(id(), stagingSlots.incrementAndGet());
      }
      listener.on(new BackfillEvent.BatchStarted(id(), batch));
      int maxAttempts = settings.get().maxAttempts();
      // Any try after the first may find rows a failed insert left in staging: it empties staging first.
      boolean triedBefore = false;
      for (int attempt = 1; ; attempt++, triedBefore = true) {
        try {
          List<BatchWriter.HourOutput> outputs = carry ? carrier.carry(batch)
              : writer.write(staging, batch, newStaging || triedBefore);
          Instant now = Instant.now();
          List<LedgerEntry> entries = new ArrayList<>();
          for (BatchWriter.HourOutput o : outputs) {
            LedgerEntry.State kind = carry ? LedgerEntry.State.CARRIED
                : o.rows() == 0 ? LedgerEntry.State.EMPTIED : LedgerEntry.State.WRITTEN;
            entries.add(new LedgerEntry(id(), o.hour(), kind, o.rows(), o.checksum(), attempt, now, ""));
          }
          store.recordHours(entries);
          for (BatchWriter.HourOutput o : outputs) {
            failedHours.remove(o.hour());
            rowsWritten.addAndGet(o.rows());
            hoursDone.incrementAndGet();
            listener.on(new BackfillEvent.HourWritten(id(), o.hour(), o.rows(), o.checksum(), carry));
          }
          progress("");
          return;
        } catch (QueryFailedException e) {
          if (e.unreachable() && !cancelled) {
            // The server is down, not this batch wrong: the run waits once for it, attempts unspent.
            if (awaitServer(e, batch)) {
              attempt--;
              continue;
            }
            String sentence = outage.gaveUp();
            recordFailure(batch, attempt, sentence == null ? e.getMessage() : sentence);
            if (sentence != null) {
              fatal.compareAndSet(null, sentence);
            }
            return;
          }
          if (!e.retryable() || attempt >= maxAttempts || cancelled) {
            recordFailure(batch, attempt, e.getMessage());
            if (!e.retryable()) {
              fatal.compareAndSet(null, e.getMessage());
            }
            return;
          }
          Duration backoff = backoff(attempt);
          listener.on(new BackfillEvent.Retrying(id(), batch, attempt, backoff, e.getMessage()));
          progress("retrying hours from " + batch.getFirst() + " in " + backoff.toSeconds() + " s: " + e.getMessage());
          Thread.sleep(backoff);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      recordFailure(batch, 1, e.getMessage());
      fatal.compareAndSet(null, e.getMessage());
    } finally {
      if (staging != null) {
        stagingPool.offer(staging);
      }
    }
  }

  private boolean awaitServer(QueryFailedException e, List<HourPartition> batch) throws InterruptedException {
    BackfillSettings s = settings.get();
    return outage.await(e, s.serverWait(), s.retryBackoff(), () -> cancelled, (probe, next, sentence) -> {
      listener.on(new BackfillEvent.Retrying(id(), batch, probe, next, sentence));
      progress("the server does not answer; the run waits for it (at most " + ServerOutage.words(s.serverWait())
          + " in all), next try in " + Math.max(1, next.toSeconds()) + " s: " + sentence);
    });
  }

  private Duration backoff(int attempt) {
    long millis = settings.get().retryBackoff().toMillis() << Math.min(attempt - 1, 6);
    return Duration.ofMillis(Math.min(millis, 60_000));
  }

  private void recordFailure(List<HourPartition> batch, int attempts, String error) {
    failedHours.addAll(batch);
    Instant now = Instant.now();
    try {
      store.recordHours(batch.stream().map(h -> new LedgerEntry(id(), h, LedgerEntry.State.FAILED, 0, 0, attempts,
          now, error)).toList());
    } catch (QueryFailedException e) {
      // The server may be the thing that failed; the hours stay pending in the ledger and a resume retries them.
    }
    for (HourPartition h : batch) {
      listener.on(new BackfillEvent.HourFailed(id(), h, error));
    }
    progress("");
  }

  private void finish() {
    RunState end;
    String message;
    if (fatal.get() != null) {
      end = RunState.FAILED;
      message = fatal.get();
    } else if (!failedHours.isEmpty()) {
      end = RunState.FAILED;
      message = failedHours.size() + " hour(s) failed after every retry: " + Batches.describe(failedHours)
          + ". Resume the run to try them again.";
    } else if (cancelled && hoursDone.get() < hours.size()) {
      end = RunState.CANCELLED;
      message = "cancelled after " + hoursDone.get() + " of " + hours.size() + " hours; resume to continue";
    } else {
      end = RunState.SUCCEEDED;
      long carried = hours.stream().filter(h -> !computes(h)).count();
      message = hours.size() + " hours written before the boundary " + boundary + (carried == 0 ? ""
          : " (" + (hours.size() - carried) + " recomputed, " + carried + " carried from " + spec.liveTable() + ")")
          + ", " + rowsWritten.get() + " rows in this session";
    }
    try {
      if (paused) {
        paused = false;
        changeState(RunState.RUNNING, "finishing");
      }
      changeState(end, message);
      new TargetTables(sql, spec).dropStaging(id());
    } catch (RuntimeException e) {
      // The server may be gone; the run stays resumable from its ledger.
    }
    // The run lets go of its repair: backfilled when every hour below B is in the ledger.
    onEnd.accept(run.get());
    progress("");
    LiveRuns.ended(id());
    result.complete(run.get());
  }

  private void changeState(RunState to, String message) {
    try {
      run.set(store.transition(run.get(), to, message));
      store.audit(id(), "state", to.name().toLowerCase() + ": " + message);
    } catch (QueryFailedException e) {
      run.set(run.get().with(to, message, Instant.now()));
    }
    listener.on(new BackfillEvent.StateChanged(id(), to, message));
  }

  private void heartbeat() {
    while (!result.isDone()) {
      try {
        Thread.sleep(HEARTBEAT);
        if (!result.isDone()) {
          store.heartbeat(run.get());
        }
      } catch (InterruptedException e) {
        return;
      } catch (QueryFailedException e) {
        // retried on the next beat
      }
    }
  }

  private void progress(String waiting) {
    long done = hoursDone.get();
    double seconds = Math.max(0.001, Duration.between(started, Instant.now()).toMillis() / 1000.0);
    double hoursPerSecond = (done - hoursAlreadyDone) / seconds;
    long remaining = hours.size() - done - failedHours.size();
    Optional<Duration> eta = hoursPerSecond > 0
        ? Optional.of(Duration.ofMillis((long) (remaining / hoursPerSecond * 1000))) : Optional.empty();
    RunState state = result.isDone() ? run.get().state() : paused ? RunState.PAUSED : RunState.RUNNING;
    listener.on(new BackfillEvent.Progress(id(), state, hours.size(), done, failedHours.size(), rowsWritten.get(),
        rowsWritten.get() / seconds, hoursPerSecond, eta, liveLag, waiting));
  }

  private static String minutes(Duration d) {
    return d.toMinutes() + " min";
  }
}
