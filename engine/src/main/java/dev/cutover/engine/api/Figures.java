package dev.cutover.engine.api;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * How a figure, a time and an hour read wherever the operator reads them (the console, the command line, a
 * refusal's sentence), so that the same number never reads two ways: grouped digits, at most three after the point
 * with trailing zeros left out ({@code -21,417.313}, {@code 1.5}, {@code 4,423}); times in UTC to the minute, or to
 * the second when they fall within one ({@code 2026-11-30 03:00 UTC}, {@code 2026-11-30 03:00:51 UTC}); durations
 * in their two largest units ({@code 850 ms}, {@code 12.3 s}, {@code 3 min 05 s}, {@code 2 h 05 min},
 * {@code 3 d 04 h}).
 */
public final class Figures {

  /** The digits after the point a figure keeps. */
  public static final int DECIMALS = 3;

  private static final DateTimeFormatter MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
      .withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
      .withZone(ZoneOffset.UTC);

  private Figures() {}

  /** {@code 1,234,567}. */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code -21,417.313}, {@code 1.5}, {@code 12}: grouped, at most {@link #DECIMALS} after the point. */
  public static String decimal(double v) {
    return Double.isFinite(v) ? decimal(BigDecimal.valueOf(v)) : Double.toString(v);
  }

  /** A figure as the server printed it ({@code -21417.313000000002}), read as {@link #decimal(double)}; kept as printed when it is not a number. */
  public static String decimal(String printed) {
    try {
      return decimal(new BigDecimal(printed.trim()));
    } catch (NumberFormatException e) {
      return printed;
    }
  }

  private static String decimal(BigDecimal v) {
    BigDecimal kept = v.setScale(DECIMALS, RoundingMode.HALF_EVEN).stripTrailingZeros();
    return String.format(Locale.ROOT, "%,." + Math.max(0, kept.scale()) + "f", kept);
  }

  /** {@code 2026-11-30 03:00 UTC} at a whole minute, {@code 2026-11-30 03:00:51 UTC} otherwise. */
  public static String time(Instant t) {
    return (t.getEpochSecond() % 60 == 0 && t.getNano() == 0 ? MINUTES : SECONDS).format(t) + " UTC";
  }

  /**
   * {@code 0 s}, {@code 850 ms}, {@code 12.3 s}, {@code 3 min 05 s}, {@code 2 h 05 min}, {@code 3 d 04 h}: the two
   * largest units, the second one zero-padded, so that a duration that counts down keeps its width.
   */
  public static String duration(java.time.Duration d) {
    if (d.isNegative()) {
      return "-" + duration(d.negated());
    }
    long ms = d.toMillis();
    if (ms == 0) {
      return "0 s";
    }
    if (ms < 1000) {
      return ms + " ms";
    }
    if (ms < 60_000) {
      return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
    long s = d.toSeconds();
    if (s < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format(Locale.ROOT, "%d h %02d min", s / 3600, s % 3600 / 60);
    }
    return String.format(Locale.ROOT, "%d d %02d h", s / 86_400, s % 86_400 / 3600);
  }

  /** {@code 2026-11-30 03:00 UTC}: the hour's first instant. */
  public static String hour(HourPartition h) {
    return MINUTES.format(h.start()) + " UTC";
  }
}
