package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillEvent.Listener;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.ledger.StateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Writes one batch of hours (recomputed straight into a target that never held them or through
 * staging, or carried from v1) with the run's retries,
 * and records the outcome of each hour in the ledger, in the run's progress and to the listener.
 * A failure that no retry cures is handed to {@code fatal}, which ends the run.
 */
final class BatchTask {

  /** The parts of the run a batch works with. */
  record Context(String runId, StateStore store, BatchWriter writer, Carrier carrier, StagingPool staging,
      BatchRetry retry, RunProgress progress, Listener listener, Consumer<String> report, Consumer<String> fatal,
      Predicate<HourPartition> neverHeld) {}

  private final Context run;
  private final List<HourPartition> batch;
  private final boolean carry;
  private final Runnable computed;

  /** {@code computed}: told once the batch's rows are computed, when the next batch may start computing. */
  BatchTask(Context run, List<HourPartition> batch, boolean carry, Runnable computed) {
    this.run = run;
    this.batch = batch;
    this.carry = carry;
    this.computed = computed;
  }

  void write() {
    AtomicReference<StagingPool.Lease> lease = new AtomicReference<>();
    try {
      // Hours the target has never held go straight into it; the others, and any retry, through staging.
      boolean direct = !carry && batch.stream().allMatch(run.neverHeld());
      // A fresh staging table may hold a crashed process's rows, and any try after the first may find
      // rows a failed insert left: either empties staging first. A try after the first also stops the
      // batch's earlier insert if the server still runs it, so that its rows cannot land after the retry's.
      record((attempt, triedBefore) -> {
        if (carry) {
          return run.carrier().carry(batch);
        }
        if (direct && !triedBefore) {
          return run.writer().writeDirect(batch, computed);
        }
        if (triedBefore) {
          run.writer().stopBatch(batch.getFirst());
        }
        if (lease.get() == null) {
          lease.set(run.staging().take());
        }
        return run.writer().write(lease.get().table(), batch, lease.get().fresh() || triedBefore, computed);
      });
    } finally {
      if (lease.get() != null) {
        run.staging().giveBack(lease.get());
      }
    }
  }

  /**
   * Runs {@code tries} with the run's retries, its ledger line part of each try: a server lost between
   * the write and the ledger is waited for like any other, and the batch, idempotent, is written again
   * before its hours are recorded. Then tells the outcome.
   */
  private void record(BatchRetry.Attempt<List<BatchWriter.HourOutput>> tries) {
    try {
      run.listener().on(new BackfillEvent.BatchStarted(run.runId(), batch));
      var outcome = run.retry().run((attempt, triedBefore) -> {
        List<BatchWriter.HourOutput> outputs = tries.run(attempt, triedBefore);
        run.store().hours().recordHours(ledgerLines(outputs, attempt));
        return outputs;
      }, waiting());
      switch (outcome) {
        case BatchRetry.Done<List<BatchWriter.HourOutput>> done -> announceWritten(done.value());
        case BatchRetry.GaveUp<List<BatchWriter.HourOutput>> gaveUp -> {
          recordFailure(gaveUp.attempts(), gaveUp.error());
          if (gaveUp.fatal() != null) {
            run.fatal().accept(gaveUp.fatal());
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // Not the server's refusal: a bug. It is named, so that neither the ledger nor the run says nothing.
      String why = e.getMessage() != null && !e.getMessage().isBlank() ? e.getMessage()
          : "an internal error stopped the batch (" + e.getClass().getName() + "); resume the run to try again";
      recordFailure(1, why);
      run.fatal().accept(why);
    }
  }

  private BatchRetry.Waiting waiting() {
    return new BatchRetry.Waiting() {
      @Override
      public void retrying(int attempt, Duration backoff, String why) {
        run.listener().on(new BackfillEvent.Retrying(run.runId(), batch, attempt, backoff, why));
        run.report().accept("retrying hours from " + batch.getFirst() + " in " + backoff.toSeconds() + " s: " + why);
      }

      @Override
      public void serverAway(int probe, Duration next, Duration serverWait, String sentence) {
        run.listener().on(new BackfillEvent.Retrying(run.runId(), batch, probe, next, sentence));
        run.report().accept("the server does not answer; the run waits for it (at most "
            + ServerOutage.words(serverWait) + " in all), next try in " + Math.max(1, next.toSeconds()) + " s: "
            + sentence);
      }
    };
  }

  private List<LedgerEntry> ledgerLines(List<BatchWriter.HourOutput> outputs, int attempt) {
    Instant now = Instant.now();
    List<LedgerEntry> entries = new ArrayList<>();
    for (BatchWriter.HourOutput o : outputs) {
      LedgerEntry.State kind = carry ? LedgerEntry.State.CARRIED
          : o.rows() == 0 ? LedgerEntry.State.EMPTIED : LedgerEntry.State.WRITTEN;
      entries.add(new LedgerEntry(run.runId(), o.hour(), kind, o.rows(), o.checksum(), attempt, now, ""));
    }
    return entries;
  }

  private void announceWritten(List<BatchWriter.HourOutput> outputs) {
    for (BatchWriter.HourOutput o : outputs) {
      run.progress().written(o.hour(), o.rows());
      run.listener().on(new BackfillEvent.HourWritten(run.runId(), o.hour(), o.rows(), o.checksum(), carry));
    }
    run.report().accept("");
  }

  private void recordFailure(int attempts, String error) {
    run.progress().failed(batch);
    Instant now = Instant.now();
    try {
      // Not to a server the run gave up on: a stopped one would hold the write for the whole silence bound.
      if (!run.retry().serverGone()) {
        run.store().hours().recordHours(batch.stream().map(h -> new LedgerEntry(run.runId(), h, LedgerEntry.State.FAILED,
            0, 0, attempts, now, error)).toList());
      }
    } catch (QueryFailedException e) {
      // The server may be the thing that failed; the hours stay pending in the ledger and a resume retries them.
    }
    for (HourPartition h : batch) {
      run.listener().on(new BackfillEvent.HourFailed(run.runId(), h, error));
    }
    run.report().accept("");
  }
}
