package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillEvent.Listener;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.RunState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a run has done so far (hours written, rows, hours that failed) and how fast, told to the
 * listener as {@link BackfillEvent.Progress} with an estimate of the time left. Hours a resumed run
 * found done count as done but not towards its speed.
 */
final class RunProgress {

  private final String runId;
  private final int total;
  private final Listener listener;
  private final AtomicLong hoursDone = new AtomicLong();
  private final AtomicLong rowsWritten = new AtomicLong();
  private final Set<HourPartition> failedHours = new ConcurrentSkipListSet<>();
  private volatile Instant started = Instant.now();
  private volatile long alreadyDone;
  /** The time left from the recent pace; {@link #report} is its one feeder. */
  private final dev.cutover.engine.api.Eta left = new dev.cutover.engine.api.Eta();

  RunProgress(String runId, int total, Listener listener) {
    this.runId = runId;
    this.total = total;
    this.listener = listener;
  }

  void started(Instant at) {
    started = at;
  }

  Instant startedAt() {
    return started;
  }

  /** The hours the ledger already holds as done when the run starts. */
  void alreadyDone(long hours) {
    alreadyDone = hours;
    hoursDone.set(hours);
  }

  void written(HourPartition hour, long rows) {
    failedHours.remove(hour);
    rowsWritten.addAndGet(rows);
    hoursDone.incrementAndGet();
  }

  void failed(List<HourPartition> batch) {
    failedHours.addAll(batch);
  }

  long hoursDone() {
    return hoursDone.get();
  }

  long rowsWritten() {
    return rowsWritten.get();
  }

  boolean anyFailed() {
    return !failedHours.isEmpty();
  }

  /** "3 hour(s) failed ...": the failed hours, the first five by name. */
  String failedSentence() {
    List<HourPartition> list = new ArrayList<>(failedHours);
    String shown = list.stream().limit(5).map(HourPartition::toString).reduce((a, b) -> a + ", " + b).orElse("");
    return Figures.count(list.size()) + " hour(s) failed after every retry: " + (list.size() > 5 ? shown + " and "
        + (list.size() - 5)
        + " more" : shown) + ". Resume the run to try them again.";
  }

  /** Tells the listener where the run stands; {@code waiting} says what holds it back, if anything. */
  synchronized void report(RunState state, Duration liveLag, String waiting) {
    long done = hoursDone.get();
    Instant now = Instant.now();
    double seconds = Math.max(0.001, Duration.between(started, now).toMillis() / 1000.0);
    double hoursPerSecond = (done - alreadyDone) / seconds;
    long remaining = total - done - failedHours.size();
    // From the recent pace, not the average since the start: rests and pacing count, and it counts down between
    // batches instead of jumping with where a report falls.
    left.observe(now, done);
    Optional<Duration> eta = left.at(now, remaining).map(dev.cutover.engine.api.Eta.Estimate::left);
    listener.on(new BackfillEvent.Progress(runId, state, total, done, failedHours.size(), rowsWritten.get(),
        rowsWritten.get() / seconds, hoursPerSecond, eta, liveLag, waiting));
  }
}
