package dev.cutover.app.output;

import java.time.Duration;
import java.util.Optional;

/**
 * Where a long step reports how far it is: a live bar on a terminal, plain lines otherwise, or one
 * JSON event per line for a runbook or CI ({@code --progress json}). All of it goes to standard
 * error, so that standard output keeps the result alone.
 *
 * <pre>{@code
 * try (ProgressOutput progress = options.open("backfill", err)) {
 *   progress.step("Backfill", 4392, "hours");
 *   progress.progress(12, 2_000_000.0, Optional.of(Duration.ofSeconds(40)), "");
 * }
 * }</pre>
 */
public interface ProgressOutput extends AutoCloseable {

  /** How much a message matters. */
  enum Level {
    INFO,
    WARNING,
    ERROR
  }

  /** A step begins: {@code total} units of {@code unit} (0 when unknown, for a step without a count). */
  void step(String name, long total, String unit);

  /**
   * How far the current step is: {@code done} of its total, the rate of its own measure (rows per
   * second for a backfill; NaN when unknown), the time left when the step knows it, and a short detail.
   */
  void progress(long done, double ratePerSecond, Optional<Duration> eta, String detail);

  /** A sentence the operator should see as it happens: a retry, a failed hour, a wait. */
  void message(Level level, String text);

  /** The work ended: a bar is finished and the line left clean. */
  @Override
  void close();

  /** Nothing at all. */
  ProgressOutput NONE = new ProgressOutput() {
    @Override
    public void step(String name, long total, String unit) {}

    @Override
    public void progress(long done, double ratePerSecond, Optional<Duration> eta, String detail) {}

    @Override
    public void message(Level level, String text) {}

    @Override
    public void close() {}
  };
}
