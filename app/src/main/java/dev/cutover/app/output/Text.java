package dev.cutover.app.output;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How the command line writes numbers, durations and times for people, one way each, figures and times as the
 * console writes them ({@link Figures}): counts as {@code 1,234,567}; durations as {@code 850 ms}, {@code 12.3 s}, {@code 4 min 05 s},
 * {@code 2 h 05 min}; hours as {@code 2026-11-30 03:00 UTC}; instants as
 * {@code 2026-11-30 03:00:51 UTC}.
 */
public final class Text {

  private static final DateTimeFormatter MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
      .withZone(ZoneOffset.UTC);

  private Text() {}

  /** {@code 1,234,567}. */
  public static String count(long n) {
    return Figures.count(n);
  }

  /** {@code 1,234,567} rows per second, rounded. */
  public static String rate(double perSecond) {
    return Double.isFinite(perSecond) ? count(Math.round(perSecond)) : "?";
  }

  /** {@code 1 hour} or {@code 24 hours}, counted. */
  public static String hours(long n) {
    return count(n) + (n == 1 ? " hour" : " hours");
  }

  /** A decimal with thousands separators, at most three digits after the point, as the console shows it. */
  public static String decimal(double d) {
    return Figures.decimal(d);
  }

  /** One way for every duration, as the console shows it ({@link Figures#duration}). */
  public static String duration(Duration d) {
    return Figures.duration(d);
  }

  /** {@code 2026-11-30 03:00 UTC}. */
  public static String hour(HourPartition h) {
    return Figures.hour(h);
  }

  /** {@code 2026-11-30 03:00 UTC} for a whole hour, {@code 2026-11-30 03:00:51 UTC} otherwise. */
  public static String time(Instant t) {
    return Figures.time(t);
  }

  /** {@code 2026-05-01 00:00 to 2026-11-30 03:00 UTC}: the first hour, and the hour after the last. */
  public static String window(HourRange r) {
    return MINUTES.format(r.from().start()) + " to " + MINUTES.format(r.to().start()) + " UTC";
  }

  /** {@code 2026-11-30T03:00}: an hour as an option takes it. */
  public static String option(HourPartition h) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm").withZone(ZoneOffset.UTC).format(h.start());
  }
}
