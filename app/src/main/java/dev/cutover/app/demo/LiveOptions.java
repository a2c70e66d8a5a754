package dev.cutover.app.demo;

import dev.cutover.engine.api.InvalidInputException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * How fast the live job's simulated clock runs, and who hears about it.
 *
 * @param simulatedHour how much real time one simulated hour takes (30 s by default; one hour is real time)
 * @param onStep told after each step, on the job's thread
 * @param onFailure told when a step fails, on the job's thread; the job stops unless the failure is retryable
 */
public record LiveOptions(Duration simulatedHour, Consumer<LiveStep> onStep, Consumer<RuntimeException> onFailure) {

  public static final Duration DEFAULT_SIMULATED_HOUR = Duration.ofSeconds(30);
  public static final Duration REAL_TIME = Duration.ofHours(1);

  public LiveOptions {
    if (simulatedHour == null || simulatedHour.isNegative() || simulatedHour.toMillis() < 60) {
      throw new InvalidInputException("speed", "A simulated hour of " + simulatedHour + " is too short; give at least "
          + "60ms, e.g. 30s (the default) or realtime.");
    }
    if (simulatedHour.compareTo(Duration.ofDays(1)) > 0) {
      throw new InvalidInputException("speed", "A simulated hour of " + simulatedHour + " is slower than a day; give "
          + "at most 24h, e.g. 30s or realtime.");
    }
    onStep = onStep == null ? step -> { } : onStep;
    onFailure = onFailure == null ? failure -> { } : onFailure;
  }

  public static LiveOptions defaults() {
    return new LiveOptions(DEFAULT_SIMULATED_HOUR, null, null);
  }

  /** Real time between two ten-minute steps of simulated time. */
  public Duration stepInterval() {
    return simulatedHour.multipliedBy(DemoState.TICK.toSeconds()).dividedBy(Hours.ONE.toSeconds());
  }

  /**
   * Reads a speed given by an operator: {@code realtime}, or the real time one simulated hour takes,
   * such as {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT30S}).
   */
  public static Duration parseSpeed(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("realtime") || t.equals("real-time")) {
      return REAL_TIME;
    }
    try {
      if (t.startsWith("pt")) {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      var m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m|h)").matcher(t);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          default -> Duration.ofHours(n);
        };
      }
    } catch (RuntimeException e) {
      // fall through to the sentence below
    }
    throw new InvalidInputException("speed", "The speed '" + text + "' is not understood; give the real time one "
        + "simulated hour takes, such as 30s, 500ms or 2m, or realtime.");
  }
}
