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
 * @param allowedNondeterministic the non-deterministic functions the transform may call, each with the
 *     spec's reason; any other such call is refused when the spec loads
 * @param tolerances the stated tolerance of each floating-point measure that has one; integer and
 *     decimal measures are always compared exactly
 * @param sha256 hash of the whole spec (the file and an external transform file), recorded with every
 *     run and reconciliation; a reconciliation counts for the gate only under the spec it was made with
 * @param transformSha256 hash of what determines v2's rows (the transform, its sources, the tables,
 *     the time column and keys); every backfill of one repair uses the same
 * @param affected the hours the bug touched, when it is bounded: a backfill recomputes only these and
 *     carries the rest of its range from v1; empty means every hour is recomputed
 * @param correctedWriter how the corrected live writer writes the target from B: materialized views that
 *     {@code deploy-live} creates {@code TO} it (the transform as one view, or one view per source), when v1's
 *     live writer is a view; a job outside the database otherwise
 * @param hooks the commands run when the repair reaches a step, in the spec's order
 * @param cluster the sharded cluster the tables live on, each name above a local table on every shard, and
 *     the {@code Distributed} tables consumers read through; empty for one server
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
    Map<Identifier, java.math.BigDecimal> tolerances,
    List<Source> sources,
    String transform,
    List<Allowance> allowedNondeterministic,
    List<ExpectedDifference> expectedDifferences,
    Throttle throttle,
    Duration safetyMargin,
    Duration minimumOverlap,
    List<Consumer> consumers,
    Duration retentionMargin,
    String sha256,
    String transformSha256,
    java.util.Optional<HourRange> affected,
    CorrectedWriter correctedWriter,
    List<Hook> hooks,
    java.util.Optional<Cluster> cluster) {

  public TableSpec {
    keys = List.copyOf(keys);
    measures = List.copyOf(measures);
    tolerances = Map.copyOf(tolerances);
    sources = List.copyOf(sources);
    allowedNondeterministic = List.copyOf(allowedNondeterministic);
    expectedDifferences = List.copyOf(expectedDifferences);
    consumers = List.copyOf(consumers);
    affected = java.util.Objects.requireNonNull(affected, "affected");
    correctedWriter = java.util.Objects.requireNonNull(correctedWriter, "correctedWriter");
    hooks = List.copyOf(hooks);
    cluster = java.util.Objects.requireNonNull(cluster, "cluster");
  }

  /**
   * The tables live on a sharded cluster: {@code tables.live}, {@code tables.target} and each source are
   * local tables on every shard, and consumers read through {@code Distributed} tables over them.
   *
   * @param name the cluster as {@code system.clusters} names it
   * @param live the {@code Distributed} table over v1 that the consumer view reads before the cutover
   * @param target the {@code Distributed} table over v2 that it reads after
   * @param sources the {@code Distributed} table over each sharded source, by the source's name: their
   *     sharding key says whether a shard's hour is complete from its own sources
   * @param copied the sources every shard holds whole (reference data such as prices or rates), by name
   * @param total the throttle over every shard at once, split between them
   */
  public record Cluster(String name, Identifier live, Identifier target, Map<String, Identifier> sources,
      List<String> copied, Total total) {
    public Cluster {
      sources = Map.copyOf(sources);
      copied = List.copyOf(copied);
    }
  }

  /**
   * A cluster's throttle over every shard at once, split evenly between the shards: batches at once and
   * rows written per second, each 0 for no total (each shard then keeps its own throttle alone).
   */
  public record Total(int concurrency, long rowsPerSecond) {
    public static final Total NONE = new Total(0, 0);
  }

  /** The table the consumer view reads v1 through: the {@code Distributed} one on a cluster. */
  public Identifier consumerLive() {
    return cluster.map(Cluster::live).orElse(liveTable);
  }

  /** The table the consumer view reads v2 through once cut over. */
  public Identifier consumerTarget() {
    return cluster.map(Cluster::target).orElse(targetTable);
  }

  /**
   * A table the transform reads, and the column that holds each row's event time. The transform
   * names it as {@code {name}}, which the engine expands to the database-qualified table.
   */
  public record Source(String name, Identifier table, Identifier timeColumn) {}

  /**
   * A non-deterministic function the transform may call, and why its result cannot change v2's rows
   * (for example {@code now()} only in a column that the target does not have).
   */
  public record Allowance(String function, String reason) {}

  /**
   * A difference between v1 and v2 that the fix explains, for a key present once in each version's
   * hour: where {@code where} holds, each measure in {@code expectedDelta} changed by its expression
   * (v2 − v1, within {@code tolerance} when one is stated), every {@code check} holds, and every
   * other measure is unchanged. Measures that a check names may change as the check allows. All
   * expressions speak of {@code v1.column} and {@code v2.column}: each version's row of the key.
   *
   * @param tolerance the allowed error of each delta; empty means exact for integer and decimal
   *     measures and the measure's own tolerance for floating-point ones
   * @param checkedMeasures the measures the checks name, which the rule lets change
   */
  public record ExpectedDifference(String name, String where, Map<Identifier, String> expectedDelta,
      List<String> checks, List<Identifier> checkedMeasures, java.util.Optional<java.math.BigDecimal> tolerance,
      String why) {
    public ExpectedDifference {
      expectedDelta = Map.copyOf(expectedDelta);
      checks = List.copyOf(checks);
      checkedMeasures = List.copyOf(checkedMeasures);
    }
  }

  /**
   * How hard a backfill may push the server. Zero means "no limit" for the optional ones.
   *
   * @param nice the Linux nice value of the backfill's query threads on the server (0 to 19)
   * @param restPercent how long a batch's place stays taken after it ends, in percent of the batch's
   *     own length (0 to 1000): 100 rests as long as each batch took
   */
  public record Throttle(int concurrency, int batchHours, int maxThreads, int priority, long maxMemoryUsage,
      long rowsPerSecond, Duration maxLiveLag, int nice, int restPercent) {}

  /** A downstream reader and how long it may cache what it read. */
  public record Consumer(String name, Duration cacheLifetime) {}

  /** The database-qualified, quoted name of a table of this spec. */
  public String qualified(Identifier table) {
    return database.quoted() + "." + table.quoted();
  }
}
