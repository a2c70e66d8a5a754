package dev.cutover.engine.api;

import java.time.Instant;
import java.util.Optional;

/**
 * A cutover armed by the operator: consumers switch to v2 by themselves the first time the gate opens inside the
 * window {@code [at, until)}, the confirmation having been typed when it was armed. Disarmed, switched, or past its
 * window, it is gone. It is a record of intent, not a process: the command that armed it ({@code cutover --arm})
 * and a console open on the repair take its turns.
 *
 * @param by who armed it, {@code user@host}
 */
public record Armed(String target, Instant at, Instant until, String by) {

  /** Times are kept to the millisecond, as the stored arm keeps them. */
  public Armed {
    at = at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    until = until.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
  }

  /** Whether {@code now} lies inside the window. */
  public boolean open(Instant now) {
    return !now.isBefore(at) && now.isBefore(until);
  }

  /**
   * Whether the window has ended at {@code now}: only its end counts, so that a clock a few seconds behind the one
   * that armed it never takes a fresh arm for an ended one.
   */
  public boolean expired(Instant now) {
    return !now.isBefore(until);
  }

  /** {@code armed by root@vm until 2026-12-04 21:30 UTC}. */
  public String describe() {
    return "armed by " + by + " until " + HourPartition.containing(until).toString().substring(0, 10) + " "
        + until.toString().substring(11, 16) + " UTC";
  }

  /** What one turn of an armed cutover found and did. */
  public enum Outcome {
    /** The gate was open inside the window: consumers switched, and the arm is gone. */
    SWITCHED,
    /** The gate is closed (or another swap holds the repair): the arm waits for the next turn. */
    WAITING,
    /** The window passed before the gate opened: the arm is gone, nothing was switched. */
    EXPIRED,
    /** Nothing is armed (never, disarmed, or switched by another process). */
    NOT_ARMED
  }

  /**
   * One turn: its outcome, the arm it found, the gate as judged (when it was), the switch when it happened, and why
   * it waits (the gate's unmet conditions or the holder) in words.
   */
  public record Turn(Outcome outcome, Optional<Armed> armed, Optional<Gate> gate, Optional<SwapResult> switched,
      String sentence) {}
}
