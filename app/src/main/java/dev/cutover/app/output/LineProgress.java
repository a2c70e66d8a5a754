package dev.cutover.app.output;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;

/**
 * Progress as plain lines, for a log or a pipe: a line when a step begins, one at each tenth of it
 * or when it starts doing something else, and every message.
 */
final class LineProgress implements ProgressOutput {

  private final PrintWriter err;
  private String step = "";
  private long total;
  private String unit = "";
  private long lastTenth = -1;
  private String lastPhase = "";

  LineProgress(PrintWriter err) {
    this.err = err;
  }

  @Override
  public synchronized void step(String name, long total, String unit) {
    this.step = name;
    this.total = total;
    this.unit = unit;
    this.lastTenth = -1;
    this.lastPhase = "";
    line(name + (total > 0 && !unit.equals(PERCENT) ? " (" + Text.count(total) + " " + unit + ")" : ""));
  }

  @Override
  public synchronized void progress(long done, double ratePerSecond, Optional<Duration> eta, String detail) {
    long tenth = total <= 0 ? 0 : Math.min(10, done * 10 / total);
    String phase = detail.replaceAll(":.*", "");
    if (tenth == lastTenth && phase.equals(lastPhase)) {
      return;
    }
    lastTenth = tenth;
    lastPhase = phase;
    line(describe(step, done, total, unit, ratePerSecond, eta, detail));
  }

  /** The unit of a step measured in percent: its lines show the percentage alone. */
  static final String PERCENT = "%";

  /** {@code Backfill: 40% 18/44 hours, 1,234 rows/s, ETA 12.3 s}: also what the bar's neighbours read. */
  static String describe(String step, long done, long total, String unit, double rate, Optional<Duration> eta,
      String detail) {
    StringBuilder s = new StringBuilder(step).append(": ");
    if (unit.equals(PERCENT)) {
      s.append(done).append('%');
    } else if (total > 0) {
      s.append(done * 100 / total).append("% ").append(Text.count(done)).append('/').append(Text.count(total))
          .append(' ').append(unit);
    } else {
      s.append(Text.count(done)).append(' ').append(unit);
    }
    if (Double.isFinite(rate)) {
      s.append(", ").append(Text.rate(rate)).append(" rows/s");
    }
    eta.ifPresent(e -> s.append(", ETA ").append(Text.duration(e)));
    if (!detail.isEmpty()) {
      s.append(", ").append(detail);
    }
    return s.toString();
  }

  @Override
  public synchronized void message(Level level, String text) {
    line(level == Level.INFO ? text : level.name().toLowerCase(java.util.Locale.ROOT) + ": " + text);
  }

  @Override
  public void close() {
    err.flush();
  }

  private void line(String text) {
    err.println(text);
    err.flush();
  }
}
