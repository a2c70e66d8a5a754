package dev.cutover.engine.backfill;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.TableSpec;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Whether B has closed: the live edge (the newest hour of v1) is at least the safety margin past B,
 * so that the hours below B have stopped receiving events, as any boundary must be before a backfill
 * writes below it. A boundary behind the live edge (a live job outside the database) is closed when
 * the run starts. A boundary in the future (a corrected view deployed with it) closes later: the run
 * waits, saying how many hours are left, and writes nothing meanwhile. Time is read from the data, not
 * from this machine's clock, as the boundary was chosen.
 */
final class BoundaryClock {

  private static final Duration POLL = Duration.ofSeconds(1);

  private final TableSpec spec;
  private final HourPartition boundary;
  private final Supplier<LiveStatus> live;

  /** {@code live} reads the live writer's status now (the run's {@link LiveLag}, which keeps the lag it read). */
  BoundaryClock(TableSpec spec, HourPartition boundary, Supplier<LiveStatus> live) {
    this.spec = spec;
    this.boundary = boundary;
    this.live = live;
  }

  /** The live edge B must reach to have closed. */
  HourPartition closesAt() {
    return boundary.plusHours(spec.safetyMargin().toHours());
  }

  /**
   * Waits until B has closed; false when {@code stopping} says the run stops first. Each reading of the
   * live edge is reported through {@code waiting} while the run waits, and an empty sentence once it
   * no longer does.
   */
  boolean await(BooleanSupplier stopping, Consumer<String> waiting) throws InterruptedException {
    boolean waited = false;
    while (!stopping.getAsBoolean()) {
      Optional<HourPartition> edge;
      try {
        edge = live.get().liveEdge();
      } catch (CutoverException unreadable) {
        edge = Optional.empty(); // the server away for a moment: read again
      }
      if (edge.isPresent() && !edge.get().isBefore(closesAt())) {
        if (waited) {
          waiting.accept("");
        }
        return true;
      }
      waited = true;
      waiting.accept(sentence(edge));
      Thread.sleep(POLL);
    }
    return false;
  }

  String sentence(Optional<HourPartition> edge) {
    String left = edge.map(e -> ", " + hours(Duration.between(e.start(), closesAt().start()).toHours()) + " to go")
        .orElse("");
    return "Waiting for B = " + boundary + " to close: the corrected live writer owns it, and the backfill writes "
        + "the hours before it once the live edge reaches " + closesAt() + " (the safety margin of "
        + hours(spec.safetyMargin().toHours()) + " past B); the live edge is "
        + edge.map(Object::toString).orElse("not readable now") + left + ". Nothing is written meanwhile.";
  }

  private static String hours(long n) {
    return n == 1 ? "1 hour" : n + " hours";
  }
}
