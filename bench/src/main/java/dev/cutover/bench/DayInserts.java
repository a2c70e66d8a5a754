package dev.cutover.bench;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Statement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.BenchProbes;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The corrected transform of a range into a table, one {@code INSERT … SELECT} a day: the floor a backfill in
 * batches of a day is compared with, and the full recompute others check against. With more than one connection,
 * that many workers take the days from one shared queue, each on a pool connection of its own, so that as many
 * days are computed at once as a backfill at that concurrency computes batches.
 */
final class DayInserts {

  private DayInserts() {}

  /** The days of {@code range} in order, the last cut at the range's end. */
  static List<HourRange> days(HourRange range) {
    List<HourRange> days = new ArrayList<>();
    for (HourPartition day = range.from(); day.isBefore(range.to()); day = day.plusHours(24)) {
      HourPartition next = day.plusHours(24).isBefore(range.to()) ? day.plusHours(24) : range.to();
      days.add(new HourRange(day, next));
    }
    return days;
  }

  /** One day after the other, on one connection, each statement with {@code settings} (a SETTINGS clause or ""). */
  static void run(BenchSql sql, TableSpec spec, HourRange range, String into, String settings) {
    for (HourRange day : days(range)) {
      insert(sql, spec, day, into, settings);
    }
  }

  /**
   * {@code connections} days at once, each worker taking the next day from a shared queue until none is left; returns
   * when every day is written. A worker whose statement fails empties the queue, so that the others stop after the
   * statement they run, and the failure is thrown.
   */
  static void run(BenchSql sql, TableSpec spec, HourRange range, String into, String settings, int connections)
      throws InterruptedException {
    if (connections <= 1) {
      run(sql, spec, range, into, settings);
      return;
    }
    Queue<HourRange> queue = new ConcurrentLinkedQueue<>(days(range));
    try (ExecutorService workers = Executors.newFixedThreadPool(connections)) {
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        all.add(workers.submit(() -> {
          try {
            for (HourRange day = queue.poll(); day != null; day = queue.poll()) {
              insert(sql, spec, day, into, settings);
            }
          } catch (RuntimeException e) {
            queue.clear();
            throw e;
          }
        }));
      }
      for (Future<?> f : all) {
        try {
          f.get();
        } catch (ExecutionException e) {
          throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
      }
    }
  }

  private static void insert(BenchSql sql, TableSpec spec, HourRange day, String into, String settings) {
    Statement t = BenchProbes.transform(spec, day.from(), day.to());
    sql.execute("compute one day", t.prefixed("INSERT INTO " + into + " SELECT * FROM (").suffixed(")" + settings));
  }
}
