package dev.cutover.engine.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a backfill will do, decided before anything is written: the hours it writes (all before the
 * boundary), the overlap window the live writers share, estimates, and the exact statements.
 *
 * @param liveEdge the newest hour the live writer has written
 * @param overlap {@code [boundary, liveEdge + 1h)}, the hours v1 and v2 are both written live; empty
 *     when the live edge is not past the boundary
 * @param statements the statements of the first batch, with its values shown inline
 * @param pinned whether the boundary is the one the target's repair pinned; false when this plan's
 *     backfill will pin it
 * @param resumes the run this plan continues, when it resumes one: its range and boundary are the run's
 */
public record Plan(TableSpec spec, HourRange range, HourPartition boundary, HourPartition liveEdge,
    List<HourPartition> hours, Optional<HourRange> overlap, Estimates estimates, List<String> statements,
    BackfillSettings settings, boolean pinned, Optional<String> resumes) {

  public Plan {
    hours = List.copyOf(hours);
    statements = List.copyOf(statements);
    for (HourPartition h : hours) {
      if (!h.isBefore(boundary)) {
        throw new IllegalArgumentException("plan holds hour " + h + " at or after the boundary " + boundary);
      }
    }
  }

  /**
   * @param sourceRows rows of the sources in the range, estimated from {@code system.parts}
   * @param sourceBytes bytes on disk of those rows
   * @param sampleHour time to compute one sample hour of the transform
   * @param duration the whole run at the plan's concurrency, from the sample
   */
  public record Estimates(long sourceRows, long sourceBytes, Duration sampleHour, Duration duration) {}
}
