package dev.cutover.engine.backfill;

import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import dev.cutover.engine.api.LiveStatus;
import java.time.Duration;
import java.time.Instant;

/**
 * Back-pressure from the live writer: how far it lags, read at most every few seconds. A run that
 * is told to keep the lag under a limit waits while it is over.
 */
final class LiveLag {

  private static final Duration POLL = Duration.ofSeconds(5);

  private final Sql sql;
  private final TableSpec spec;
  private volatile Duration lag = Duration.ZERO;
  private volatile Instant readAt = Instant.EPOCH;

  LiveLag(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** The lag as last read, without reading it again. */
  Duration last() {
    return lag;
  }

  /**
   * The lag, read again when the last reading is older than the poll interval. Batches and carry statements that ask
   * at once share one reading: the run's carry workers take their first turns together.
   */
  synchronized Duration current() {
    if (Duration.between(readAt, Instant.now()).compareTo(POLL) >= 0) {
      try {
        read();
      } catch (QueryFailedException e) {
        // Reading the lag is advisory; the batches report real failures.
        readAt = Instant.now();
      }
    }
    return lag;
  }

  /**
   * Reads the live writer's status now and keeps its lag as the latest reading, so that a turn within the poll
   * interval after it asks nothing again: the run reads it before its first batch to see whether B has closed.
   */
  synchronized LiveStatus read() {
    LiveStatus status = new LiveReader(sql, spec).read();
    lag = status.lag();
    readAt = Instant.now();
    return status;
  }
}
