package dev.cutover.bench;

import static dev.cutover.bench.UiBench.onFx;

import com.sun.javafx.perf.PerformanceTracker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javafx.scene.Scene;

/**
 * Times a step on a shown screen as the operator sees it: from the click to the last frame the renderer
 * finished for it, by the renderer's own callback (JavaFX's scene tracker), through the pulses the step
 * causes. A snapshot would render the scene once more in a way the console never does; this is the frame
 * the window shows. Each step starts on a quiet screen, after a pause for the operator's hand.
 */
final class FrameClock {

  /** The screen counts as quiet once no frame has been rendered for this long. */
  private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(150);

  /** What one step cost: its handler, the first pulse after it, and its last frame after the click and how many it caused. */
  record Sample(double handler, double pulse, double lastFrame, int frames) {}

  private final AtomicLong lastFrame = new AtomicLong(System.nanoTime());
  private final AtomicInteger frames = new AtomicInteger();
  private volatile boolean armed;
  private volatile long pulseStart;
  private volatile long pulseEnd;

  FrameClock(Scene scene) {
    onFx(() -> {
      // Runs on the renderer's thread as each frame of this scene is finished.
      PerformanceTracker.getSceneTracker(scene).setOnRenderedFrameTask(() -> {
        lastFrame.set(System.nanoTime());
        frames.incrementAndGet();
      });
      scene.addPreLayoutPulseListener(() -> {
        if (armed && pulseStart == 0) {
          pulseStart = System.nanoTime();
        }
      });
      scene.addPostLayoutPulseListener(() -> {
        if (armed && pulseStart != 0 && pulseEnd == 0) {
          pulseEnd = System.nanoTime();
        }
      });
      return null;
    });
  }

  /** Waits for a quiet screen and {@code pauseMillis} more, runs {@code step} on the FX thread, and times it. */
  Sample time(Runnable step, long pauseMillis) throws InterruptedException {
    quiet();
    Thread.sleep(pauseMillis);
    quiet();
    pulseStart = 0;
    pulseEnd = 0;
    int before = frames.get();
    long[] t = onFx(() -> {
      long t0 = System.nanoTime();
      step.run();
      armed = true;
      return new long[] {t0, System.nanoTime()};
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (frames.get() == before && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    quiet();
    armed = false;
    int caused = frames.get() - before;
    double pulse = pulseEnd == 0 ? Double.NaN : (pulseEnd - pulseStart) / 1e6;
    return new Sample((t[1] - t[0]) / 1e6, pulse, caused == 0 ? Double.NaN : (lastFrame.get() - t[0]) / 1e6,
        caused);
  }

  private void quiet() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() - lastFrame.get() < QUIET_NANOS && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }
}
