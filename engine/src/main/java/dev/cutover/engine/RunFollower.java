package dev.cutover.engine;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.Subscription;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a run's record and ledger on a schedule and turns what changed into events. A follower
 * knows only what the records say: its rates are measured between its own reads, and a read that
 * fails (the server away for a moment) is skipped, not told as a state of the run.
 */
final class RunFollower implements Subscription {

  private final Backfills backfills;
  private final String runId;
  private final Duration every;
  private final BackfillEvent.Listener listener;
  private final Map<HourPartition, LedgerEntry> seen = new HashMap<>();
  private volatile boolean closed;
  private RunState lastState;
  private Instant lastRead;
  private long lastDone;

  private RunFollower(Backfills backfills, String runId, Duration every, BackfillEvent.Listener listener) {
    this.backfills = backfills;
    this.runId = runId;
    this.every = every;
    this.listener = listener;
  }

  static RunFollower start(Backfills backfills, String runId, Duration every, BackfillEvent.Listener listener) {
    if (every.isNegative() || every.isZero()) {
      throw new IllegalArgumentException("A follower reads at a positive period, not " + every);
    }
    RunFollower follower = new RunFollower(backfills, runId, every, listener);
    Thread.ofVirtual().name("follow-" + runId).start(follower::loop);
    return follower;
  }

  private void loop() {
    while (!closed) {
      boolean ended;
      try {
        ended = readOnce();
      } catch (CutoverException unreadable) {
        ended = false; // the next read tries again; the run's state is whatever its records say then
      }
      if (ended) {
        return;
      }
      try {
        Thread.sleep(every);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One read; true once the run has ended and everything about it was told. */
  boolean readOnce() {
    Optional<RunRecord> found = backfills.run(runId);
    if (found.isEmpty() || closed) {
      return false;
    }
    RunRecord run = found.get();
    TreeMap<HourPartition, LedgerEntry> ledger = backfills.ledger(runId);
    for (LedgerEntry e : ledger.values()) {
      if (!e.equals(seen.put(e.hour(), e))) {
        listener.on(e.complete()
            ? new BackfillEvent.HourWritten(runId, e.hour(), e.rows(), e.checksum(), e.carried())
            : new BackfillEvent.HourFailed(runId, e.hour(), e.error()));
      }
    }
    if (run.state() != lastState) {
      lastState = run.state();
      listener.on(new BackfillEvent.StateChanged(runId, run.state(), run.message()));
    }
    listener.on(progress(run, ledger));
    return !run.state().active();
  }

  private BackfillEvent.Progress progress(RunRecord run, TreeMap<HourPartition, LedgerEntry> ledger) {
    long done = ledger.values().stream().filter(LedgerEntry::complete).count();
    long failed = ledger.size() - done;
    long rows = ledger.values().stream().filter(LedgerEntry::complete).mapToLong(LedgerEntry::rows).sum();
    Instant now = Instant.now();
    double hoursPerSecond = 0;
    if (lastRead != null && now.isAfter(lastRead)) {
      hoursPerSecond = (done - lastDone) / (Duration.between(lastRead, now).toMillis() / 1000.0);
    }
    lastRead = now;
    lastDone = done;
    long left = Math.max(0, run.range().hours() - done);
    Optional<Duration> eta = hoursPerSecond > 0 ? Optional.of(Duration.ofSeconds((long) (left / hoursPerSecond)))
        : Optional.empty();
    double rowsPerHour = done == 0 ? 0 : (double) rows / done;
    return new BackfillEvent.Progress(runId, run.state(), run.range().hours(), done, failed, rows,
        hoursPerSecond * rowsPerHour, hoursPerSecond, eta, Duration.ZERO, "");
  }

  @Override
  public void close() {
    closed = true;
  }
}
