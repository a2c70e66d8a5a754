package dev.cutover.engine.api;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A command the spec runs when the repair reaches a step ({@code hooks} in the spec): a notification, a ticket, a
 * check of the operator's own. It is run without a shell, with one JSON document describing the event on its
 * standard input. A hook before a step ({@code backfill_start}, {@code before_cutover}, {@code before_rollback})
 * that fails, or outlives its timeout, refuses the step with nothing changed; a hook after one only says that it
 * failed. Every run, with its exit and duration, goes to the audit trail.
 *
 * @param command the program and its arguments, as given; the program is looked up on the PATH when not a path
 */
public record Hook(Event on, List<String> command, Duration timeout) {

  public Hook {
    command = List.copyOf(command);
  }

  /** When a hook runs. */
  public enum Event {
    /** Before a backfill run starts; its failure refuses the run. */
    BACKFILL_START(true),
    /** When a backfill run ends, whatever its state. */
    RUN_END(false),
    /** When a reconciliation of the whole repair has its verdict, green or not. */
    VERDICT(false),
    /**
     * The first time the cutover gate of a repair is judged open, by any process (a console's read, status,
     * cutover --check, an armed turn): once per repair, however often the gate is judged open after it.
     */
    GATE_OPEN(false),
    /** Before consumers are switched to v2; its failure refuses the cutover. */
    BEFORE_CUTOVER(true),
    /** After consumers were switched to v2. */
    AFTER_CUTOVER(false),
    /** Before consumers are switched back to v1; its failure refuses the rollback. */
    BEFORE_ROLLBACK(true),
    /** After consumers were switched back to v1. */
    AFTER_ROLLBACK(false);

    private final boolean before;

    Event(boolean before) {
      this.before = before;
    }

    /** Whether the event comes before its step, so that the hook's failure refuses the step. */
    public boolean before() {
      return before;
    }

    /** The event as the spec and the hook's JSON name it: {@code before_cutover}. */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The command as an operator reads it, for sentences and the audit trail. */
  public String shown() {
    return String.join(" ", command);
  }
}
