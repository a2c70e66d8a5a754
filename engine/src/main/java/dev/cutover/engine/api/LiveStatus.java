package dev.cutover.engine.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the data says about the live writers, read from the tables alone: the newest hour each
 * version holds, the newest source event, and how far the live writer lags behind it.
 *
 * @param liveEdge newest hour in the live table (v1), if it has any
 * @param targetEdge newest hour in the target (v2), if it has any
 * @param newestEvent newest event time in the sources
 * @param lag how far the newest event is past the end of the live edge (zero when caught up)
 */
public record LiveStatus(Optional<HourPartition> liveEdge, Optional<HourPartition> targetEdge,
    Optional<Instant> newestEvent, Duration lag) {

  /**
   * The first hour that may still change: the hour of the newest event less {@code margin}, since
   * events arrive up to the margin late. The hours before it have settled; empty with no event.
   */
  public Optional<HourPartition> unsettledFrom(Duration margin) {
    return newestEvent.map(n -> HourPartition.containing(n.minus(margin)));
  }
}
