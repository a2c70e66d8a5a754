package dev.cutover.app.output;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;

/**
 * Progress as plain lines, for a log or a pipe: a line when a step begins, one at each tenth of it,
 * and every message.
 */
final class LineProgress implements ProgressOutput {

  private final PrintWriter err;
  private String step = "";
  private long total;
  private String unit = "";
  private long lastTenth = -1;

  LineProgress(PrintWriter err) {
    this.err = err;
  }

  @Override
  public synchronized void step(String name, long total, String unit) {
    this.step = name;
    this.total = total;
    this.unit = unit;
    this.lastTenth = -1;
    line(name + (total > 0 ? " (" + Text.count(total) + " " + unit + ")" : ""));
  }

  @Override
  public synchronized void progress(long done, double ratePerSecond, Optional<Duration> eta, String detail) {
    long tenth = total <= 0 ? 0 : Math.min(10, done * 10 / total);
    if (tenth == lastTenth) {
      return;
    }
    lastTenth = tenth;
    line(describe(step, done, total, unit, ratePerSecond, eta, detail));
  }

  /** {@code Backfill: 40% 18/44 hours, 1,234 rows/s, ETA 12.3 s}: also what the bar's neighbours read. */
  static String describe(String step, long done, long total, String unit, double rate, Optional<Duration> eta,
      String detail) {
    StringBuilder s = new StringBuilder(step).append(": ");
    if (total > 0) {
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
