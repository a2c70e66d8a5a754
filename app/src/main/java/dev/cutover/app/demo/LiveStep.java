package dev.cutover.app.demo;

import java.time.Instant;
import java.util.List;

/**
 * One step of the live job: the sources that arrived in {@code [from, to)} of simulated time are
 * in, and every hour that closed by then is written.
 *
 * @param from the clock before the step
 * @param to the clock after it
 * @param watermark every hour before it is closed
 * @param written the hours written in this step, per version, in order
 */
public record LiveStep(Instant from, Instant to, Instant watermark, List<HourWrite> written) {

  public LiveStep {
    written = List.copyOf(written);
  }
}
