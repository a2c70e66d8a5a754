package dev.cutover.engine.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What a running backfill reports to its listeners, from its worker threads. */
public sealed interface BackfillEvent {

  /** An hour was replaced in the target (or emptied on purpose when it has no rows). */
  /** An hour replaced in the target: recomputed, or {@code carried} unchanged from v1 by a bounded repair. */
  record HourWritten(String runId, HourPartition hour, long rows, long checksum, boolean carried)
      implements BackfillEvent {
    public HourWritten(String runId, HourPartition hour, long rows, long checksum) {
      this(runId, hour, rows, checksum, false);
    }
  }

  /** An hour could not be written after every retry. */
  record HourFailed(String runId, HourPartition hour, String error) implements BackfillEvent {}

  /** A batch is being computed. */
  record BatchStarted(String runId, List<HourPartition> hours) implements BackfillEvent {}

  /** A transient failure; the batch will be tried again after {@code backoff}. */
  record Retrying(String runId, List<HourPartition> hours, int attempt, Duration backoff, String error)
      implements BackfillEvent {}

  /** Overall progress, sent after every batch and while waiting. */
  record Progress(String runId, RunState state, long hoursTotal, long hoursDone, long hoursFailed, long rowsWritten,
      double rowsPerSecond, double hoursPerSecond, Optional<Duration> eta, Duration liveLag, String waiting)
      implements BackfillEvent {}

  /** The run changed state; {@code message} says why. */
  record StateChanged(String runId, RunState state, String message) implements BackfillEvent {}

  /** Receives events; must be quick and must not throw. */
  @FunctionalInterface
  interface Listener {
    void on(BackfillEvent event);

    Listener NONE = e -> {};
  }
}
