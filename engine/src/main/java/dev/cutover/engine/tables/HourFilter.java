package dev.cutover.engine.tables;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code WHERE} condition that selects some hours of a table by its time column, as ranges the
 * server prunes parts by: consecutive hours become one range, so the hours a bounded repair
 * recomputes, or a few hours between long carried stretches, are read without the rest.
 */
public final class HourFilter {

  /** Beyond this many separate stretches, one range over all of them with a list of the hours in it. */
  static final int MAX_RANGES = 64;

  /**
   * The setting for a read filtered by whole hours alone (by {@link #of} when {@link #byRanges}, or by one
   * range): on a table partitioned by the hour such a filter selects whole partitions, and the server's
   * habit of filtering rows by the time column before it reads the others ({@code PREWHERE}) is then a
   * second pass over every part for nothing. Without it a batch's checksum took half the time, and a read
   * of six months' checksums or totals 11 to 25% less (runs of 2026-12-02, in docs/BENCHMARKS.md's history).
   */
  public static final String WHOLE_PARTITIONS = "optimize_move_to_prewhere = 0";

  private HourFilter() {}

  /** Whether {@link #of} selects {@code hours} (sorted, none twice) by ranges alone, which select whole partitions. */
  public static boolean byRanges(List<HourPartition> hours) {
    int stretches = 0;
    for (int i = 0; i < hours.size(); i++) {
      if (i == 0 || !hours.get(i - 1).plusHours(1).equals(hours.get(i))) {
        stretches++;
      }
    }
    return stretches <= MAX_RANGES;
  }

  /**
   * The condition on {@code time} that selects {@code hours} (sorted, none twice, at least one);
   * its bound values are added to {@code values}.
   */
  public static String of(Identifier time, List<HourPartition> hours, List<Object> values) {
    List<long[]> ranges = new ArrayList<>();
    for (HourPartition h : hours) {
      long start = h.epochSecond();
      if (!ranges.isEmpty() && ranges.getLast()[1] == start) {
        ranges.getLast()[1] = h.plusHours(1).epochSecond();
      } else {
        ranges.add(new long[] {start, h.plusHours(1).epochSecond()});
      }
    }
    String t = time.quoted();
    String range = "(" + t + " >= toDateTime(?, 'UTC') AND " + t + " < toDateTime(?, 'UTC'))";
    if (ranges.size() > MAX_RANGES) {
      values.add(ranges.getFirst()[0]);
      values.add(ranges.getLast()[1]);
      values.add(hours.stream().map(HourPartition::epochSecond).toList());
      return range + " AND has(?, toUnixTimestamp(toStartOfHour(" + t + ")))";
    }
    List<String> parts = new ArrayList<>();
    for (long[] r : ranges) {
      values.add(r[0]);
      values.add(r[1]);
      parts.add(range);
    }
    return "(" + String.join(" OR ", parts) + ")";
  }
}
