package dev.cutover.ui.common;

import dev.cutover.ui.tasks.TaskExecutor;
import dev.cutover.ui.tasks.TaskExecutor.BackgroundTask;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * One long step of a screen as the screen sees it: whether it runs, what it is doing, how far it got,
 * and the sentence of its last failure. At most one task runs per activity; it can be cancelled.
 */
public final class Activity {

  private final TaskExecutor executor;
  private final BooleanProperty running = new SimpleBooleanProperty();
  private final StringProperty message = new SimpleStringProperty("");
  private final DoubleProperty progress = new SimpleDoubleProperty(-1);
  private final StringProperty error = new SimpleStringProperty("");
  private final BooleanProperty cancellable = new SimpleBooleanProperty(true);
  private String doing = "";
  private TaskExecutor.Handle handle;
  private long generation;

  public Activity(TaskExecutor executor) {
    this.executor = executor;
  }

  /**
   * Runs {@code task} in the background. {@code doing} names the step for messages and errors
   * ("plan the backfill"); {@code onSuccess} runs on the FX thread.
   */
  public <T> void run(String doing, BackgroundTask<T> task, Consumer<T> onSuccess) {
    run(doing, task, onSuccess, failure -> {});
  }

  public <T> void run(String doing, BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
    start(doing, task, onSuccess, onFailure, true);
  }

  /**
   * Runs a step that must be seen to its end: once started on the server it goes on whether anyone
   * waits or not (a swap across nodes and its switch-back, the start of runs), so the step offers no
   * Cancel and its result is always applied; another step waits until it has ended.
   */
  public <T> void runToTheEnd(String doing, BackgroundTask<T> task, Consumer<T> onSuccess,
      Consumer<Throwable> onFailure) {
    start(doing, task, onSuccess, onFailure, false);
  }

  private <T> void start(String doing, BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure,
      boolean mayCancel) {
    if (handle != null && !handle.done()) {
      if (!cancellable.get()) {
        error.set("Wait until " + this.doing + " has ended: it cannot be cancelled once started.");
        return;
      }
      handle.cancel();
    }
    this.doing = doing;
    cancellable.set(mayCancel);
    long mine = ++generation;
    error.set("");
    message.set(capitalise(doing) + "…");
    progress.set(-1);
    running.set(true);
    handle = executor.submit(task,
        (text, fraction) -> {
          if (mine == generation) {
            message.set(text);
            progress.set(fraction);
          }
        },
        result -> {
          if (mine == generation) {
            running.set(false);
            message.set("");
            onSuccess.accept(result);
          }
        },
        failure -> {
          if (mine == generation) {
            running.set(false);
            message.set("");
            error.set(Errors.sentence(failure, doing));
            onFailure.accept(failure);
          }
        });
  }

  /** Stops waiting for the step; the screen is usable at once. */
  public void cancel() {
    if (handle != null && running.get() && cancellable.get()) {
      handle.cancel();
      generation++;
      running.set(false);
      message.set("");
      error.set("Cancelled. Anything the server had already finished stays as it is.");
    }
  }

  /** Shows a failure that happened outside a task, such as input the screen refused. */
  public void fail(String sentence) {
    error.set(sentence);
  }

  public void clearError() {
    error.set("");
  }

  /** Whether the step under way may be cancelled: false for one run {@link #runToTheEnd to the end}. */
  public ReadOnlyBooleanProperty cancellableProperty() {
    return cancellable;
  }

  public ReadOnlyBooleanProperty runningProperty() {
    return running;
  }

  public boolean running() {
    return running.get();
  }

  public ReadOnlyStringProperty messageProperty() {
    return message;
  }

  public ReadOnlyDoubleProperty progressProperty() {
    return progress;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error;
  }

  public String error() {
    return error.get();
  }

  private static String capitalise(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
