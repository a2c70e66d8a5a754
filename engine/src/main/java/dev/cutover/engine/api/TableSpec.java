package dev.cutover.engine.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One derived, hourly-partitioned table as the engine sees it: where it comes from, which versions
 * exist, who reads it, and how the corrected version is computed. Loaded and validated from YAML by
 * {@code SpecLoader}; see {@code docs/SPEC.md}.
 *
 * @param transform the corrected transform: a SELECT producing exactly the target's columns for the
 *     window {@code [{window_start:DateTime}, {window_end:DateTime})}
 * @param sha256 hash of the spec file's bytes, recorded with every run
 */
public record TableSpec(
    String name,
    Identifier database,
    Identifier liveTable,
    Identifier targetTable,
    Identifier consumerView,
    Identifier timeColumn,
    List<Identifier> keys,
    List<Identifier> measures,
    List<Source> sources,
    String transform,
    List<ExpectedDifference> expectedDifferences,
    Throttle throttle,
    Duration safetyMargin,
    Duration minimumOverlap,
    List<Consumer> consumers,
    Duration retentionMargin,
    String sha256) {

  public TableSpec {
    keys = List.copyOf(keys);
    measures = List.copyOf(measures);
    sources = List.copyOf(sources);
    expectedDifferences = List.copyOf(expectedDifferences);
    consumers = List.copyOf(consumers);
  }

  /**
   * A table the transform reads, and the column that holds each row's event time. The transform
   * names it as {@code {name}}, which the engine expands to the database-qualified table.
   */
  public record Source(String name, Identifier table, Identifier timeColumn) {}

  /**
   * A difference between v1 and v2 that the fix explains: for rows matching {@code where} (an
   * expression over the v1 row's columns), each listed measure's v2 − v1 equals its expression
   * (over {@code v1.col} and {@code v2.col}) within {@code tolerance}.
   */
  public record ExpectedDifference(String name, String where, Map<Identifier, String> expectedDelta,
      double tolerance, String why) {
    public ExpectedDifference {
      expectedDelta = Map.copyOf(expectedDelta);
    }
  }

  /** How hard a backfill may push the server. Zero means "no limit" for the optional ones. */
  public record Throttle(int concurrency, int batchHours, int maxThreads, int priority, long maxMemoryUsage,
      long rowsPerSecond, Duration maxLiveLag) {}

  /** A downstream reader and how long it may cache what it read. */
  public record Consumer(String name, Duration cacheLifetime) {}

  /** The database-qualified, quoted name of a table of this spec. */
  public String qualified(Identifier table) {
    return database.quoted() + "." + table.quoted();
  }
}
