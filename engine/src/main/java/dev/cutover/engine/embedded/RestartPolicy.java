package dev.cutover.engine.embedded;

import dev.cutover.engine.api.InvalidInputException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Whether {@code cutover server} starts a new embedded server when the one it keeps up dies, and how
 * often: at most {@code maxRestarts} within {@code window}, so that a server that dies as soon as it
 * starts (a full disk, a broken store) is not restarted forever.
 *
 * <pre>{@code
 * RestartPolicy.DEFAULT;       // restarts, at most 5 times within 10 minutes
 * RestartPolicy.NO_RESTART;    // ends at the first death (cutover server --no-restart)
 * }</pre>
 */
public record RestartPolicy(boolean restart, int maxRestarts, Duration window) {

  public static final RestartPolicy DEFAULT = new RestartPolicy(true, 5, Duration.ofMinutes(10));
  public static final RestartPolicy NO_RESTART = new RestartPolicy(false, 0, Duration.ofMinutes(10));

  public RestartPolicy {
    if (maxRestarts < 0 || restart && maxRestarts == 0) {
      throw new InvalidInputException("maxRestarts", "A server that restarts needs at least one restart, and "
          + maxRestarts + " was given; give 1 or more, or do not restart.");
    }
    if (window.isNegative() || window.isZero()) {
      throw new InvalidInputException("window", "The window in which restarts are counted must be longer than "
          + "zero, and " + window + " was given.");
    }
  }

  /** The restarts one {@code cutover server} has made, counted within the policy's window. */
  final class Budget {
    private final Deque<Instant> restarts = new ArrayDeque<>();

    /** Takes one restart at {@code now}; false when the policy allows none, or none is left in the window. */
    boolean take(Instant now) {
      while (!restarts.isEmpty() && !restarts.peekFirst().isAfter(now.minus(window))) {
        restarts.removeFirst();
      }
      if (!restart || restarts.size() >= maxRestarts) {
        return false;
      }
      restarts.addLast(now);
      return true;
    }

    /** How many restarts the window holds now, this one included. */
    int used() {
      return restarts.size();
    }
  }

  Budget budget() {
    return new Budget();
  }

  /** The policy in words: {@code at most 5 restarts within 10 min}. */
  String describe() {
    String within = window.toSeconds() % 60 == 0 ? window.toMinutes() + " min" : window.toSeconds() + " s";
    return restart ? "at most " + maxRestarts + " restart" + (maxRestarts == 1 ? "" : "s") + " within " + within
        : "no restart";
  }
}
