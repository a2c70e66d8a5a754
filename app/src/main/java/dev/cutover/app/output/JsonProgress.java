package dev.cutover.app.output;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code --progress json}: one JSON event per line on standard error. Progress events come at most
 * once a second within a step, and always at its end, so a follower of a long backfill reads a few
 * thousand lines, not one per hour.
 */
final class JsonProgress implements ProgressOutput {

  private static final long EVERY_NANOS = 1_000_000_000L;

  private final PrintWriter err;
  private final String command;
  private final long started = System.nanoTime();
  private String step = "";
  private long total;
  private String unit = "";
  private long lastAt = Long.MIN_VALUE;

  JsonProgress(PrintWriter err, String command) {
    this.err = err;
    this.command = command;
  }

  @Override
  public synchronized void step(String name, long total, String unit) {
    this.step = name;
    this.total = total;
    this.unit = unit;
    this.lastAt = Long.MIN_VALUE;
    emit(new ProgressEvent.Step("step", command, Instant.now(), name, total, unit));
  }

  @Override
  public synchronized void progress(long done, double ratePerSecond, Optional<Duration> eta, String detail) {
    long now = System.nanoTime();
    boolean last = total > 0 && done >= total;
    if (!last && lastAt != Long.MIN_VALUE && now - lastAt < EVERY_NANOS) {
      return;
    }
    lastAt = now;
    double fraction = total <= 0 ? 0 : Math.min(1.0, (double) done / total);
    emit(new ProgressEvent.Progress("progress", command, Instant.now(), step, done, total, unit,
        Math.round(fraction * 10_000) / 10_000.0, Double.isFinite(ratePerSecond) ? ratePerSecond : null,
        Shapes.seconds(eta), detail));
  }

  @Override
  public synchronized void message(Level level, String text) {
    emit(new ProgressEvent.Message("message", command, Instant.now(), level.name().toLowerCase(Locale.ROOT), text));
  }

  @Override
  public synchronized void close() {
    emit(new ProgressEvent.Finished("finished", command, Instant.now(),
        Shapes.seconds(Duration.ofNanos(System.nanoTime() - started))));
  }

  private void emit(ProgressEvent event) {
    err.println(JsonOutput.write(event));
    err.flush();
  }
}
