package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.HourRange;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The two axes of a report's charts: a value axis with round ticks (1, 2, 2.5 or 5 times a power of
 * ten, labelled 2.5k, 10M) and a time axis with UTC dates whose ticks fall on whole hours, days,
 * Mondays or months, spaced so that their labels never overlap.
 */
final class ChartAxes {

  /** One tick of a value axis: its exact value and its label. */
  record ValueTick(BigDecimal value, String label) {}

  /**
   * One tick of the time axis at {@code hour} hours from the window's start, labelled in one or two
   * lines: {@code 14:00} over {@code 2026-06-03}, or a date alone for ticks a day or more apart.
   */
  record TimeTick(long hour, String line1, String line2) {}

  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");
  private static final int[] HOUR_STEPS = {1, 2, 3, 6, 12, 24, 48, 168, 336};
  private static final int[] MONTH_STEPS = {1, 2, 3, 6, 12};
  private static final BigDecimal[] MULTIPLES = {BigDecimal.ONE, BigDecimal.TWO, new BigDecimal("2.5"),
      BigDecimal.valueOf(5)};

  private ChartAxes() {}

  /**
   * Round ticks from at or below {@code min} to at or above {@code max}, in at most {@code target + 1}
   * steps; a flat series gets a range around its value.
   */
  static List<ValueTick> valueTicks(double min, double max, int target) {
    double lo = min;
    double hi = max;
    if (!(hi > lo)) {
      double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
      lo -= pad;
      hi += pad;
    }
    BigDecimal step = step(lo, hi, Math.max(1, target));
    long first = (long) Math.floor(lo / step.doubleValue());
    long last = (long) Math.ceil(hi / step.doubleValue());
    List<BigDecimal> values = new ArrayList<>();
    for (long i = first; i <= last; i++) {
      values.add(step.multiply(BigDecimal.valueOf(i)));
    }
    BigDecimal largest = values.stream().map(BigDecimal::abs).max(BigDecimal::compareTo).orElse(BigDecimal.ONE);
    return values.stream().map(v -> new ValueTick(v, label(v, largest))).toList();
  }

  /** The smallest of 1, 2, 2.5 or 5 × 10^k whose ticks cover {@code [lo, hi]} in at most {@code target + 1} steps. */
  private static BigDecimal step(double lo, double hi, int target) {
    int exponent = (int) Math.floor(Math.log10(hi - lo)) - 2;
    for (int k = exponent; ; k++) {
      BigDecimal power = BigDecimal.ONE.scaleByPowerOfTen(k);
      for (BigDecimal m : MULTIPLES) {
        BigDecimal candidate = m.multiply(power).stripTrailingZeros();
        double c = candidate.doubleValue();
        if (Math.ceil(hi / c) - Math.floor(lo / c) <= target + 1) {
          return candidate;
        }
      }
    }
  }

  /** {@code 2.5k}, {@code 10M}, {@code -0.05}: short, and exact for a round tick. */
  static String label(BigDecimal value, BigDecimal largest) {
    if (value.signum() == 0) {
      return "0";
    }
    String[] suffixes = {"T", "B", "M", "k"};
    int[] powers = {12, 9, 6, 3};
    // Thousands stay whole up to 9,999: "2500" reads better than "2.5k" beside "5000".
    int[] from = {12, 9, 6, 4};
    for (int i = 0; i < suffixes.length; i++) {
      if (largest.compareTo(BigDecimal.ONE.scaleByPowerOfTen(from[i])) >= 0) {
        return plain(value.scaleByPowerOfTen(-powers[i])) + suffixes[i];
      }
    }
    return plain(value);
  }

  private static String plain(BigDecimal value) {
    return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
  }

  /**
   * Ticks of the time axis over {@code window}, at least {@code minSpacing} pixels apart when an hour
   * is {@code pixelsPerHour} wide.
   */
  static List<TimeTick> timeTicks(HourRange window, double pixelsPerHour, double minSpacing) {
    long start = window.from().epochSecond() / 3600;
    long end = window.to().epochSecond() / 3600;
    for (int step : HOUR_STEPS) {
      if (step * pixelsPerHour >= minSpacing) {
        return hourTicks(start, end, step);
      }
    }
    for (int months : MONTH_STEPS) {
      if (months * 30 * 24 * pixelsPerHour >= minSpacing) {
        return monthTicks(start, end, months);
      }
    }
    return monthTicks(start, end, 12 * (int) Math.ceil(minSpacing / (365 * 24 * pixelsPerHour)));
  }

  private static List<TimeTick> hourTicks(long start, long end, int step) {
    List<TimeTick> ticks = new ArrayList<>();
    LocalDate previous = null;
    for (long h = start; h < end; h++) {
      if (!onStep(h, step)) {
        continue;
      }
      LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochSecond(h * 3600), ZoneOffset.UTC);
      if (step < 24) {
        boolean newDay = !t.toLocalDate().equals(previous);
        ticks.add(new TimeTick(h - start, TIME.format(t), newDay ? DATE.format(t) : ""));
        previous = t.toLocalDate();
      } else {
        ticks.add(new TimeTick(h - start, DATE.format(t), ""));
      }
    }
    return ticks;
  }

  /** Whole hours for steps below a day; midnights for days; Mondays (every other one for 336) for weeks. */
  private static boolean onStep(long epochHour, int step) {
    if (step < 24) {
      return epochHour % step == 0;
    }
    if (epochHour % 24 != 0) {
      return false;
    }
    long day = epochHour / 24;
    return step < 168 ? day % (step / 24) == 0 : Math.floorMod(day - 4, step / 24) == 0;
  }

  private static List<TimeTick> monthTicks(long start, long end, int months) {
    List<TimeTick> ticks = new ArrayList<>();
    LocalDate first = LocalDate.ofInstant(Instant.ofEpochSecond(start * 3600), ZoneOffset.UTC).withDayOfMonth(1);
    for (LocalDate d = first; ; d = d.plusMonths(1)) {
      long h = d.atStartOfDay(ZoneOffset.UTC).toEpochSecond() / 3600;
      if (h >= end) {
        break;
      }
      if (h >= start && (d.getMonthValue() - 1) % months == 0) {
        ticks.add(new TimeTick(h - start, DATE.format(d), ""));
      }
    }
    return ticks;
  }

  /** A value's position between {@code lo} (at {@code bottom}) and {@code hi} (at {@code top}). */
  static double y(double value, BigDecimal lo, BigDecimal hi, double top, double bottom) {
    double l = lo.doubleValue();
    double span = hi.doubleValue() - l;
    return bottom - (value - l) / span * (bottom - top);
  }

  /** Rounds a coordinate for the SVG: a tenth of a pixel is finer than any screen. */
  static String px(double value) {
    return BigDecimal.valueOf(Math.round(value * 10) / 10.0).setScale(1, RoundingMode.HALF_EVEN).stripTrailingZeros()
        .toPlainString();
  }
}
