package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How fast a run may write, changeable while it runs: how many batches at once (permits the
 * dispatcher takes before it starts a batch) and how many rows per second on average since the
 * run started.
 */
final class Throttle {

  private final AtomicReference<BackfillSettings> settings;
  private final Permits permits;

  Throttle(BackfillSettings settings) {
    this.settings = new AtomicReference<>(settings);
    this.permits = new Permits(settings.concurrency());
  }

  BackfillSettings settings() {
    return settings.get();
  }

  /** Changes how many batches run at once, from the next batch on. */
  void concurrency(int concurrency) {
    settings.updateAndGet(s -> s.withConcurrency(concurrency));
    permits.resize(concurrency);
  }

  void rowsPerSecond(long limit) {
    settings.updateAndGet(s -> s.withRowsPerSecond(limit));
  }

  /** Changes the rest after each batch; a batch under way rests by the setting as it ends. */
  void restPercent(int percent) {
    settings.updateAndGet(s -> s.withRestPercent(percent));
  }

  /**
   * Whether a batch frees its place as soon as its rows are computed, so that its checksum, replace and
   * ledger line overlap the next batch's compute. Not when the run yields to a live writer (it keeps to
   * its concurrency in statements, and leaves the live job its share), nor under a rows ceiling (the
   * next batch may start only once this one's rows are counted, or the ceiling is read a batch late),
   * nor when it rests after each batch (the rest follows the whole batch, its place kept).
   */
  boolean freesPlaceOnceComputed() {
    BackfillSettings now = settings.get();
    return now.maxLiveLag().isZero() && now.rowsPerSecond() <= 0 && now.restPercent() == 0;
  }

  /** Waits for a batch's turn among those that may run at once. */
  void acquire() throws InterruptedException {
    permits.acquire();
  }

  void release() {
    permits.release();
  }

  /**
   * How long to wait before the next batch so that the rows written since {@code started} stay
   * within the limit; empty when there is none or the run is within it. At most a second at a
   * time, so that a raised limit or a pause takes effect soon.
   */
  Optional<Duration> rowsWait(long rowsWritten, Instant started) {
    long limit = settings.get().rowsPerSecond();
    if (limit <= 0) {
      return Optional.empty();
    }
    double elapsed = Math.max(0.001, Duration.between(started, Instant.now()).toMillis() / 1000.0);
    double allowedAfter = rowsWritten / (double) limit;
    if (allowedAfter <= elapsed) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofMillis(Math.min(1000, (long) ((allowedAfter - elapsed) * 1000) + 1)));
  }

  /** A semaphore whose number of permits can change while it is in use. */
  private static final class Permits extends Semaphore {
    private int size;

    Permits(int size) {
      super(size);
      this.size = size;
    }

    synchronized void resize(int newSize) {
      if (newSize > size) {
        release(newSize - size);
      } else if (newSize < size) {
        reducePermits(size - newSize);
      }
      size = newSize;
    }
  }
}
