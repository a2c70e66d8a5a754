package dev.cutover.app.cli;

import dev.cutover.app.output.ProgressOutput;
import dev.cutover.engine.api.Progress;
import java.util.Optional;

/**
 * The engine's progress of a step that knows its fraction (a reconciliation, a cutover's checks) as
 * one step in percent, with what it is doing as the detail.
 */
final class StepProgress implements Progress {

  private final ProgressOutput progress;
  private final String name;
  private boolean begun;

  StepProgress(ProgressOutput progress, String name) {
    this.progress = progress;
    this.name = name;
  }

  @Override
  public synchronized void update(String step, double fraction) {
    if (!begun) {
      progress.step(name, 100, "%");
      begun = true;
    }
    long percent = fraction < 0 ? 0 : Math.round(Math.min(1.0, fraction) * 100);
    progress.progress(percent, Double.NaN, Optional.empty(), step);
  }
}
