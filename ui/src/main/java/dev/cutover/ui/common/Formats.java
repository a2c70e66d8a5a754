package dev.cutover.ui.common;

import dev.cutover.engine.api.Figures;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * How numbers, times and durations read on screen: figures and times as everywhere else ({@link
 * dev.cutover.engine.api.Figures}: UTC, grouped digits, at most three after the point), short durations.
 */
public final class Formats {

  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  private Formats() {}

  public static String count(long n) {
    return Figures.count(n);
  }

  public static String number(double v) {
    return Figures.decimal(v);
  }

  /** A short number for a chart's axis: 1.2G, 3.4M, 5.6k, 7.8, with a minus sign when negative. */
  public static String compact(double v) {
    double a = Math.abs(v);
    String s = a >= 1e9 ? String.format(Locale.ROOT, "%.1fG", a / 1e9) : a >= 1e6 ? String.format(Locale.ROOT, "%.1fM",
        a / 1e6) : a >= 1e3 ? String.format(Locale.ROOT, "%.1fk", a / 1e3) : String.format(Locale.ROOT, "%.1f", a);
    return (v < 0 ? "−" : "") + s;
  }

  public static String signed(double v) {
    return (v > 0 ? "+" : "") + number(v);
  }

  public static String time(Instant at) {
    return at == null ? "—" : Figures.time(at);
  }

  /** The time of day only, for what was read moments ago: 10:42:07 UTC. */
  public static String clock(Instant at) {
    return at == null ? "—" : CLOCK.format(at) + " UTC";
  }

  public static String bytes(long b) {
    if (b < 1024) {
      return b + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = b;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** As the command line shows it ({@link Figures#duration}); "—" when there is none. */
  public static String duration(Duration d) {
    return d == null ? "—" : Figures.duration(d);
  }

  public static String hours(long n) {
    return count(n) + (n == 1 ? " hour" : " hours");
  }
}
