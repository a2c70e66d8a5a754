package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourPartition;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Phaser;

/**
 * The hours a bounded repair carries from v1, written beside its computed batches rather than before or
 * after them: a carry links v1's parts (kernel time on the server, no row read), a computed batch reads
 * and computes rows, and the two share the machine better than they queue. {@link #STATEMENTS_AT_ONCE}
 * statements at once, each {@code REPLACE PARTITION … FROM v1} of up to {@link #HOURS_PER_STATEMENT}
 * hours, whatever the throttle's concurrency, which counts computed batches: on two cores two statements
 * at once took 0.6× to 0.8× of one after the other, and the linking costs about a millisecond of server
 * CPU per part (docs/BENCHMARKS.md, section 9).
 *
 * <p>Each statement waits its turn as a batch does (not while the run is paused or stopping, the server
 * away, its disk short or the live writer behind), but takes no place of the throttle's and keeps no
 * rest after it. Every statement is idempotent, so a retry or a resume carries the same hours again;
 * each one's hours reach the ledger as carried once it has run ({@link BatchTask}).
 */
final class CarryLane {

  /**
   * Hours carried per statement at most, where the statement's text allows ({@link #TEXT_PER_STATEMENT}). In one run
   * each on two cores (docs/BENCHMARKS.md, section 9), six months carried in statements of a thousand hours took the
   * bounded repair's backfill to 0.93× its floor, in two statements of half the hours 1.12×, in six of equal size
   * 1.27×: within the runs' spread, so the simplest stays.
   */
  static final int HOURS_PER_STATEMENT = 1000;

  /**
   * Characters of a statement's text at most: the server refuses a query longer than 256 KiB ({@code max_query_size}),
   * and an hour takes a {@code REPLACE PARTITION ID '…' FROM db.v1} of some 60 characters, more with long names.
   */
  static final int TEXT_PER_STATEMENT = 200_000;

  /** Carry statements at once. */
  static final int STATEMENTS_AT_ONCE = 2;

  private final Queue<List<HourPartition>> statements;
  private final Pacing pacing;
  private final BatchTask.Context context;
  private final Phaser running = new Phaser(1);

  /** The lane for {@code carried}, pending hours the run carries, in order, each hour {@code perHour} characters. */
  CarryLane(List<HourPartition> carried, int perHour, Pacing pacing, BatchTask.Context context) {
    this.statements = new ConcurrentLinkedQueue<>(Batches.of(carried, perStatement(perHour)));
    this.pacing = pacing;
    this.context = context;
  }

  /** Hours to a statement, each hour {@code perHour} characters of its text. */
  static int perStatement(int perHour) {
    return Math.max(1, Math.min(HOURS_PER_STATEMENT, TEXT_PER_STATEMENT / Math.max(1, perHour)));
  }

  /** Starts the lane's workers, which take the statements in order until none is left or the run stops. */
  void start() {
    for (int i = 0; i < Math.min(STATEMENTS_AT_ONCE, statements.size()); i++) {
      running.register();
      Thread.ofVirtual().name("carry-" + context.runId() + "-" + i).start(() -> {
        try {
          work();
        } finally {
          running.arriveAndDeregister();
        }
      });
    }
  }

  /** Waits for every worker to end: all statements carried, or the run stopping. */
  void await() {
    running.arriveAndAwaitAdvance();
  }

  private void work() {
    try {
      for (List<HourPartition> hours = statements.poll(); hours != null; hours = statements.poll()) {
        if (!pacing.awaitTurn()) {
          return;
        }
        new BatchTask(context, hours, true, () -> { }).write();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
