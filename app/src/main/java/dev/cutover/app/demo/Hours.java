package dev.cutover.app.demo;

import dev.cutover.engine.api.InvalidInputException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Whole UTC hours: the demo's unit of time. An hour {@code H} stands for the half-open interval
 * {@code [H, H + 1h)}.
 */
public final class Hours {

  public static final Duration ONE = Duration.ofHours(1);

  private static final DateTimeFormatter ISO_MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm")
      .withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter READABLE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
      .withZone(ZoneOffset.UTC);

  private Hours() {}

  /** The start of the hour that holds {@code instant}. */
  public static Instant floor(Instant instant) {
    return instant.truncatedTo(ChronoUnit.HOURS);
  }

  public static boolean isWhole(Instant instant) {
    return instant.equals(floor(instant));
  }

  /** The number of whole hours in {@code [from, to)}; both must be whole hours. */
  public static int between(Instant from, Instant to) {
    return Math.toIntExact(Duration.between(from, to).toHours());
  }

  /**
   * Reads an hour given by an operator, in UTC: {@code 2026-11-29T10:00}, with optional seconds and
   * an optional {@code Z} or offset. Refuses anything that is not on the hour, naming the field.
   */
  public static Instant parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidInputException(field, "No hour was given for " + field + "; give a whole UTC hour such as "
          + "2026-11-29T10:00.");
    }
    Instant instant;
    try {
      String t = text.strip().replace(' ', 'T');
      instant = t.endsWith("Z") || t.matches(".*[+-]\\d\\d:\\d\\d$")
          ? OffsetDateTime.parse(t).toInstant()
          : LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(field, "The " + field + " '" + text + "' is not a date and hour; give a whole "
          + "UTC hour in ISO form, such as 2026-11-29T10:00.");
    }
    return requireWhole(field, instant);
  }

  /** Returns {@code instant} if it is on the hour, or refuses it with a sentence naming the field. */
  public static Instant requireWhole(String field, Instant instant) {
    if (!isWhole(instant)) {
      throw new InvalidInputException(field, "The " + field + " " + iso(instant) + " is not on the hour; give a "
          + "whole UTC hour such as " + iso(floor(instant)) + ".");
    }
    return instant;
  }

  /** {@code 2026-11-29T10:00}, the form operators type. */
  public static String iso(Instant instant) {
    return ISO_MINUTES.format(instant);
  }

  /** {@code 2026-11-29 10:00 UTC}, the form the status shows. */
  public static String readable(Instant instant) {
    return READABLE.format(instant) + " UTC";
  }
}
