package dev.cutover.ui.tasks;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The one door through which screens run background work. A task runs off the FX thread; its
 * progress, result and failure are delivered on the FX thread. A cancelled task delivers nothing.
 *
 * <pre>{@code
 * Handle h = executor.submit(p -> engine.plans().plan(...), (message, fraction) -> status.set(message),
 *     plan -> this.plan.set(plan), error -> this.error.set(Errors.sentence(error)));
 * }</pre>
 */
public interface TaskExecutor {

  /** Runs a task whose progress goes to the console's status line. */
  <T> Handle submit(BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure);

  /** Runs a task whose progress goes to {@code onProgress}, on the FX thread, coalesced. */
  <T> Handle submit(BackgroundTask<T> task, ProgressSink onProgress, Consumer<T> onSuccess,
      Consumer<Throwable> onFailure);

  /** Runs {@code action} on the FX thread (later, or now in a same-thread executor). Safe from any thread. */
  void onFxThread(Runnable action);

  /** Calls {@code tick} on the FX thread every {@code period} until the handle is cancelled. */
  Handle every(Duration period, Runnable tick);

  /** Work to do off the FX thread. It reports progress with {@code progress.update} and checks {@code progress.cancelled()}. */
  @FunctionalInterface
  interface BackgroundTask<T> {
    T run(Progress progress) throws Exception;
  }

  /**
   * Progress reporting from inside a task; safe to call from any thread. It is the engine's progress,
   * so that a task hands it to the engine's long steps, which report through it and stop when the
   * operator cancels.
   */
  interface Progress extends dev.cutover.engine.api.Progress {
    /** {@code fraction} in [0, 1], or negative when unknown. */
    @Override
    void update(String message, double fraction);

    @Override
    boolean cancelled();
  }

  /** Receives a task's progress on the FX thread. */
  @FunctionalInterface
  interface ProgressSink {
    void accept(String message, double fraction);
  }

  /** A submitted task or a repeating tick. */
  interface Handle {
    /**
     * Stops delivering results at once. The work itself stops at its next check of {@link
     * Progress#cancelled()}; a statement already sent to the server runs to its end (interrupting it
     * would break a pooled connection mid-statement).
     */
    void cancel();

    boolean done();
  }
}
