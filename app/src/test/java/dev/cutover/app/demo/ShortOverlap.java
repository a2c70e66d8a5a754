package dev.cutover.app.demo;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The demo's spec with the overlap the gate requires shortened from 24 hours: a test that steps the live job ten
 * minutes at a time spent most of its time on a day of steps that prove nothing a shorter overlap does not.
 */
final class ShortOverlap {

  /** The overlap these tests require from B, in hours. */
  static final int HOURS = 2;

  private ShortOverlap() {}

  /** Rewrites the exported spec at {@code spec} to require {@link #HOURS} of overlap; returns its path. */
  static Path in(Path spec) {
    try {
      String text = Files.readString(spec);
      if (!text.contains("minimum_overlap_hours: 24")) {
        throw new IllegalStateException("The demo's spec no longer requires 24 hours of overlap: " + spec);
      }
      Files.writeString(spec, text.replace("minimum_overlap_hours: 24", "minimum_overlap_hours: " + HOURS));
      return spec;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * When the live job's clock has gone far enough past {@code b} for the overlap {@code spec} requires to be
   * judged: a view-fed hour is judged once the newest event is the spec's safety margin past it.
   */
  static Instant settled(TableSpec spec, HourPartition b) {
    return b.start().plus(spec.minimumOverlap()).plus(Duration.ofHours(1)).plus(spec.safetyMargin());
  }
}
