package dev.cutover.ui.tasks;

import java.util.function.Consumer;

/**
 * The one door through which screens run background work. A task runs off the FX thread; its
 * progress, result and failure are delivered on the FX thread.
 */
public interface TaskExecutor {

  <T> Handle submit(BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure);

  /** Work to do off the FX thread. It reports progress with {@code progress.update} and checks {@code progress.cancelled()}. */
  @FunctionalInterface
  interface BackgroundTask<T> {
    T run(Progress progress) throws Exception;
  }

  /** Progress reporting from inside a task; safe to call from any thread. */
  interface Progress {
    /** {@code fraction} in [0, 1], or negative when unknown. */
    void update(String message, double fraction);

    boolean cancelled();
  }

  /** A submitted task. */
  interface Handle {
    void cancel();

    boolean done();
  }
}
