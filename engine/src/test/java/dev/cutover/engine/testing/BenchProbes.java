package dev.cutover.engine.testing;

import dev.cutover.engine.Session;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Statement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.BatchBreakdown;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.reconcile.Differ;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import java.util.List;
import java.util.Map;

/**
 * What the benchmarks measure inside the engine, published with its test fixtures: the engine's
 * own statements timed one by one, and its comparison of two tables, next to the floors the
 * benchmarks build from plain statements. The benchmarks depend on the engine's API and on these
 * probes, never on its packages.
 */
public final class BenchProbes {

  /** The step the batch breakdown calls the floor's statement. */
  public static final String FLOOR = BatchBreakdown.FLOOR;

  private BenchProbes() {}

  /** The spec's transform bound to {@code [from, to)}: the SELECT a backfill of those hours runs. */
  public static Statement transform(TableSpec spec, HourPartition from, HourPartition to) {
    Transform t = Transform.bind(spec, from, to);
    return new Statement(t.sql(), t.values());
  }

  /** Creates the spec's target with v1's structure when it is missing, as a backfill's first step does. */
  public static void createTarget(Session session, TableSpec spec) {
    new TargetTables(session.database().sql(), spec).createTargetIfAbsent();
  }

  /**
   * Times {@code batches} batches from {@code from} three ways each (see {@link BatchBreakdown}): the
   * floor's statement into {@code floor}, the engine's first sequence statement by statement, and the
   * engine's batch writer; milliseconds per batch, by step.
   */
  public static Map<String, List<Double>> batchBreakdown(Session session, TableSpec spec, HourPartition from,
      int batches, BackfillSettings settings, Identifier floor, HourPartition boundary) {
    StateStore store = new StateStore(session.database().sql(), spec.database().name());
    store.ensureSchema();
    return new BatchBreakdown(session.database().sql(), store, spec).measure(from, batches, settings, floor, boundary);
  }

  /** The engine's hour-by-hour checksum comparison of two tables of the spec's shape. */
  public static List<Diff.HourDiff> hourDiffs(Session session, TableSpec spec, Identifier a, Identifier b,
      HourRange range) {
    return new Differ(session.database().sql(), spec).hours(a, b, range);
  }

  /** The engine's key-level comparison of two tables over {@code hours}, at most {@code limit} keys. */
  public static List<Diff.KeyDiff> keyDiffs(Session session, TableSpec spec, Identifier a, Identifier b,
      List<HourPartition> hours, int limit) {
    return new Differ(session.database().sql(), spec).keys(a, b, hours, limit);
  }
}
