package dev.cutover.engine.backfill;

import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;

/**
 * Yields the server to the live writer: a run that keeps the live lag in check (its throttle sets
 * {@code max_live_lag}) starts no batch while a statement that writes v1 runs on the server, nor in
 * the moment after one ended (the live writer's next statement of the same hour usually follows), and
 * holds back at most {@link #MOST} at a time, so that a writer that never rests does not stop the run.
 * Statements are told by their text naming v1 and their kind (an insert or an alter), the run's own
 * by their mark.
 */
final class LiveWrites {

  /** How long after the last live write seen the run still holds back. */
  static final Duration QUIET = Duration.ofMillis(300);

  /** The longest a run holds back before a batch. */
  static final Duration MOST = Duration.ofSeconds(2);

  private final Sql sql;
  private final TableSpec spec;
  private Instant lastSeen = Instant.EPOCH;
  private Instant holdingSince;

  LiveWrites(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** Whether the next batch should wait a little longer for the live writer. */
  boolean holdBack() {
    boolean writing = writing();
    // Seen as of the read's answer, not its question: on a loaded server the read itself can take longer than
    // the quiet moment, which would otherwise be over before it began.
    Instant now = Instant.now();
    if (writing) {
      lastSeen = now;
    }
    boolean recent = Duration.between(lastSeen, now).compareTo(QUIET) < 0;
    if (!recent) {
      holdingSince = null;
      return false;
    }
    if (holdingSince == null) {
      holdingSince = now;
    }
    if (Duration.between(holdingSince, now).compareTo(MOST) >= 0) {
      holdingSince = null;
      return false;
    }
    return true;
  }

  private boolean writing() {
    try {
      return sql.queryLong("look for the live writer's statements", "SELECT count() FROM system.processes WHERE "
          + "query_kind IN ('Insert', 'Alter') AND position(query, ?) > 0 AND NOT startsWith(Settings['log_comment'], ?)",
          spec.liveTable().name(), BatchWriter.markerOf(spec).strip()) > 0;
    } catch (QueryFailedException e) {
      return false; // advisory, like the lag: the batches report real failures
    }
  }
}
