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
 * @param maxAttempts tries of a batch whose statements the server refuses with an error that can pass
 * @param retryBackoff the first wait before a batch tries again; it doubles with each try
 * @param serverWait how long the whole run waits for a server that gives no answer at all before it
 *     stops (one wait for the run, not a retry per batch)
 * @param nice the Linux nice value of the server threads that run the backfill's statements
 *     ({@code os_thread_priority}), 0 to 19: the higher, the more the backfill yields the CPU to the
 *     live job and every other query; 0 leaves them as the server's
 * @param restPercent how long each batch's place stays taken after the batch ended, in percent of
 *     the batch's own length: 100 rests as long as the batch took, so that each place computes at most
 *     half the time; 0 starts the next batch at once
 */
public record BackfillSettings(int concurrency, int batchHours, int maxThreads, int priority, long maxMemoryUsage,
    long rowsPerSecond, Duration maxLiveLag, int maxAttempts, Duration retryBackoff, Duration serverWait, int nice,
    int restPercent) {

  /** The longest rest after a batch, in percent of its length: ten times it. */
  public static final int MOST_REST_PERCENT = 1000;

  /** A run waits this long for a server that does not answer before it stops, unless told otherwise. */
  public static final Duration DEFAULT_SERVER_WAIT = Duration.ofMinutes(10);

  /**
   * The backfill's threads keep the server's own priority unless the spec says otherwise: on the
   * embedded server a nice backfill did not lower the live job's latency measurably (docs/SPEC.md),
   * and a backfill that yields every core can starve on a busy server.
   */
  public static final int DEFAULT_NICE = 0;

  /** Settings with the server's own thread priority (nice 0) and no rest between batches. */
  public BackfillSettings(int concurrency, int batchHours, int maxThreads, int priority, long maxMemoryUsage,
      long rowsPerSecond, Duration maxLiveLag, int maxAttempts, Duration retryBackoff, Duration serverWait) {
    this(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond, maxLiveLag, maxAttempts,
        retryBackoff, serverWait, 0, 0);
  }

  public BackfillSettings {
    check("concurrency", concurrency, 1, 32);
    check("batch-hours", batchHours, 1, 96);
    check("max-threads", maxThreads, 0, 256);
    check("priority", priority, 0, 100);
    check("nice", nice, 0, 19);
    check("rest-percent", restPercent, 0, MOST_REST_PERCENT);
    check("attempts", maxAttempts, 1, 20);
    if (maxMemoryUsage < 0 || rowsPerSecond < 0 || maxLiveLag.isNegative() || retryBackoff.isNegative()) {
      throw new InvalidInputException("throttle", "Throttle limits cannot be negative; use 0 for no limit.");
    }
    if (serverWait.isNegative() || serverWait.compareTo(Duration.ofHours(24)) > 0) {
      throw new InvalidInputException("server-wait", "The wait for a server that does not answer is " + serverWait.toMinutes() + " minutes; give "
          + "a whole number of minutes from 0 (stop at once) to 1440 (a day).");
    }
  }

  private static void check(String field, long value, long min, long max) {
    if (value < min || value > max) {
      throw new InvalidInputException(field, words(field) + " is " + value + "; give a whole number from " + min
          + " to " + max + ".");
    }
  }

  /** The setting in words, for a sentence: the field name is the command line's or the form's business. */
  private static String words(String field) {
    return switch (field) {
      case "batch-hours" -> "The number of hours per batch";
      case "max-threads" -> "The thread limit per statement (max_threads)";
      case "attempts" -> "The number of attempts per batch";
      case "rest-percent" -> "The rest after each batch, in percent of its length,";
      default -> "The " + field;
    };
  }

  /**
   * The spec's throttle, with five attempts per batch, a one-second first backoff, and ten minutes'
   * wait for a server that does not answer.
   */
  public static BackfillSettings from(TableSpec.Throttle t) {
    return new BackfillSettings(t.concurrency(), t.batchHours(), t.maxThreads(), t.priority(), t.maxMemoryUsage(),
        t.rowsPerSecond(), t.maxLiveLag(), 5, Duration.ofSeconds(1), DEFAULT_SERVER_WAIT, t.nice(), t.restPercent());
  }

  public BackfillSettings withConcurrency(int value) {
    return new BackfillSettings(value, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond, maxLiveLag,
        maxAttempts, retryBackoff, serverWait, nice, restPercent);
  }

  public BackfillSettings withMaxThreads(int value) {
    return new BackfillSettings(concurrency, batchHours, value, priority, maxMemoryUsage, rowsPerSecond, maxLiveLag,
        maxAttempts, retryBackoff, serverWait, nice, restPercent);
  }

  public BackfillSettings withBatchHours(int value) {
    return new BackfillSettings(concurrency, value, maxThreads, priority, maxMemoryUsage, rowsPerSecond, maxLiveLag,
        maxAttempts, retryBackoff, serverWait, nice, restPercent);
  }

  public BackfillSettings withRowsPerSecond(long value) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, value, maxLiveLag,
        maxAttempts, retryBackoff, serverWait, nice, restPercent);
  }

  public BackfillSettings withMaxLiveLag(Duration value) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond, value,
        maxAttempts, retryBackoff, serverWait, nice, restPercent);
  }

  public BackfillSettings withRetries(int attempts, Duration backoff) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond,
        maxLiveLag, attempts, backoff, serverWait, nice, restPercent);
  }

  public BackfillSettings withServerWait(Duration value) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond,
        maxLiveLag, maxAttempts, retryBackoff, value, nice, restPercent);
  }

  public BackfillSettings withNice(int value) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond,
        maxLiveLag, maxAttempts, retryBackoff, serverWait, value, restPercent);
  }

  public BackfillSettings withRestPercent(int value) {
    return new BackfillSettings(concurrency, batchHours, maxThreads, priority, maxMemoryUsage, rowsPerSecond,
        maxLiveLag, maxAttempts, retryBackoff, serverWait, nice, value);
  }

  /** How long a batch that took {@code length} keeps its place after it ended. */
  public Duration restAfter(Duration length) {
    return length.multipliedBy(restPercent).dividedBy(100);
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
    if (nice > 0) {
      s.append(s.isEmpty() ? "" : ", ").append("os_thread_priority = ").append(nice);
    }
    return s.isEmpty() ? "" : " SETTINGS " + s;
  }
}
