package dev.cutover.engine.api;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * One hour, the half-open interval {@code [start, start + 1h)}: the unit of idempotence. Its
 * ClickHouse partition id, for a table partitioned by {@code toStartOfHour(time)}, is the start's
 * epoch second, which makes it independent of the server's time zone.
 *
 * <pre>{@code
 * HourPartition h = HourPartition.parse("boundary", "2026-11-29T10:00");
 * h.partitionId(); // "1795946400"
 * }</pre>
 */
public record HourPartition(Instant start) implements Comparable<HourPartition> {

  private static final DateTimeFormatter DISPLAY = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
      .withZone(ZoneOffset.UTC);

  /** The first and the last whole hour a ClickHouse {@code DateTime} (seconds since 1970 in 32 bits) holds. */
  public static final HourPartition FIRST = new HourPartition(Instant.EPOCH);
  public static final HourPartition LAST = new HourPartition(Instant.ofEpochSecond(0xFFFF_FFFFL / 3600 * 3600));

  public HourPartition {
    if (start == null) {
      throw new InvalidInputException("hour", "An hour is missing; give it as 2026-11-29T10:00 (UTC).");
    }
    if (!start.truncatedTo(ChronoUnit.HOURS).equals(start)) {
      throw new InvalidInputException("hour", notOnTheHour("The time", start, " UTC"));
    }
  }

  public static HourPartition of(Instant start) {
    return new HourPartition(start);
  }

  public static HourPartition ofEpochSecond(long epochSecond) {
    return new HourPartition(Instant.ofEpochSecond(epochSecond));
  }

  /** The hour that contains {@code instant}. */
  public static HourPartition containing(Instant instant) {
    return new HourPartition(instant.truncatedTo(ChronoUnit.HOURS));
  }

  /**
   * Parses {@code 2026-11-29T10:00}, {@code 2026-11-29 10:00}, {@code 2026-11-29T10:00:00Z} or a date
   * {@code 2026-11-29} (its first hour), always in UTC; the option or field name goes into the sentence.
   */
  public static HourPartition parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidInputException(field, "The " + field + " is missing; give it as 2026-11-29T10:00 (UTC).");
    }
    String t = text.strip().replace(' ', 'T');
    Instant instant;
    try {
      if (t.matches("\\d{4}-\\d{2}-\\d{2}")) {
        instant = LocalDateTime.parse(t + "T00:00").toInstant(ZoneOffset.UTC);
      } else if (t.endsWith("Z")) {
        instant = Instant.parse(t.length() == 17 ? t.substring(0, 16) + ":00Z" : t);
      } else {
        instant = LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
      }
    } catch (DateTimeParseException e) {
      throw new InvalidInputException(field, "The " + field + " '" + text + "' is not a date and hour; write it as "
          + "2026-11-29T10:00 (UTC) or 2026-11-29 for midnight.");
    }
    if (!instant.truncatedTo(ChronoUnit.HOURS).equals(instant)) {
      throw new InvalidInputException(field, notOnTheHour("The " + field, instant, ""));
    }
    if (instant.isBefore(FIRST.start) || instant.isAfter(LAST.start)) {
      throw new InvalidInputException(field, "The " + field + " " + DISPLAY.format(instant) + " is outside the hours a "
          + "ClickHouse DateTime holds, " + FIRST + " to " + LAST + " UTC; check the year.");
    }
    return new HourPartition(instant);
  }

  /**
   * The sentence for a time past the hour. When only the seconds (or a fraction) are off, the time
   * is shown with them and the sentence says so: "00:00" would look like a whole hour.
   */
  private static String notOnTheHour(String subject, Instant instant, String zone) {
    String hour = DISPLAY.format(instant.truncatedTo(ChronoUnit.HOURS));
    if (instant.truncatedTo(ChronoUnit.MINUTES).equals(instant.truncatedTo(ChronoUnit.HOURS))) {
      String exact = SECONDS.format(instant) + (instant.getNano() == 0 ? ""
          : "." + String.format("%09d", instant.getNano()).replaceAll("0+$", ""));
      return subject + " " + exact + zone + " is not on the hour: its seconds are not zero; give the whole hour "
          + hour + ".";
    }
    return subject + " " + DISPLAY.format(instant) + zone + " is not on the hour; give a whole hour such as " + hour
        + ".";
  }

  public HourPartition plusHours(long hours) {
    return new HourPartition(start.plus(Duration.ofHours(hours)));
  }

  public Instant end() {
    return start.plus(Duration.ofHours(1));
  }

  public long epochSecond() {
    return start.getEpochSecond();
  }

  /** The ClickHouse partition id of this hour in a table partitioned by {@code toStartOfHour(time)}. */
  public String partitionId() {
    return Long.toString(start.getEpochSecond());
  }

  public boolean isBefore(HourPartition other) {
    return start.isBefore(other.start);
  }

  @Override
  public int compareTo(HourPartition o) {
    return start.compareTo(o.start);
  }

  /** {@code 2026-11-29 10:00}, always UTC. */
  @Override
  public String toString() {
    return DISPLAY.format(start);
  }
}
