package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourPartition;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Phaser;
import java.util.function.BiConsumer;

/**
 * The hours a bounded repair carries from v1, written beside its computed batches rather than before or
 * after them: a carry links v1's parts (kernel time on the server, no row read), a computed batch reads
 * and computes rows, and the two share the machine better than they queue. {@link #STATEMENTS_AT_ONCE}
 * statements at once, each {@code REPLACE PARTITION … FROM v1} of an equal share of the hours ({@link #statements}),
 * whatever the throttle's concurrency, which counts computed batches: on two cores two statements
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
    this.statements = new ConcurrentLinkedQueue<>(statements(carried, perHour));
    this.pacing = pacing;
    this.context = context;
  }

  /** Hours to a statement at most, each hour {@code perHour} characters of its text. */
  static int perStatement(int perHour) {
    return Math.max(1, TEXT_PER_STATEMENT / Math.max(1, perHour));
  }

  /**
   * {@code carried} in statements of equal size, as few as the text allows, their number a multiple of {@link
   * #STATEMENTS_AT_ONCE}: every worker carries the same share and none waits idle at the end. Each statement costs
   * its turn's checks, the proof of its hours and their ledger lines besides its links, about 0.15 s on two cores, so
   * fewer statements end sooner: the six months of the demo go in two. A statement names each of its hours, so a gap
   * among them (hours a resume finds carried) splits none.
   */
  static List<List<HourPartition>> statements(List<HourPartition> carried, int perHour) {
    if (carried.isEmpty()) {
      return List.of();
    }
    int count = Math.ceilDiv(carried.size(), perStatement(perHour));
    count = Math.ceilDiv(count, STATEMENTS_AT_ONCE) * STATEMENTS_AT_ONCE;
    int size = Math.ceilDiv(carried.size(), count);
    List<List<HourPartition>> out = new java.util.ArrayList<>();
    for (int i = 0; i < carried.size(); i += size) {
      out.add(List.copyOf(carried.subList(i, Math.min(carried.size(), i + size))));
    }
    return out;
  }

  /** Starts the lane's workers, which take the statements in order until none is left or the run stops. */
  void start() {
    // Platform threads: the lane exists to keep two statements under way, and in a traced run (section 9) a second
    // virtual worker was not scheduled until the first had carried both statements.
    launch((i, worker) -> Thread.ofPlatform().daemon().name("carry-" + context.runId() + "-" + i).start(worker),
        this::work);
  }

  /**
   * Launches the lane's workers with {@code launcher}, each running {@code work}, and returns how many: as many as
   * there are statements, at most {@link #STATEMENTS_AT_ONCE}, counted once before the first is launched. Counted
   * again after each launch, a first worker quick to take its statement left the lane a single worker, which carried
   * every statement one after the other: now and then a carry took twice its floor (section 9).
   */
  int launch(BiConsumer<Integer, Runnable> launcher, Runnable work) {
    int workers = Math.min(STATEMENTS_AT_ONCE, statements.size());
    for (int i = 0; i < workers; i++) {
      running.register();
      launcher.accept(i, () -> {
        try {
          work.run();
        } finally {
          running.arriveAndDeregister();
        }
      });
    }
    return workers;
  }

  /** The next statement's hours, or null when every statement is taken. */
  List<HourPartition> next() {
    return statements.poll();
  }

  /** Waits for every worker to end: all statements carried, or the run stopping. */
  void await() {
    running.arriveAndAwaitAdvance();
  }

  private void work() {
    try {
      for (List<HourPartition> hours = next(); hours != null; hours = next()) {
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
