package dev.cutover.ui;

import com.sun.javafx.perf.PerformanceTracker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javafx.scene.Scene;

/**
 * The frames a shown scene's renderer finishes, counted by its own callback (JavaFX's scene tracker): for
 * tests that check a change repaints no more than it must. Create it on the FX thread.
 */
public final class RenderedFrames {

  /** The screen counts as quiet once no frame has been rendered for this long. */
  private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

  private final AtomicInteger count = new AtomicInteger();
  private final AtomicLong last = new AtomicLong(System.nanoTime());

  public RenderedFrames(Scene scene) {
    // Runs on the renderer's thread as each frame of the scene is finished.
    PerformanceTracker.getSceneTracker(scene).setOnRenderedFrameTask(() -> {
      last.set(System.nanoTime());
      count.incrementAndGet();
    });
  }

  /** Frames finished so far. */
  public int count() {
    return count.get();
  }

  /** Waits until no frame has been rendered for 300 ms, or 10 s have passed. */
  public void awaitQuiet() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() - last.get() < QUIET_NANOS && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }
}
