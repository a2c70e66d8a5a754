package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** How a run cuts its pending hours into batches, and in which order it writes them. */
final class Batches {

  private Batches() {}

  /**
   * Batches written as one task at most, when nothing holds the run back between batches: their INSERTs
   * one after the other, each of the batch's own hours, then one checksum of all their hours and one
   * ledger statement. A checksum costs about 5 ms before its first row and a ledger statement as much, on a
   * table of six months of hourly parts, against about 4 ms of hashing a day (runs of 2026-12-03, in docs/BENCHMARKS.md's history);
   * four batches pay those fixed costs once. At most {@link #SETTLED_HOURS} hours: a failed task is
   * written again whole, and its hours reach the ledger together.
   */
  static final int SETTLED_TOGETHER = 4;

  /** Hours written as one task at most, however small its batches: see {@link #SETTLED_TOGETHER}. */
  static final int SETTLED_HOURS = 96;

  /**
   * How many of {@code batches}, from {@code from} on, one task writes: the batch at {@code from} and those
   * right after it while each follows the one before without a gap and every hour of theirs is {@code
   * joinable}, at most {@link #SETTLED_TOGETHER} batches and {@link #SETTLED_HOURS} hours. One when the
   * batch at {@code from} is not joinable.
   */
  static int together(List<List<HourPartition>> batches, int from, Predicate<HourPartition> joinable) {
    List<HourPartition> first = batches.get(from);
    if (!first.stream().allMatch(joinable)) {
      return 1;
    }
    int count = 1;
    int hours = first.size();
    while (from + count < batches.size() && count < SETTLED_TOGETHER) {
      List<HourPartition> next = batches.get(from + count);
      if (hours + next.size() > SETTLED_HOURS || !batches.get(from + count - 1).getLast().plusHours(1)
          .equals(next.getFirst()) || !next.stream().allMatch(joinable)) {
        break;
      }
      hours += next.size();
      count++;
    }
    return count;
  }

  /** Consecutive pending hours, at most {@code size} per batch. */
  static List<List<HourPartition>> of(List<HourPartition> pending, int size) {
    List<List<HourPartition>> out = new ArrayList<>();
    List<HourPartition> current = new ArrayList<>();
    for (HourPartition h : pending) {
      if (!current.isEmpty() && (current.size() >= size || !current.getLast().plusHours(1).equals(h))) {
        out.add(current);
        current = new ArrayList<>();
      }
      current.add(h);
    }
    if (!current.isEmpty()) {
      out.add(current);
    }
    return out;
  }
}
