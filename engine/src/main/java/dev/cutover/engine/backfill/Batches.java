package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** How a run cuts its pending hours into batches, and in which order it writes them. */
final class Batches {

  private Batches() {}

  /**
   * Hours carried from v1 per batch, at least: a carry links parts and computes nothing, so what a
   * batch costs is its statements (the replace, the checksum, the ledger line), not its hours.
   */
  static final int CARRY_HOURS = 240;

  /**
   * The batches of {@code pending}: the hours the run recomputes first, {@code size} at a time, those
   * it carries from v1 last, at least {@link #CARRY_HOURS} at a time, so that the carry is taken as late
   * as the run allows. No batch mixes the two.
   */
  static List<List<HourPartition>> inOrder(List<HourPartition> pending, Predicate<HourPartition> computes, int size) {
    List<List<HourPartition>> batches = new ArrayList<>(of(pending.stream().filter(computes).toList(), size));
    batches.addAll(of(pending.stream().filter(computes.negate()).toList(), Math.max(size, CARRY_HOURS)));
    return batches;
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
