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
 * @param affected the hours a bounded bug touched, inside {@code range}: only these are recomputed; the
 *     other hours of the range are carried from v1 ({@code REPLACE PARTITION … FROM v1}). Empty: every
 *     hour is recomputed
 */
public record Plan(TableSpec spec, HourRange range, HourPartition boundary, HourPartition liveEdge,
    List<HourPartition> hours, Optional<HourRange> overlap, Estimates estimates, List<String> statements,
    BackfillSettings settings, boolean pinned, Optional<String> resumes, Optional<HourRange> affected) {

  public Plan {
    hours = List.copyOf(hours);
    statements = List.copyOf(statements);
    for (HourPartition h : hours) {
      if (!h.isBefore(boundary)) {
        throw new IllegalArgumentException("plan holds hour " + h + " at or after the boundary " + boundary);
      }
    }
    affected.ifPresent(a -> {
      if (!range.contains(a.from()) || range.to().isBefore(a.to())) {
        throw new IllegalArgumentException("affected hours " + a + " are not inside the range " + range);
      }
    });
  }

  /** Whether the backfill recomputes {@code hour}; otherwise it carries it from v1. */
  public boolean computes(HourPartition hour) {
    return affected.map(a -> a.contains(hour)).orElse(true);
  }

  /**
   * The hours whose sources the backfill reads: the affected hours of a bounded repair, else the whole
   * range. Carried hours read v1 only, by hard link.
   */
  public HourRange recomputedRange() {
    return affected.orElse(range);
  }

  /** The hours the backfill recomputes with the corrected transform. */
  public List<HourPartition> computed() {
    return hours.stream().filter(this::computes).toList();
  }

  /** The hours the backfill carries from v1 unchanged, by hard link: none when the repair is not bounded. */
  public List<HourPartition> carried() {
    return hours.stream().filter(h -> !computes(h)).toList();
  }

  /**
   * @param sourceRows rows of the sources in the range, estimated from {@code system.parts}
   * @param sourceBytes bytes on disk of those rows
   * @param sampleHour time to compute one sample hour of the transform
   * @param duration the whole run at the plan's concurrency, from the sample
   */
  public record Estimates(long sourceRows, long sourceBytes, Duration sampleHour, Duration duration) {}
}
