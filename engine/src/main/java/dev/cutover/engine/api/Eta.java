package dev.cutover.engine.api;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The time a run has left, from its recent pace: the moments its count of hours done went up, over the last
 * {@link #WINDOW}. Hours are written a batch at a time with rests between, so the pace is measured from one
 * completion to another (rests and pacing included), and between completions the estimate counts down rather than
 * jump with where a sample falls: while the pace holds, it never rises. When no hour completes for much longer than
 * the intervals seen, the run has slowed, and the estimate grows with the wait. Its range comes from the fastest and
 * slowest interval in the window. Not thread-safe: one reader of a run feeds it.
 */
public final class Eta {

  /** How far back the pace is measured. */
  public static final Duration WINDOW = Duration.ofMinutes(3);
  /** How many completions the window needs before it says anything. */
  static final int ENOUGH = 3;
  /** How many of the intervals seen a wait may last before it counts as a slowdown. */
  static final double SLOWDOWN = 3.0;

  /** A time left, with the range the recent intervals allow. */
  public record Estimate(Duration left, Duration soonest, Duration latest) {}

  private record Completion(Instant at, long done) {}

  private final List<Completion> completions = new ArrayList<>();

  /** The count of hours done at {@code at}; only a rise counts (a count read again unchanged changes nothing). */
  public void observe(Instant at, long done) {
    if (!completions.isEmpty() && done <= completions.getLast().done()) {
      return;
    }
    completions.addLast(new Completion(at, done));
    // The oldest completion kept is the last one at or before the window's start, so the window is covered whole.
    while (completions.size() > ENOUGH && Duration.between(completions.get(1).at(), at).compareTo(WINDOW) >= 0) {
      completions.removeFirst();
    }
  }

  /** Forgets the pace: after a pause, a resume or another run. */
  public void reset() {
    completions.clear();
  }

  /** The time left at {@code now} with {@code remaining} hours to go; empty until the pace is known. */
  public Optional<Estimate> at(Instant now, long remaining) {
    if (remaining <= 0) {
      return Optional.of(new Estimate(Duration.ZERO, Duration.ZERO, Duration.ZERO));
    }
    if (completions.size() < ENOUGH) {
      return Optional.empty();
    }
    Completion first = completions.getFirst();
    Completion last = completions.getLast();
    double seconds = Duration.between(first.at(), last.at()).toMillis() / 1000.0;
    if (seconds <= 0) {
      return Optional.empty();
    }
    double rate = (last.done() - first.done()) / seconds;
    List<Double> rates = new ArrayList<>();
    List<Double> gaps = new ArrayList<>();
    Completion before = null;
    for (Completion c : completions) {
      if (before != null) {
        double gap = Math.max(0.001, Duration.between(before.at(), c.at()).toMillis() / 1000.0);
        gaps.add(gap);
        rates.add((c.done() - before.done()) / gap);
      }
      before = c;
    }
    double since = Math.max(0, Duration.between(last.at(), now).toMillis() / 1000.0);
    double longestGap = gaps.stream().mapToDouble(Double::doubleValue).max().orElse(seconds);
    double left;
    if (since > SLOWDOWN * longestGap) {
      // No hour for much longer than any interval seen: the pace is what it has been up to now, wait included.
      left = remaining / ((last.done() - first.done()) / (seconds + since));
    } else {
      left = Math.max(0, remaining / rate - since);
    }
    double fastest = rates.stream().mapToDouble(Double::doubleValue).max().orElse(rate);
    double slowest = rates.stream().mapToDouble(Double::doubleValue).min().orElse(rate);
    double soonest = Math.min(left, Math.max(0, remaining / fastest - since));
    double latest = Math.max(left, remaining / slowest - since);
    return Optional.of(new Estimate(seconds(left), seconds(soonest), seconds(latest)));
  }

  private static Duration seconds(double s) {
    return Duration.ofMillis(Math.round(s * 1000));
  }
}
