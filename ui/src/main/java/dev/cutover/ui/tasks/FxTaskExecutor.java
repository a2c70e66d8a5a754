package dev.cutover.ui.tasks;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Runs each task on its own virtual thread and hands results back to the FX thread. Progress
 * updates are coalesced so that a chatty task cannot flood the FX queue.
 */
public final class FxTaskExecutor implements TaskExecutor {

  private final ProgressSink statusLine;

  /** @param statusLine receives progress of tasks submitted without their own sink, on the FX thread */
  public FxTaskExecutor(ProgressSink statusLine) {
    this.statusLine = statusLine;
  }

  @Override
  public <T> Handle submit(BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
    return submit(task, statusLine, onSuccess, onFailure);
  }

  @Override
  public <T> Handle submit(BackgroundTask<T> task, ProgressSink onProgress, Consumer<T> onSuccess,
      Consumer<Throwable> onFailure) {
    AtomicBoolean cancelled = new AtomicBoolean();
    AtomicBoolean done = new AtomicBoolean();
    AtomicBoolean updatePending = new AtomicBoolean();
    AtomicReference<Object[]> latest = new AtomicReference<>();
    Progress progress = new Progress() {
      @Override
      public void update(String message, double fraction) {
        latest.set(new Object[] {message, fraction});
        if (updatePending.compareAndSet(false, true)) {
          Platform.runLater(() -> {
            updatePending.set(false);
            Object[] last = latest.get();
            if (!cancelled.get()) {
              onProgress.accept((String) last[0], (Double) last[1]);
            }
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
        Platform.runLater(() -> {
          if (!cancelled.get()) {
            onSuccess.accept(result);
          }
        });
      } catch (Throwable failure) {
        done.set(true);
        Platform.runLater(() -> {
          if (!cancelled.get()) {
            onFailure.accept(failure);
          }
        });
      }
    });
    return new Handle() {
      @Override
      public void cancel() {
        cancelled.set(true);
      }

      @Override
      public boolean done() {
        return done.get() || cancelled.get();
      }
    };
  }

  @Override
  public void onFxThread(Runnable action) {
    if (Platform.isFxApplicationThread()) {
      action.run();
    } else {
      Platform.runLater(action);
    }
  }

  @Override
  public Handle every(Duration period, Runnable tick) {
    AtomicBoolean stopped = new AtomicBoolean();
    Thread.ofVirtual().name("cutover-ticker").start(() -> {
      while (!stopped.get()) {
        try {
          Thread.sleep(period);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        Platform.runLater(() -> {
          if (!stopped.get()) {
            tick.run();
          }
        });
      }
    });
    return new Handle() {
      @Override
      public void cancel() {
        stopped.set(true);
      }

      @Override
      public boolean done() {
        return stopped.get();
      }
    };
  }
}
