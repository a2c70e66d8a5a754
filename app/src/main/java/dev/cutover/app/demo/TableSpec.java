package dev.cutover.app.demo;

import dev.cutover.engine.api.Identifier;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A spec: everything Cutover needs to know about one hourly derived table, as read and validated
 * from YAML by {@link SpecLoader}. Field by field in {@code docs/SPEC.md}.
 *
 * <pre>{@code
 * TableSpec spec = SpecLoader.bundled().withDatabase(Identifier.of("trading"));
 * spec.tables().v2();            // `trading`.`pnl_v2`
 * spec.transform().template();   // the corrected SELECT, with {window_start} and {window_end}
 * }</pre>
 *
 * @param specVersion the format version; 1
 * @param name a short name for the table, used in run names
 * @param description one line for people
 * @param database where unqualified table names live
 * @param timeColumn the hour column of v1 and v2
 * @param keys the columns that identify a row within an hour
 * @param measures the columns compared between v1 and v2
 * @param sources the raw inputs the transform reads
 * @param allowedLateness how late an event may arrive after its hour
 * @param tables v1, v2 and the consumer view
 * @param transform the corrected logic
 * @param expectedDifferences the differences the fix explains
 * @param defaultTolerance how far measures not covered by a rule may differ
 * @param boundary how the boundary B is placed
 * @param throttle how hard the backfill may push
 * @param retention how long v1 is kept after the cutover
 * @param origin where the spec was read from, for messages
 */
public record TableSpec(
    int specVersion,
    String name,
    String description,
    Identifier database,
    Identifier timeColumn,
    List<Identifier> keys,
    List<Identifier> measures,
    List<Source> sources,
    Duration allowedLateness,
    Tables tables,
    Transform transform,
    List<ExpectedDifference> expectedDifferences,
    BigDecimal defaultTolerance,
    Boundary boundary,
    Throttle throttle,
    Retention retention,
    String origin) {

  public TableSpec {
    keys = List.copyOf(keys);
    measures = List.copyOf(measures);
    sources = List.copyOf(sources);
    expectedDifferences = List.copyOf(expectedDifferences);
  }

  /** A raw input: its name in the transform, its table, and the column that dates its rows. */
  public record Source(String name, TableName table, Identifier timeColumn, String description) {}

  /** The live version, the corrected version and the view consumers read. */
  public record Tables(TableName v1, TableName v2, TableName consumerView) {}

  /** The corrected logic, with the place it was read from. */
  public record Transform(String origin, String sql) {

    public SqlTemplate template() {
      return SqlTemplate.of(origin, sql);
    }
  }

  /**
   * A difference the fix explains: on the rows that match {@code rows}, each listed measure of v1
   * minus the same measure of v2 equals {@code difference}, to within {@code tolerance}.
   */
  public record ExpectedDifference(String name, String rows, List<Identifier> measures, String difference,
      BigDecimal tolerance, String reason) {

    public ExpectedDifference {
      measures = List.copyOf(measures);
    }
  }

  /** B is at least {@code safetyMarginHours} behind the live edge; v1 and v2 overlap live for at least {@code minimumOverlapHours}. */
  public record Boundary(int safetyMarginHours, int minimumOverlapHours) {}

  /** Bounds on the backfill, so that it does not starve the live job. */
  public record Throttle(int workers, int hoursPerBatch, int maxThreads, int priority, Duration pauseWhenLiveLagExceeds) {}

  /** One consumer of the view and how long it may keep serving what it read before. */
  public record ConsumerCache(String name, Duration cacheLifetime) {}

  /** How long v1 is kept after the cutover: at least {@code keepV1AtLeast}, and longer than any consumer cache. */
  public record Retention(Duration keepV1AtLeast, List<ConsumerCache> consumers) {

    public Retention {
      consumers = List.copyOf(consumers);
    }

    /** The longer of the minimum and the longest consumer cache lifetime. */
    public Duration keepV1For() {
      return consumers.stream().map(ConsumerCache::cacheLifetime).filter(d -> d.compareTo(keepV1AtLeast) > 0)
          .max(Duration::compareTo).orElse(keepV1AtLeast);
    }
  }

  public Optional<Source> source(String sourceName) {
    return sources.stream().filter(s -> s.name().equals(sourceName)).findFirst();
  }

  /** The same spec with every table that was in {@link #database()} moved to {@code other}. */
  public TableSpec withDatabase(Identifier other) {
    Identifier to = Identifier.simple("database", other.name());
    List<Source> moved = sources.stream()
        .map(s -> new Source(s.name(), move(s.table(), to), s.timeColumn(), s.description())).toList();
    Tables movedTables = new Tables(move(tables.v1(), to), move(tables.v2(), to), move(tables.consumerView(), to));
    return new TableSpec(specVersion, name, description, to, timeColumn, keys, measures, moved, allowedLateness,
        movedTables, transform, expectedDifferences, defaultTolerance, boundary, throttle, retention, origin);
  }

  private TableName move(TableName table, Identifier to) {
    return table.database().equals(database) ? new TableName(to, table.table()) : table;
  }
}
