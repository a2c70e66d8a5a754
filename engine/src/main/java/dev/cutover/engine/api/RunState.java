package dev.cutover.engine.api;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where a backfill run stands. A run that was RUNNING or PAUSED when its process died is found with
 * a stale heartbeat and reported as interrupted; resuming it continues from its ledger.
 */
public enum RunState {
  RUNNING,
  PAUSED,
  SUCCEEDED,
  FAILED,
  CANCELLED;

  private Set<RunState> next() {
    return switch (this) {
      case RUNNING -> EnumSet.of(PAUSED, SUCCEEDED, FAILED, CANCELLED);
      case PAUSED -> EnumSet.of(RUNNING, CANCELLED, FAILED);
      case SUCCEEDED -> EnumSet.noneOf(RunState.class);
      case FAILED, CANCELLED -> EnumSet.of(RUNNING); // resumed: continues from its ledger
    };
  }

  public boolean canBecome(RunState target) {
    return next().contains(target);
  }

  /** Whether the run holds its target: no other run may write it meanwhile. */
  public boolean active() {
    return this == RUNNING || this == PAUSED;
  }

  public boolean finished() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }
}
