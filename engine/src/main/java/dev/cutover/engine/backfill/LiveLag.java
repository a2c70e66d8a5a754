package dev.cutover.engine.backfill;

import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
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

  /** The lag, read again when the last reading is older than the poll interval. */
  Duration current() {
    if (Duration.between(readAt, Instant.now()).compareTo(POLL) >= 0) {
      try {
        lag = new LiveReader(sql, spec).read().lag();
      } catch (QueryFailedException e) {
        // Reading the lag is advisory; the batches report real failures.
      }
      readAt = Instant.now();
    }
    return lag;
  }
}
