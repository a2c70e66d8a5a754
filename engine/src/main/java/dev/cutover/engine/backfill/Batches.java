package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** How a run cuts its pending hours into batches, and the permits that bound how many run at once. */
final class Batches {

  private Batches() {}

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

  static String describe(Set<HourPartition> hours) {
    List<HourPartition> list = new ArrayList<>(hours);
    String shown = list.stream().limit(5).map(HourPartition::toString).reduce((a, b) -> a + ", " + b).orElse("");
    return list.size() > 5 ? shown + " and " + (list.size() - 5) + " more" : shown;
  }

  /** A semaphore whose number of permits can change while it is in use. */
  static final class Permits extends java.util.concurrent.Semaphore {
    private int size;

    Permits(int size) {
      super(size);
      this.size = size;
    }

    synchronized void resize(int newSize) {
      if (newSize > size) {
        release(newSize - size);
      } else if (newSize < size) {
        reducePermits(size - newSize);
      }
      size = newSize;
    }
  }
}
