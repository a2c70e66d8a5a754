package dev.cutover.ui.tasks;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Runs each task on its own virtual thread and hands results back to the FX thread. Progress
 * updates are coalesced so that a chatty task cannot flood the FX queue.
 */
public final class FxTaskExecutor implements TaskExecutor {

  private final BiConsumer<String, Double> progressSink;

  /** @param progressSink receives progress on the FX thread, e.g. a status bar */
  public FxTaskExecutor(BiConsumer<String, Double> progressSink) {
    this.progressSink = progressSink;
  }

  @Override
  public <T> Handle submit(BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
    AtomicBoolean cancelled = new AtomicBoolean();
    AtomicBoolean done = new AtomicBoolean();
    AtomicBoolean updatePending = new AtomicBoolean();
    var latest = new java.util.concurrent.atomic.AtomicReference<Object[]>();
    Progress progress = new Progress() {
      @Override
      public void update(String message, double fraction) {
        latest.set(new Object[] {message, fraction});
        if (updatePending.compareAndSet(false, true)) {
          Platform.runLater(() -> {
            updatePending.set(false);
            Object[] last = latest.get();
            progressSink.accept((String) last[0], (Double) last[1]);
          });
        }
      }

      @Override
      public boolean cancelled() {
        return cancelled.get();
      }
    };
    Thread.ofVirtual().name("cutover-task").start(() -> {
      try {
        T result = task.run(progress);
        done.set(true);
        if (!cancelled.get()) {
          Platform.runLater(() -> onSuccess.accept(result));
        }
      } catch (Throwable failure) {
        done.set(true);
        if (!cancelled.get()) {
          Platform.runLater(() -> onFailure.accept(failure));
        }
      }
    });
    return new Handle() {
      @Override
      public void cancel() {
        cancelled.set(true);
      }

      @Override
      public boolean done() {
        return done.get();
      }
    };
  }
}
