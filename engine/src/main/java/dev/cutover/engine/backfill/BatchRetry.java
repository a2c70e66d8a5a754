package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.ErrorCodes;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.sql.Timeouts;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How a batch is tried again. A failure that a later try may cure ({@link ErrorCodes#isTransient},
 * as {@link QueryFailedException#retryable()} says) is retried after a backoff that doubles from
 * the run's first backoff up to a minute, up to the run's number of attempts. A server that gives
 * no answer is not this batch's fault: the batch waits once for the run's {@link ServerOutage}
 * instead, and its attempts stay unspent; so does a batch the server refused for lack of disk space, which
 * waits for room ({@link DiskHeadroom}). But a try whose statement timed out counts, as a server that answers
 * again may leave that statement silent again. Any other failure ends the batch at once and the run with it.
 */
final class BatchRetry {

  private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

  /** One try of the batch; {@code triedBefore} when an earlier try may have left rows behind. */
  @FunctionalInterface
  interface Attempt<T> {
    T run(int attempt, boolean triedBefore);
  }

  /** What the batch says while it waits. */
  interface Waiting {
    /** A retry after {@code backoff}, because of {@code why}. */
    void retrying(int attempt, Duration backoff, String why);

    /** A probe of a server that does not answer; {@code serverWait} is the most the run waits. */
    void serverAway(int probe, Duration next, Duration serverWait, String sentence);
  }

  /** How the tries ended. */
  sealed interface Outcome<T> {}

  /** The batch succeeded on try {@code attempt}. */
  record Done<T>(T value, int attempt) implements Outcome<T> {}

  /**
   * The batch failed for good after {@code attempts} tries with {@code error}; {@code fatal} is the
   * sentence the whole run ends with, or null when only this batch failed.
   */
  record GaveUp<T>(int attempts, String error, String fatal) implements Outcome<T> {}

  private final ServerOutage outage;
  private final DiskHeadroom disk;
  private final Supplier<BackfillSettings> settings;
  private final BooleanSupplier cancelled;

  BatchRetry(ServerOutage outage, DiskHeadroom disk, Supplier<BackfillSettings> settings, BooleanSupplier cancelled) {
    this.outage = outage;
    this.disk = disk;
    this.settings = settings;
    this.cancelled = cancelled;
  }

  /** Whether the server is known not to answer now: no batch should start. */
  boolean outageOngoing() {
    return outage.ongoing();
  }

  /** Whether the run gave up waiting for the server: nothing more can be written there. */
  boolean serverGone() {
    return outage.gaveUp() != null;
  }

  <T> Outcome<T> run(Attempt<T> attempt, Waiting waiting) throws InterruptedException {
    int maxAttempts = settings.get().maxAttempts();
    boolean triedBefore = false;
    for (int n = 1; ; n++, triedBefore = true) {
      try {
        return new Done<>(attempt.run(n, triedBefore), n);
      } catch (QueryFailedException e) {
        if (e.unreachable() && !cancelled.getAsBoolean()) {
          if (awaitServer(e, waiting)) {
            if (!Timeouts.silent(e)) {
              n--; // the server is back: this try did not count
              continue;
            }
            // A statement the server left silent while it answers a probe may do so again: the try counts, so that
            // such a batch ends after its attempts instead of being tried for ever.
            if (n < maxAttempts) {
              continue;
            }
            return new GaveUp<>(n, e.getMessage(), null);
          }
          String sentence = outage.gaveUp();
          return new GaveUp<>(n, sentence == null ? e.getMessage() : sentence, sentence);
        }
        if (e.errorCode() == ErrorCodes.NOT_ENOUGH_SPACE && !cancelled.getAsBoolean()) {
          // The disk filled under the batch: not the batch's fault either. It waits for room, then tries again.
          if (disk.awaitRoom(cancelled, why -> waiting.retrying(0, DiskHeadroom.POLL, why.isEmpty() ? e.getMessage()
              : why))) {
            n--;
            continue;
          }
        }
        if (!e.retryable() || n >= maxAttempts || cancelled.getAsBoolean()) {
          return new GaveUp<>(n, e.getMessage(), e.retryable() ? null : e.getMessage());
        }
        Duration backoff = backoff(n);
        waiting.retrying(n, backoff, e.getMessage());
        Thread.sleep(backoff);
      }
    }
  }

  private boolean awaitServer(QueryFailedException e, Waiting waiting) throws InterruptedException {
    BackfillSettings s = settings.get();
    return outage.await(e, s.serverWait(), s.retryBackoff(), cancelled,
        (probe, next, sentence) -> waiting.serverAway(probe, next, s.serverWait(), sentence));
  }

  /** The wait before try {@code attempt + 1}: the first backoff doubled per try, at most a minute. */
  Duration backoff(int attempt) {
    long millis = settings.get().retryBackoff().toMillis() << Math.min(attempt - 1, 6);
    return Duration.ofMillis(Math.min(millis, MAX_BACKOFF.toMillis()));
  }
}
