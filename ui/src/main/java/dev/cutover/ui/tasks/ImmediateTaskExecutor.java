package dev.cutover.ui.tasks;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs tasks on the calling thread: for model tests that need no FX thread. */
public final class ImmediateTaskExecutor implements TaskExecutor {

  private final List<String> progressMessages = new ArrayList<>();

  @Override
  public <T> Handle submit(BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
    try {
      onSuccess.accept(task.run(new Progress() {
        @Override
        public void update(String message, double fraction) {
          progressMessages.add(message);
        }

        @Override
        public boolean cancelled() {
          return false;
        }
      }));
    } catch (Exception e) {
      onFailure.accept(e);
    }
    return new Handle() {
      @Override
      public void cancel() {}

      @Override
      public boolean done() {
        return true;
      }
    };
  }

  public List<String> progressMessages() {
    return List.copyOf(progressMessages);
  }
}
