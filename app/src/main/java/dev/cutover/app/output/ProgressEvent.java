package dev.cutover.app.output;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * The events of {@code --progress json}, one JSON object per line on standard error (see
 * docs/JSON.md, "Progress events"). Every event names itself, the command and the time.
 */
public sealed interface ProgressEvent {

  /** A step begins. {@code total} is 0 for a step without a count. */
  record Step(String event, String command, Instant at, String step, long total, String unit)
      implements ProgressEvent {}

  /** How far the step is; {@code rowsPerSecond} and {@code etaSeconds} are null when unknown. */
  record Progress(String event, String command, Instant at, String step, long done, long total, String unit,
      double fraction, Double rowsPerSecond, BigDecimal etaSeconds, String detail) implements ProgressEvent {}

  /** A sentence for the operator: {@code info}, {@code warning} or {@code error}. */
  record Message(String event, String command, Instant at, String level, String message) implements ProgressEvent {}

  /** The work ended, after {@code tookSeconds}. */
  record Finished(String event, String command, Instant at, BigDecimal tookSeconds) implements ProgressEvent {}
}
