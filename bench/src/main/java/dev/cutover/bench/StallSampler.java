package dev.cutover.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.animation.AnimationTimer;

/**
 * What the FX thread and the renderer were doing while no pulse came: every 4 ms, once the last pulse is
 * over 30 ms old, one sample of both threads' stacks, placed on the clock of {@link System#nanoTime()}.
 * A gap in which the FX thread waits for work is the renderer's or the machine's, not the screen's code;
 * a gap with no sample at all stopped this sampler too (the process was not scheduled, or every thread
 * was stopped).
 */
final class StallSampler implements AutoCloseable {

  /** One look at both threads: what each ran, by its most telling frame ("idle" while it waits for work). */
  record Sample(long atNanos, String fx, String renderer) {}

  private static final long AFTER_NANOS = 30_000_000L;

  private final Thread fxThread;
  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private volatile long lastPulse = System.nanoTime();
  private final AnimationTimer pulses = new AnimationTimer() {
    @Override
    public void handle(long now) {
      lastPulse = System.nanoTime();
    }
  };
  private final Thread sampler;
  /** Read every 4 ms by the sampler's thread, in gaps or not: a gap's counters bracket it. */
  private final CpuContention machine = new CpuContention();
  /** Read and written by the sampler's thread alone. */
  private Thread renderer;

  /** Starts sampling; call on the FX thread. */
  StallSampler() {
    fxThread = Thread.currentThread();
    pulses.start();
    sampler = Thread.ofPlatform().daemon().name("stall-sampler").start(this::sample);
  }

  private void sample() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(4);
      } catch (InterruptedException e) {
        return;
      }
      machine.read();
      if (System.nanoTime() - lastPulse > AFTER_NANOS) {
        if (renderer == null || !renderer.isAlive()) {
          renderer = renderer();
        }
        samples.add(new Sample(System.nanoTime(), telling(fxThread.getStackTrace()),
            renderer == null ? "none" : telling(renderer.getStackTrace())));
      }
    }
  }

  /**
   * JavaFX's renderer thread, or null while it has none. Looked up once, not at every sample: listing every
   * thread stops every thread at a safepoint, which would lengthen the very gap being sampled.
   */
  private static Thread renderer() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("QuantumRenderer")).findFirst().orElse(null);
  }

  /**
   * The frame that says what a thread did: "idle" while it waits for work; else the first frame of
   * Cutover's own code, or else the topmost frame of JavaFX or the JDK.
   */
  static String telling(StackTraceElement[] stack) {
    if (stack.length == 0) {
      return "none";
    }
    String top = stack[0].getClassName() + "." + stack[0].getMethodName();
    boolean waiting = stack[0].getMethodName().startsWith("wait") || stack[0].getMethodName().equals("park")
        || top.contains("getNextRunnable");
    for (StackTraceElement e : stack) {
      if (waiting && (e.getClassName().contains("RunnableQueue") || e.getClassName().contains("LinkedBlockingQueue")
          || e.getClassName().contains("QuantumRenderer"))) {
        return "idle";
      }
      if (e.getClassName().startsWith("dev.cutover.")) {
        return simple(e);
      }
    }
    return simple(stack[0]);
  }

  private static String simple(StackTraceElement e) {
    String cls = e.getClassName();
    return cls.substring(cls.lastIndexOf('.') + 1) + "." + e.getMethodName();
  }

  /**
   * The samples taken in the gap from {@code fromNanos} to {@code toNanos}, in words: each thread's most
   * frequent frame with its count, or that no sample fell in it; then what the machine's counters say of it.
   */
  String within(long fromNanos, long toNanos) {
    List<Sample> in = samples.stream().filter(s -> s.atNanos() >= fromNanos && s.atNanos() <= toNanos).toList();
    String threads = in.isEmpty()
        ? toNanos - fromNanos < AFTER_NANOS + 10_000_000L ? "too short to sample"
            : "no sample: the process itself was held up"
        : "FX thread " + most(in, Sample::fx) + ", renderer " + most(in, Sample::renderer);
    return threads + "; " + machine.within(fromNanos, toNanos);
  }

  /** What the machine's counters say of a longer span, the whole run for one. */
  String machine(long fromNanos, long toNanos) {
    return machine.within(fromNanos, toNanos);
  }

  private static String most(List<Sample> in, Function<Sample, String> of) {
    Map<String, Long> counts = in.stream().collect(Collectors.groupingBy(of, Collectors.counting()));
    var top = counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
    return top.getKey() + " (" + top.getValue() + " of " + in.size() + ")";
  }

  /** Stops sampling; call on the FX thread. */
  @Override
  public void close() {
    sampler.interrupt();
    pulses.stop();
    try {
      sampler.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    machine.close();
  }
}
