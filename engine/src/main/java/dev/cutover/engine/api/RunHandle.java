package dev.cutover.engine.api;

import java.util.concurrent.CompletableFuture;

/**
 * A backfill run this process drives. Every control is a request to the run's own threads: pause
 * takes effect after the batch in flight, cancel stops before the next statement, and a new
 * throttle applies from the next batch. What happened is told through the run's
 * {@link BackfillEvent.Listener}, and in the end by {@link #completion()}.
 */
public interface RunHandle {

  String id();

  /** The run as last recorded: its state, parameters and heartbeat. */
  RunRecord record();

  /** Waits for the run to end and returns its final record. */
  RunRecord await() throws InterruptedException;

  /** The run's final record, once it has ended. */
  CompletableFuture<RunRecord> completion();

  void pause();

  void resume();

  void cancel();

  boolean paused();

  /** How many batches run at once from the next batch on, within the settings' bounds. */
  void setConcurrency(int concurrency);

  /** The ceiling on rows written per second from the next batch on; 0 lifts it. */
  void setRowsPerSecond(long limit);

  /**
   * The rest after each batch, in percent of the batch's length, from the next batch that ends on;
   * 0 ends the rests. Within 0 and {@link BackfillSettings#MOST_REST_PERCENT}.
   */
  void setRestPercent(int percent);

  /** The throttle the run uses now. */
  BackfillSettings settings();
}
