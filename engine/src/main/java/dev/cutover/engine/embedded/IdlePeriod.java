package dev.cutover.engine.embedded;

import dev.cutover.engine.api.InvalidInputException;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * How long a server waits, once the last process using it has left, before it stops by itself: five
 * minutes, or {@code CUTOVER_SERVER_IDLE}, or what {@code cutover server --idle} says.
 */
final class IdlePeriod {

  /** The idle period unless the environment or an option says otherwise. */
  static final Duration DEFAULT = Duration.ofMinutes(5);

  private static final Pattern DURATION = Pattern.compile("(\\d{1,7})\\s*(s|m|h)?");

  private IdlePeriod() {}

  /** The idle period from {@code CUTOVER_SERVER_IDLE} (seconds, or 90s, 10m, 2h), else {@link #DEFAULT}. */
  static Duration fromEnvironment() {
    String value = System.getenv("CUTOVER_SERVER_IDLE");
    return value == null || value.isBlank() ? DEFAULT : parse("CUTOVER_SERVER_IDLE", value);
  }

  /**
   * An idle period as an operator writes it: seconds, or a number with s, m or h. Anything else is
   * bad input named after {@code field}, the option or variable it came from.
   */
  static Duration parse(String field, String text) {
    var m = DURATION.matcher(text.strip());
    if (!m.matches()) {
      throw new InvalidInputException(field, "The idle period '" + text + "' (" + field
          + ") is not a duration; give one such as 300 (seconds), 90s, 10m or 2h.");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2) == null ? "s" : m.group(2)) {
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofSeconds(n);
    };
  }
}
