package dev.cutover.ui.tasks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs tasks on the calling thread: for model tests that need no FX thread. Repeating ticks do not
 * run by themselves; a test fires them with {@link #tick()}.
 */
public final class ImmediateTaskExecutor implements TaskExecutor {

  private final List<String> progressMessages = new ArrayList<>();
  private final List<Tick> ticks = new ArrayList<>();

  @Override
  public <T> Handle submit(BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
    return submit(task, (message, fraction) -> {}, onSuccess, onFailure);
  }

  @Override
  public <T> Handle submit(BackgroundTask<T> task, ProgressSink onProgress, Consumer<T> onSuccess,
      Consumer<Throwable> onFailure) {
    T result;
    try {
      result = task.run(new Progress() {
        @Override
        public void update(String message, double fraction) {
          progressMessages.add(message);
          onProgress.accept(message, fraction);
        }

        @Override
        public boolean cancelled() {
          return false;
        }
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      onFailure.accept(e);
      return finished();
    } catch (Exception e) {
      onFailure.accept(e);
      return finished();
    }
    onSuccess.accept(result);
    return finished();
  }

  @Override
  public void onFxThread(Runnable action) {
    action.run();
  }

  @Override
  public Handle every(Duration period, Runnable tick) {
    Tick t = new Tick(tick);
    ticks.add(t);
    return t;
  }

  /** Fires every repeating tick that has not been cancelled, once. */
  public void tick() {
    List.copyOf(ticks).stream().filter(t -> !t.cancelled).forEach(t -> t.action.run());
  }

  /** How many repeating ticks are live: a screen that was left must have stopped its own. */
  public long liveTicks() {
    return ticks.stream().filter(t -> !t.cancelled).count();
  }

  public List<String> progressMessages() {
    return List.copyOf(progressMessages);
  }

  private static Handle finished() {
    return new Handle() {
      @Override
      public void cancel() {}

      @Override
      public boolean done() {
        return true;
      }
    };
  }

  private static final class Tick implements Handle {
    private final Runnable action;
    private boolean cancelled;

    Tick(Runnable action) {
      this.action = action;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    @Override
    public boolean done() {
      return cancelled;
    }
  }
}
