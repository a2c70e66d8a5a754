package dev.cutover.engine.backfill;

import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.ledger.StateStore;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Refreshes a run's heartbeat in the store while it runs, so that others can tell a live run from
 * one whose process died ({@link RunRecord#STALE_AFTER}).
 */
final class Heartbeat {

  private static final Duration EVERY = Duration.ofSeconds(10);

  private final StateStore store;
  private final Supplier<RunRecord> run;
  private final BooleanSupplier over;

  Heartbeat(StateStore store, Supplier<RunRecord> run, BooleanSupplier over) {
    this.store = store;
    this.run = run;
    this.over = over;
  }

  /**
   * Beats on a platform thread of its own until the run is over: a virtual one waits for a free carrier, which busy
   * threads can hold. On a loaded machine of two cores a run's record once went 45 s without a beat while the run
   * wrote on (a reader of this host now asks after the process too: {@code RunRecord.Process}).
   */
  void start() {
    Thread.ofPlatform().daemon().name("heartbeat-" + run.get().id()).start(this::beat);
  }

  private void beat() {
    while (!over.getAsBoolean()) {
      try {
        Thread.sleep(EVERY);
        if (!over.getAsBoolean()) {
          store.heartbeat(run.get());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        // Retried on the next beat: whatever one beat meets, the beating goes on while the run does.
      }
    }
  }
}
