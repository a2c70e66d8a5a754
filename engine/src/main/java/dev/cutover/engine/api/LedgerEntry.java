package dev.cutover.engine.api;

import java.time.Instant;

/**
 * What a run did to one hour of its target: written with rows, written empty on purpose (the
 * corrected output has no rows, so the target partition was emptied), carried unchanged from v1
 * (an hour outside a bounded repair's affected window; {@code checksum} is what v1 held then), or
 * failed.
 */
public record LedgerEntry(String runId, HourPartition hour, State state, long rows, long checksum, int attempts,
    Instant at, String error) {

  public enum State {
    WRITTEN,
    EMPTIED,
    CARRIED,
    FAILED
  }

  public boolean complete() {
    return state != State.FAILED;
  }

  /** Whether the hour was carried from v1 rather than recomputed. */
  public boolean carried() {
    return state == State.CARRIED;
  }
}
