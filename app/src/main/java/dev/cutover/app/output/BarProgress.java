package dev.cutover.app.output;

import java.io.PrintStream;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A live bar on a terminal, redrawn in place, with the step's rate and time left. The step's own
 * estimate of the time left (a backfill's, from its batches) is shown when it has one.
 */
final class BarProgress implements ProgressOutput {

  private final PrintStream terminal;
  private final int width;
  private ProgressBar bar;
  private volatile Optional<Duration> eta = Optional.empty();

  BarProgress(PrintStream terminal, int width) {
    this.terminal = terminal;
    this.width = width;
  }

  @Override
  public synchronized void step(String name, long total, String unit) {
    finishBar();
    eta = Optional.empty();
    if (total <= 0) {
      terminal.println(name);
      terminal.flush();
      return;
    }
    bar = new ProgressBarBuilder()
        .setTaskName(name)
        .setInitialMax(total)
        .setUnit(" " + unit, 1)
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(250)
        .showSpeed()
        .setSpeedUnit(ChronoUnit.SECONDS)
        .setEtaFunction(state -> eta.isPresent() ? eta : Optional.empty())
        .setConsumer(new ConsoleProgressBarConsumer(terminal, width))
        .build();
  }

  @Override
  public synchronized void progress(long done, double ratePerSecond, Optional<Duration> eta, String detail) {
    if (bar == null) {
      return;
    }
    this.eta = eta;
    bar.stepTo(done);
    String extra = Double.isFinite(ratePerSecond) ? Text.rate(ratePerSecond) + " rows/s" : "";
    String message = detail.isEmpty() ? extra : extra.isEmpty() ? detail : extra + ", " + detail;
    bar.setExtraMessage(message.isEmpty() ? "" : " " + message);
  }

  @Override
  public synchronized void message(Level level, String text) {
    // Over the bar's line, which the next refresh draws again below.
    terminal.print("\r" + " ".repeat(width) + "\r");
    terminal.println(level == Level.INFO ? text : level.name().toLowerCase(java.util.Locale.ROOT) + ": " + text);
    terminal.flush();
  }

  @Override
  public synchronized void close() {
    finishBar();
  }

  private void finishBar() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }
}
