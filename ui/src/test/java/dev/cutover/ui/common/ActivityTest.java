package dev.cutover.ui.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A step the operator may stop, and a step that must be seen to its end (a swap across nodes, the start of
 * runs): the second offers no cancel, keeps its result, and holds off another step until it has ended.
 */
class ActivityTest {

  /** Tasks that end only when the test says so, with the result it gives. */
  static final class Held implements TaskExecutor {
    final List<Consumer<Object>> successes = new ArrayList<>();
    final List<Boolean> cancelled = new ArrayList<>();

    @Override
    public <T> Handle submit(BackgroundTask<T> task, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
      return submit(task, (m, f) -> {}, onSuccess, onFailure);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> Handle submit(BackgroundTask<T> task, ProgressSink onProgress, Consumer<T> onSuccess,
        Consumer<Throwable> onFailure) {
      int index = successes.size();
      successes.add(result -> onSuccess.accept((T) result));
      cancelled.add(false);
      return new Handle() {
        @Override
        public void cancel() {
          cancelled.set(index, true);
        }

        @Override
        public boolean done() {
          return cancelled.get(index);
        }
      };
    }

    @Override
    public void onFxThread(Runnable action) {
      action.run();
    }

    @Override
    public Handle every(Duration period, Runnable tick) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aStepThatMustEndOffersNoCancelAndItsResultIsAlwaysShown() {
    Held executor = new Held();
    Activity activity = new Activity(executor);
    List<Object> shown = new ArrayList<>();
    activity.runToTheEnd("cut over on every node", p -> "switched", shown::add, f -> {});
    assertFalse(activity.cancellableProperty().get());

    activity.cancel();
    assertTrue(activity.running(), "Cancel does not pretend to stop a swap");
    activity.run("reconcile every shard", p -> "verdict", shown::add);
    assertEquals(1, executor.successes.size(), "no other step starts meanwhile");
    assertTrue(activity.error().startsWith("Wait until cut over on every node has ended"), activity.error());
    assertFalse(executor.cancelled.getFirst());

    executor.successes.getFirst().accept("switched");
    assertEquals(List.of("switched"), shown);
    assertFalse(activity.running());
  }

  @Test
  void anOrdinaryStepIsCancelledAndItsLateResultDropped() {
    Held executor = new Held();
    Activity activity = new Activity(executor);
    List<Object> shown = new ArrayList<>();
    activity.run("plan and preflight every shard", p -> "checked", shown::add);
    assertTrue(activity.cancellableProperty().get());
    activity.cancel();
    assertFalse(activity.running());
    executor.successes.getFirst().accept("checked");
    assertEquals(List.of(), shown, "a cancelled step's result is not shown");
  }
}
