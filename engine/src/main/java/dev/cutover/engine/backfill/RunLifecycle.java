package dev.cutover.engine.backfill;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * Where a run stands in this process, in one field changed only by compare-and-set: running,
 * paused, cancelling, failing (with the first reason) or ended. Pause, resume, cancel and a fatal
 * failure are transitions of it, so no two of them can disagree about what the run does next.
 */
final class RunLifecycle {

  /** The run's phase. */
  sealed interface Phase permits Running, Paused, Cancelling, Failing, Ended {}

  /** Starting batches as the throttle allows. */
  record Running() implements Phase {}

  /** Starting no batch; those under way finish. */
  record Paused() implements Phase {}

  /** Ending after the batches under way; no batch starts and none retries. */
  record Cancelling() implements Phase {}

  /**
   * Ending with {@code reason}: a failure that no retry cures. {@code cancelled} keeps a cancel that
   * came first, so that the batches under way still stop retrying.
   */
  record Failing(String reason, boolean cancelled) implements Phase {}

  /** Over: its last state is recorded (or could not be, and the ledger tells). */
  record Ended() implements Phase {}

  private static final Running RUNNING = new Running();
  private static final Paused PAUSED = new Paused();

  private final AtomicReference<Phase> phase = new AtomicReference<>(RUNNING);
  // Wakes a dispatcher that waits out a pause; the phase itself is never guarded by it.
  private final ReentrantLock wake = new ReentrantLock();
  private final Condition changed = wake.newCondition();

  Phase now() {
    return phase.get();
  }

  /** Running to paused; false when the run was not running. */
  boolean pause() {
    return move(RUNNING, PAUSED);
  }

  /** Paused to running; false when the run was not paused. */
  boolean resume() {
    return move(PAUSED, RUNNING);
  }

  /** Running or paused to cancelling; false when the run was already stopping. */
  boolean cancel() {
    return change(p -> p instanceof Running || p instanceof Paused ? new Cancelling() : p);
  }

  /** Any phase but ended to failing; the first reason stands. */
  void fail(String reason) {
    change(p -> switch (p) {
      case Running r -> new Failing(reason, false);
      case Paused r -> new Failing(reason, false);
      case Cancelling c -> new Failing(reason, true);
      case Failing f -> f;
      case Ended e -> e;
    });
  }

  /** The run is over; nothing moves it after this. */
  void end() {
    change(p -> new Ended());
  }

  boolean paused() {
    return phase.get() instanceof Paused;
  }

  /** Whether an operator cancelled the run: batches stop retrying and the outage wait gives up. */
  boolean cancelled() {
    return switch (phase.get()) {
      case Cancelling c -> true;
      case Failing f -> f.cancelled();
      default -> false;
    };
  }

  /** Whether no new batch may start: cancelled, failing or over. */
  boolean stopping() {
    return switch (phase.get()) {
      case Running r -> false;
      case Paused p -> false;
      default -> true;
    };
  }

  /** The reason the run fails with, or null when it does not fail. */
  String failure() {
    return phase.get() instanceof Failing f ? f.reason() : null;
  }

  /** Waits while the run is paused, at most {@code patience} at a time before looking again. */
  void awaitNotPaused(Duration patience) throws InterruptedException {
    wake.lock();
    try {
      while (paused()) {
        changed.await(patience.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      wake.unlock();
    }
  }

  private boolean move(Phase from, Phase to) {
    boolean moved = phase.compareAndSet(from, to);
    if (moved) {
      signal();
    }
    return moved;
  }

  private boolean change(UnaryOperator<Phase> next) {
    Phase before;
    Phase after;
    do {
      before = phase.get();
      after = next.apply(before);
    } while (!phase.compareAndSet(before, after));
    if (after != before) {
      signal();
    }
    return after != before;
  }

  private void signal() {
    wake.lock();
    try {
      changed.signalAll();
    } finally {
      wake.unlock();
    }
  }
}
