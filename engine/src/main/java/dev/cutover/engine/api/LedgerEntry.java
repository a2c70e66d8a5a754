package dev.cutover.engine.api;

import java.time.Instant;

/**
 * What a run did to one hour of its target: written with rows, written empty on purpose (the
 * corrected output has no rows, so the target partition was emptied), or failed.
 */
public record LedgerEntry(String runId, HourPartition hour, State state, long rows, long checksum, int attempts,
    Instant at, String error) {

  public enum State {
    WRITTEN,
    EMPTIED,
    FAILED
  }

  public boolean complete() {
    return state != State.FAILED;
  }
}
