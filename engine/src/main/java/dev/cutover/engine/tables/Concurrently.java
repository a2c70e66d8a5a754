package dev.cutover.engine.tables;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Statements run side by side, at most so many at once; the first failure is the caller's. */
final class Concurrently {

  private Concurrently() {}

  static void run(List<Runnable> statements, int atOnce) {
    if (statements.size() <= 1 || atOnce <= 1) {
      statements.forEach(Runnable::run);
      return;
    }
    try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(atOnce, statements.size()),
        Thread.ofVirtual().name("cutover-link-", 0).factory())) {
      List<Future<?>> running = statements.stream().<Future<?>>map(pool::submit).toList();
      RuntimeException first = null;
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (first == null) {
            first = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            running.forEach(other -> other.cancel(true));
          }
        } catch (java.util.concurrent.CancellationException ignored) {
          // cancelled after the first failure
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          running.forEach(other -> other.cancel(true));
          throw new IllegalStateException("interrupted while linking partitions", e);
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }
}
