package dev.cutover.app.output;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The shapes every JSON document shares: an hour is the instant it starts, a window is
 * {@code {"from": …, "to": …}} (half-open), a duration is a number of seconds.
 */
public final class Shapes {

  private Shapes() {}

  /**
   * A half-open window of whole hours, {@code [from, to)}.
   *
   * @param from the first hour
   * @param to the hour after the last
   */
  public record Window(Instant from, Instant to) {

    public static Window of(HourRange range) {
      return new Window(range.from().start(), range.to().start());
    }

    public static Window of(Optional<HourRange> range) {
      return range.map(Window::of).orElse(null);
    }
  }

  /** The start of the hour, or null. */
  public static Instant hour(HourPartition hour) {
    return hour == null ? null : hour.start();
  }

  public static Instant hour(Optional<HourPartition> hour) {
    return hour.map(HourPartition::start).orElse(null);
  }

  /** Seconds, to the millisecond: {@code 1.5}. */
  public static BigDecimal seconds(Duration d) {
    return d == null ? null : BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros();
  }

  public static BigDecimal seconds(Optional<Duration> d) {
    return d.map(Shapes::seconds).orElse(null);
  }

  /** An enum constant as the contract writes it: lower case, {@code duplicate_in_v1}. */
  public static String name(Enum<?> e) {
    return e == null ? null : e.name().toLowerCase(java.util.Locale.ROOT);
  }
}
