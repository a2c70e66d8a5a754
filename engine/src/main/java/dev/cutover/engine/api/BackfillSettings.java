package dev.cutover.engine.api;

import java.time.Duration;

/**
 * How a backfill runs: how many batches at once, how many hours per batch, the per-query limits
 * that keep it gentle on the server, an optional rows-per-second ceiling, and the live writer's lag
 * beyond which it waits.
 *
 * @param maxThreads ClickHouse {@code max_threads} per statement; 0 leaves the server's default
 * @param priority ClickHouse {@code priority} (higher is less urgent); 0 leaves the default
 * @param maxMemoryUsage ClickHouse {@code max_memory_usage} in bytes; 0 leaves the default
 * @param rowsPerSecond ceiling on rows written per second; 0 means none
 * @param maxLiveLag pause while the live writer lags more than this; zero disables back-pressure
 */
public record BackfillSettings(int concurrency, int batchHours, int maxThreads, int priority, long maxMemoryUsage,
    long rowsPerSecond, Duration maxLiveLag, int maxAttempts, Duration retryBackoff) {

  public BackfillSettings {
    check("concurrency", concurrency, 1, 32);
    check("batch-hours", batchHours, 1, 96);
    check("max-threads", maxThreads, 0, 256);
    check("priority", priority, 0, 100);
    check("attempts", maxAttempts, 1, 20);
    if (maxMemoryUsage < 0 || rowsPerSecond < 0 || maxLiveLag.isNegative() || retryBackoff.isNegative()) {
      throw new InvalidInputException("throttle", "Throttle limits cannot be negative; use 0 for no limit.");
    }
  }

  private static void check(String field, long value, long min, long max) {
    if (value < min || value > max) {
      throw new InvalidInputException(field, "--" + field + " is " + value + "; give a whole number from " + min
          + " to " + max + ".");
    }
  }

  /** The spec's throttle, with five attempts per batch and a one-second first backoff. */
  public static BackfillSettings from(TableSpec.Throttle t) {
    return new BackfillSettings(t.concurrency(), t.batchHours(), t.maxThreads(), t.priority(), t.maxMemoryUsage(),
        t.rowsPerSecond(), t.maxLiveLag(), 5, Duration.ofSeconds(1));
  }

  public BackfillSettings withConcurrency(int value) {
    return new BackfillSettings(value, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond, maxLiveLag,
        maxAttempts, retryBackoff);
  }

  public BackfillSettings withMaxThreads(int value) {
    return new BackfillSettings(concurrency, batchHours, value, priority, maxMemoryUsage, rowsPerSecond, maxLiveLag,
        maxAttempts, retryBackoff);
  }

  public BackfillSettings withBatchHours(int value) {
    return new BackfillSettings(concurrency, value, maxThreads, priority, maxMemoryUsage, rowsPerSecond, maxLiveLag,
        maxAttempts, retryBackoff);
  }

  public BackfillSettings withRowsPerSecond(long value) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, value, maxLiveLag,
        maxAttempts, retryBackoff);
  }

  public BackfillSettings withMaxLiveLag(Duration value) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond, value,
        maxAttempts, retryBackoff);
  }

  public BackfillSettings withRetries(int attempts, Duration backoff) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond,
        maxLiveLag, attempts, backoff);
  }

  /** The SETTINGS clause for the statements that read sources, or an empty string. */
  public String settingsClause() {
    StringBuilder s = new StringBuilder();
    if (maxThreads > 0) {
      s.append("max_threads = ").append(maxThreads);
    }
    if (priority > 0) {
      s.append(s.isEmpty() ? "" : ", ").append("priority = ").append(priority);
    }
    if (maxMemoryUsage > 0) {
      s.append(s.isEmpty() ? "" : ", ").append("max_memory_usage = ").append(maxMemoryUsage);
    }
    return s.isEmpty() ? "" : " SETTINGS " + s;
  }
}
