package dev.cutover.engine.backfill;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * When a run may start its next batch: not while it is paused or stopping, while its server gives no
 * answer, while the server's disk has no room for it ({@link DiskHeadroom}), while it is ahead of its rows-per-second ceiling, and, when its throttle yields to a live
 * writer ({@code max_live_lag}), not while that writer writes v1 ({@link LiveWrites}) or lags more
 * than the limit ({@link LiveLag}); and each batch keeps its place for the throttle's rest after it.
 */
final class Pacing {

  private final RunLifecycle lifecycle;
  private final BatchRetry retry;
  private final Throttle throttle;
  private final RunProgress progress;
  private final LiveLag liveLag;
  private final LiveWrites liveWrites;
  private final DiskHeadroom disk;
  private final Consumer<String> report;

  Pacing(RunLifecycle lifecycle, BatchRetry retry, Throttle throttle, RunProgress progress, LiveLag liveLag,
      LiveWrites liveWrites, DiskHeadroom disk, Consumer<String> report) {
    this.lifecycle = lifecycle;
    this.retry = retry;
    this.throttle = throttle;
    this.progress = progress;
    this.liveLag = liveLag;
    this.liveWrites = liveWrites;
    this.disk = disk;
    this.report = report;
  }

  /** Waits until the next batch may start; false when the run stops instead. */
  boolean awaitTurn() throws InterruptedException {
    while (true) {
      if (lifecycle.stopping()) {
        return false;
      }
      if (retry.outageOngoing()) {
        Thread.sleep(200);
        continue;
      }
      if (lifecycle.paused()) {
        lifecycle.awaitNotPaused(Duration.ofSeconds(1));
        continue;
      }
      if (!disk.awaitRoom(lifecycle::stopping, report)) {
        return false;
      }
      if (retry.outageOngoing() || lifecycle.stopping()) {
        // A batch found the server gone while free space was read: none starts on it (it would wait out the silence
        // bound too); the loop waits for the outage's end or the run's.
        continue;
      }
      Optional<Duration> rowsWait = throttle.rowsWait(progress.rowsWritten(), progress.startedAt());
      if (rowsWait.isPresent()) {
        Thread.sleep(rowsWait.get());
        continue;
      }
      Duration maxLag = throttle.settings().maxLiveLag();
      if (!maxLag.isZero() && liveWrites.holdBack()) {
        Thread.sleep(50);
        continue;
      }
      if (!maxLag.isZero()) {
        Duration lag = liveLag.current();
        if (lag.compareTo(maxLag) > 0) {
          report.accept("the live writer lags " + minutes(lag) + ", more than the limit of " + minutes(maxLag)
              + "; waiting for it to catch up");
          Thread.sleep(1000);
          continue;
        }
      }
      return true;
    }
  }

  /**
   * Keeps the place of a batch that took {@code length} for the throttle's rest after it
   * ({@code rest_percent} of that length), or until the run stops. A rest in proportion to the
   * batch follows the server's load: where batches slow down, the run yields longer.
   */
  void rest(Duration length) {
    long until = System.nanoTime() + throttle.settings().restAfter(length).toNanos();
    try {
      for (long left = until - System.nanoTime(); left > 0 && !lifecycle.stopping(); left = until - System.nanoTime()) {
        Thread.sleep(Duration.ofNanos(Math.min(left, REST_SLICE.toNanos())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A resting batch looks this often whether its run is stopping. */
  private static final Duration REST_SLICE = Duration.ofMillis(200);

  private static String minutes(Duration d) {
    return d.toMinutes() + " min";
  }
}
