package dev.cutover.engine.backfill;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.tables.TargetTables;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The staging tables of a run: one per batch under way, reused by the batches after it. A table
 * taken for the first time in this process may hold rows a crashed process left, so it is handed
 * out as fresh and its first batch empties it.
 */
final class StagingPool {

  /** A staging table lent to one batch; {@code fresh} when this process has not used it before. */
  record Lease(Identifier table, boolean fresh) {}

  private final TargetTables tables;
  private final String runId;
  private final Queue<Identifier> free = new ConcurrentLinkedQueue<>();
  private final AtomicInteger slots = new AtomicInteger();

  StagingPool(TargetTables tables, String runId) {
    this.tables = tables;
    this.runId = runId;
  }

  /** A free staging table, or a new one when every table is lent. */
  Lease take() {
    Identifier table = free.poll();
    return table != null ? new Lease(table, false) : new Lease(tables.staging(runId, slots.incrementAndGet()), true);
  }

  void giveBack(Lease lease) {
    free.offer(lease.table());
  }
}
