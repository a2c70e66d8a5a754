package dev.cutover.engine.api;

import java.util.concurrent.CancellationException;

/**
 * Where a long step of the engine (plan, preflight, reconciliation) reports how far it got, and
 * learns that its caller no longer wants the result. The engine checks between statements: a
 * statement already sent runs to its end, and nothing is recorded for a cancelled step.
 *
 * <pre>{@code
 * engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000, Progress.of((step, fraction) -> bar.set(fraction)));
 * }</pre>
 */
public interface Progress {

  /** {@code fraction} in [0, 1], or negative when the amount of work is not known. */
  void update(String step, double fraction);

  /** Whether the caller has given up on the result. */
  default boolean cancelled() {
    return false;
  }

  /** Throws {@link CancellationException} when the caller gave up: nothing further is done or recorded. */
  default void check(String step) {
    if (cancelled()) {
      throw new CancellationException("Cancelled before " + step + "; nothing was recorded.");
    }
  }

  /**
   * The step's outcome is stored from this moment and others act on it (a reconciliation's verdict: the cutover gate
   * and every status read it); what the step does after it completes its record (the report's charts), and is not
   * cancelled. {@code what} names the outcome.
   */
  default void recorded(String what) {}

  /** Reports nowhere and is never cancelled. */
  Progress NONE = (step, fraction) -> {};

  /** Reports to {@code sink}; never cancelled. */
  static Progress of(java.util.function.BiConsumer<String, Double> sink) {
    return sink::accept;
  }
}
