package dev.cutover.app.cli;

import dev.cutover.app.output.ProgressOutput;
import dev.cutover.app.output.ProgressOutput.Level;
import dev.cutover.app.output.Text;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.RunState;
import java.util.Locale;

/** A backfill's events as progress: hours done of the run, rows per second, the run's ETA, and what happens. */
final class BackfillProgress implements BackfillEvent.Listener {

  private final ProgressOutput progress;
  private boolean begun;
  private String lastWaiting = "";

  BackfillProgress(ProgressOutput progress) {
    this.progress = progress;
  }

  @Override
  public synchronized void on(BackfillEvent event) {
    switch (event) {
      case BackfillEvent.Progress p -> {
        if (!begun) {
          progress.step("Backfill", p.hoursTotal(), "hours");
          begun = true;
        }
        if (!p.waiting().isEmpty() && !p.waiting().equals(lastWaiting)) {
          progress.message(Level.INFO, p.waiting());
        }
        lastWaiting = p.waiting();
        progress.progress(p.hoursDone(), p.rowsPerSecond(), p.eta(), p.hoursFailed() > 0
            ? Text.count(p.hoursFailed()) + " failed" : "");
      }
      case BackfillEvent.Retrying r -> progress.message(Level.WARNING, "retrying the hours from "
          + Text.hour(r.hours().getFirst()) + " in " + Text.duration(r.backoff()) + " (attempt " + r.attempt() + "): "
          + r.error());
      case BackfillEvent.HourFailed f -> progress.message(Level.ERROR, "hour " + Text.hour(f.hour()) + " failed: "
          + f.error());
      case BackfillEvent.StateChanged s when s.state() != RunState.RUNNING && s.state() != RunState.SUCCEEDED ->
          progress.message(Level.INFO, s.state().name().toLowerCase(Locale.ROOT) + ": " + s.message());
      default -> { }
    }
  }
}
