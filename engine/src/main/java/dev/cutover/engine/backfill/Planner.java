package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import dev.cutover.engine.tables.TransformSources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides what a backfill will do, and refuses bad input before anything is written: a boundary not
 * far enough behind the live edge, a range outside the reprocessing window or past the boundary.
 *
 * <p>Defaults: the boundary is the one the target's repair pinned, or, for the repair's first
 * backfill, the live edge minus the spec's safety margin; the range is the whole reprocessing
 * window up to the boundary.
 */
public final class Planner {

  private final Sql sql;
  private final TableSpec spec;
  private final Repairs repairs;

  public Planner(RepairContext on) {
    this.sql = on.sql();
    this.spec = on.spec();
    this.repairs = new Repairs(on);
  }

  /**
   * Plans a new run. Once the target's repair has pinned its boundary, the plan takes it: another
   * boundary is refused with a sentence that names the pinned one.
   */
  public Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      BackfillSettings settings, boolean measureSample) {
    return plan(from, to, boundary, spec.affected(), settings, measureSample);
  }

  /**
   * Plans a new run that recomputes only the {@code affected} hours of its range and carries the rest
   * from v1; without {@code affected}, every hour is recomputed.
   */
  public Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      Optional<HourRange> affected, BackfillSettings settings, boolean measureSample) {
    return plan(from, to, boundary, affected, settings, measureSample, Optional.empty());
  }

  /** Plans the continuation of a run: its range, boundary and affected hours, with {@code settings}. */
  public Plan resume(RunRecord run, BackfillSettings settings) {
    return plan(Optional.of(run.range().from()), Optional.of(run.range().to()), Optional.of(run.boundary()),
        RunParameters.affected(run.parameters()), settings, false, Optional.of(run.id()));
  }

  private Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      Optional<HourRange> affected, BackfillSettings settings, boolean measureSample, Optional<String> resumes) {
    TargetTables tables = new TargetTables(sql, spec);
    checkNames(tables);
    Optional<Repair> repair = repairs.open();
    if (spec.correctedWriter().byViews() && repair.map(Repair::liveViews).orElse(List.of()).isEmpty()) {
      // Deploying the view would be refused too: say why now rather than send the operator to deploy-live.
      TransformSources.requireOneSourceEach(sql, spec, spec.correctedWriter().views());
      throw new dev.cutover.engine.api.StepRefusedException("plan", "The spec's corrected live writer is the "
          + "materialized view " + spec.correctedWriter().named().orElseThrow() + ", which no repair has deployed: a view sees only inserts "
          + "made after it exists, so B cannot lie behind the live edge. Deploy it first (./cutover deploy-live), "
          + "which pins a boundary in the future; the backfill then writes the hours before it.");
    }
    Optional<HourPartition> pinned = repair.flatMap(Repair::boundary);
    if (pinned.isPresent() && boundary.isPresent()) {
      repairs.requireBoundary(repair.get(), boundary.get(), "plan");
    }
    repair.ifPresent(repairs::requireTransform);
    LiveReader reader = new LiveReader(sql, spec);
    LiveStatus live = reader.read();
    HourPartition edge = live.liveEdge().orElseThrow(() -> new InvalidInputException("spec.tables.live",
        "The live table " + spec.liveTable() + " holds no rows, so there is no live edge to place the boundary "
            + "behind; start the live writer first."));
    HourPartition latestAllowed = edge.plusHours(-spec.safetyMargin().toHours());
    if (pinned.isPresent()) {
      return ranged(pinned.get(), edge, from, to, affected, settings, measureSample, true, resumes, tables, reader);
    }
    HourPartition b = boundary.orElse(latestAllowed);
    HourPartition now = HourPartition.containing(Instant.now());
    // The data, not the wall clock, says where the live edge is (a simulated or skewed clock may run ahead).
    if (edge.isBefore(b) && now.isBefore(b)) {
      throw new InvalidInputException("boundary", "The boundary " + b + " is in the future (it is now " + now
          + " UTC); choose a past hour at or before " + latestAllowed + ".");
    }
    if (edge.isBefore(b)) {
      throw new InvalidInputException("boundary", "The boundary " + b + " is ahead of the live edge " + edge
          + " (the newest hour the live writer has written); choose " + latestAllowed + " or earlier, at least the "
          + "safety margin of " + spec.safetyMargin().toHours() + " hours behind it.");
    }
    if (latestAllowed.isBefore(b)) {
      throw new InvalidInputException("boundary", "The boundary " + b + " is " + hoursBetween(b, edge)
          + " behind the live edge " + edge + ", less than the safety margin of " + spec.safetyMargin().toHours()
          + " hours; choose " + latestAllowed + " or earlier so the live writer keeps every hour from the boundary on.");
    }
    return ranged(b, edge, from, to, affected, settings, measureSample, false, resumes, tables, reader);
  }

  private Plan ranged(HourPartition b, HourPartition edge, Optional<HourPartition> from, Optional<HourPartition> to,
      Optional<HourRange> affected, BackfillSettings settings, boolean measureSample, boolean pinned,
      Optional<String> resumes, TargetTables tables, LiveReader reader) {
    HourPartition windowStart = reader.reprocessingStart().orElseThrow(() -> new InvalidInputException("spec.sources",
        "The sources of " + spec.name() + " hold no rows, so there is nothing to recompute."));
    // A bounded repair carries from v1 every hour outside its affected window, so it may reach back as far as v1
    // does even where the sources no longer hold those hours; only its affected hours are recomputed from them.
    // On a cluster, as far as any shard's v1 does: every shard plans the same range.
    Optional<HourPartition> carriedFrom = affected.isPresent()
        ? reader.oldestCarriableHour().filter(h -> h.isBefore(windowStart)) : Optional.empty();
    HourPartition earliest = carriedFrom.orElse(windowStart);
    HourPartition f = from.orElse(earliest);
    HourPartition t = to.orElse(b);
    if (b.isBefore(t)) {
      throw new InvalidInputException("to", "The range end " + t + " is after the boundary " + b + "; the backfill "
          + "writes only hours before the boundary (the live writer owns the rest). Leave the end out or give " + b
          + " or earlier.");
    }
    if (f.isBefore(earliest)) {
      throw startTooEarly(f, earliest, carriedFrom.isPresent(), affected.isEmpty());
    }
    if (affected.isPresent() && affected.get().from().isBefore(windowStart)) {
      throw new InvalidInputException("affected", "The affected window " + affected.get() + " starts before the "
          + "reprocessing window, which starts at " + windowStart + " (" + limitingSource() + "): those hours can no "
          + "longer be recomputed. Start the affected window at " + windowStart + " or later.");
    }
    if (!f.isBefore(b)) {
      throw new InvalidInputException("boundary", "The boundary " + b + " is not after the range start " + f
          + "; choose a boundary after the start, or an earlier start.");
    }
    HourRange range = new HourRange(f, t);
    affected.ifPresent(a -> checkAffected(a, range, b));
    Optional<HourRange> overlap = b.isBefore(edge.plusHours(1))
        ? Optional.of(new HourRange(b, edge.plusHours(1))) : Optional.empty();
    List<HourPartition> hours = range.list();
    long computed = affected.map(HourRange::hours).orElse(range.hours());
    Plan.Estimates estimates = estimate(affected.orElse(range), computed, settings, measureSample);
    return new Plan(spec, range, b, edge, hours, overlap, estimates,
        statements(tables, affected.orElse(range), settings, range, affected), settings, pinned, resumes, affected);
  }

  /**
   * The refusal of a range start before {@code earliest}: v1's oldest hour where a bounded repair carries
   * the hours the sources no longer hold, else the sources' reprocessing window, which a bounded repair
   * would not need for all of its hours.
   */
  private InvalidInputException startTooEarly(HourPartition f, HourPartition earliest, boolean carries,
      boolean unbounded) {
    if (carries) {
      return new InvalidInputException("from", "The range start " + f + " is before the oldest hour of "
          + spec.liveTable() + ", " + earliest + ": a bounded repair carries v1's hours and has nothing to carry "
          + "before it; start at " + earliest + " or later.");
    }
    String bound = unbounded ? ", or bound the repair to the hours the bug touched (an "
        + "affected window): the other hours are carried from " + spec.liveTable() + " and need no source" : "";
    return new InvalidInputException("from", "The range start " + f + " is before the reprocessing window, which "
        + "starts at " + earliest + " (" + limitingSource() + "); start at " + earliest + " or later" + bound + ".");
  }

  /** The affected hours lie inside the range, hence before the boundary; refused in a sentence otherwise. */
  private static void checkAffected(HourRange affected, HourRange range, HourPartition b) {
    if (b.isBefore(affected.to())) {
      throw new InvalidInputException("affected", "The affected window " + affected + " ends after the boundary " + b
          + "; the backfill recomputes only hours before the boundary (the corrected live writer owns the rest). "
          + "End the affected window at " + b + " or earlier.");
    }
    if (range.to().isBefore(affected.to())) {
      throw new InvalidInputException("affected", "The affected window " + affected + " ends after the range "
          + range + " of this backfill; end it at " + range.to() + " or earlier, or widen the range's end.");
    }
    if (affected.from().isBefore(range.from())) {
      throw new InvalidInputException("affected", "The affected window " + affected + " starts before the range "
          + range + " of this backfill; start it at " + range.from() + " or later, or widen the range's start.");
    }
  }

  /** Every table and column the spec names exists, before anything else reads them. */
  private void checkNames(TargetTables tables) {
    if (!tables.exists(spec.liveTable())) {
      throw new InvalidInputException("spec.tables.live", "The live table " + spec.database() + "." + spec.liveTable()
          + " does not exist; check tables.live and database in the spec.");
    }
    List<Identifier> liveColumns = sql.query("read the columns of " + spec.liveTable(), "SELECT name FROM system.columns "
        + "WHERE database = ? AND table = ?", rs -> Identifier.of(rs.getString(1)), spec.database().name(),
        spec.liveTable().name());
    List<Identifier> named = new ArrayList<>(List.of(spec.timeColumn()));
    named.addAll(spec.keys());
    named.addAll(spec.measures());
    for (Identifier column : named) {
      if (!liveColumns.contains(column)) {
        throw new InvalidInputException("spec", "The spec names column " + column + ", which " + spec.liveTable()
            + " does not have (it has " + liveColumns + "); check time_column, keys and measures.");
      }
    }
    for (int i = 0; i < spec.sources().size(); i++) {
      TableSpec.Source source = spec.sources().get(i);
      if (!tables.exists(source.table())) {
        throw new InvalidInputException("spec.sources", "The spec names source table " + spec.database() + "."
            + source.table() + ", which does not exist; check sources[" + i + "].table and database.");
      }
      long found = sql.queryLong("look up " + source.timeColumn(), "SELECT count() FROM system.columns WHERE database = ? "
          + "AND table = ? AND name = ?", spec.database().name(), source.table().name(), source.timeColumn().name());
      if (found == 0) {
        throw new InvalidInputException("spec.sources", "Source table " + source.table() + " has no column "
            + source.timeColumn() + "; check sources[" + i + "].time_column.");
      }
    }
  }

  private String limitingSource() {
    List<String> parts = new ArrayList<>();
    LiveReader reader = new LiveReader(sql, spec);
    for (TableSpec.Source s : spec.sources()) {
      parts.add(s.table() + " from " + reader.oldestHour(s).map(HourPartition::toString).orElse("nowhere (empty)"));
    }
    return "the sources hold data " + String.join(", ", parts);
  }

  /** Estimates from the hours {@code range} recomputes, {@code computed} of them; carrying costs no compute. */
  private Plan.Estimates estimate(HourRange range, long computed, BackfillSettings settings, boolean measureSample) {
    long rows = 0;
    long bytes = 0;
    for (TableSpec.Source s : spec.sources()) {
      var totals = sql.queryOne("estimate the size of " + s.table(), "SELECT sum(rows), sum(bytes_on_disk) FROM "
          + "system.parts WHERE active AND database = ? AND table = ?", rs -> new long[] {rs.getLong(1), rs.getLong(2)},
          spec.database().name(), s.table().name());
      var span = sql.queryOne("read the time span of " + s.table(), "SELECT toUnixTimestamp(min(" + s.timeColumn().quoted()
          + ")), toUnixTimestamp(max(" + s.timeColumn().quoted() + ")) FROM " + spec.qualified(s.table()),
          rs -> new long[] {rs.getLong(1), rs.getLong(2)});
      double spanHours = Math.max(1, (span[1] - span[0]) / 3600.0 + 1);
      double share = Math.min(1, range.hours() / spanHours);
      rows += (long) (totals[0] * share);
      bytes += (long) (totals[1] * share);
    }
    Duration sample = Duration.ZERO;
    Duration total = Duration.ZERO;
    if (measureSample) {
      HourPartition middle = range.from().plusHours(range.hours() / 2);
      Transform t = Transform.bind(spec, middle, middle.plusHours(1));
      long startNanos = System.nanoTime();
      sql.queryLong("compute a sample hour", "SELECT count() FROM (" + t.sql() + ")", t.values().toArray());
      sample = Duration.ofNanos(System.nanoTime() - startNanos);
      // A batch of hours costs about as much as its hours computed together; batches run side by side, and each
      // keeps its place for the throttle's rest after it.
      Duration computing = sample.multipliedBy(computed).dividedBy(Math.max(1, settings.concurrency()));
      total = computing.plus(settings.restAfter(computing));
    }
    return new Plan.Estimates(rows, bytes, sample, total);
  }

  private List<String> statements(TargetTables tables, HourRange range, BackfillSettings settings, HourRange whole,
      Optional<HourRange> affected) {
    List<HourPartition> first = range.list().subList(0, (int) Math.min(settings.batchHours(), range.hours()));
    Identifier staging = TableNames.of(spec).stagingShown();
    String stagingName = spec.qualified(staging);
    List<Identifier> columns = tables.exists(spec.targetTable())
        ? tables.insertableColumns(spec.targetTable()) : tables.insertableColumns(spec.liveTable());
    List<String> out = new ArrayList<>();
    List<HourPartition> carried = affected.isEmpty() ? List.of()
        : whole.list().stream().filter(h -> !affected.get().contains(h)).toList();
    if (!tables.exists(spec.targetTable())) {
      out.add("CREATE TABLE " + spec.qualified(spec.targetTable()) + " AS " + spec.qualified(spec.liveTable()));
    }
    String marker = BatchWriter.markerOf(spec) + "<run> " + first.getFirst().epochSecond();
    java.util.Set<String> held = tables.exists(spec.targetTable()) ? tables.heldPartitions(spec.targetTable())
        : java.util.Set.of();
    if (first.stream().noneMatch(h -> held.contains(h.partitionId()))) {
      // The target holds none of these hours: they are written into it directly (BatchWriter.writeDirect).
      out.add(BatchWriter.insertStatement(spec, columns, spec.qualified(spec.targetTable()), first.getFirst(),
          first.getLast().plusHours(1), settings, marker).display());
    } else {
      out.add("CREATE TABLE IF NOT EXISTS " + stagingName + " AS " + spec.qualified(spec.targetTable()));
      out.add("TRUNCATE TABLE " + stagingName);
      out.add(BatchWriter.insertStatement(spec, columns, stagingName, first.getFirst(), first.getLast().plusHours(1),
          settings, marker).display());
      out.add(BatchWriter.replaceStatement(spec, stagingName, first));
    }
    if (!carried.isEmpty()) {
      // The carry, beside the computed batches (CarryLane): its first statement, abridged to its first hour.
      List<List<HourPartition>> statements = CarryLane.statements(carried, Carrier.textPerHour(spec));
      out.add(Carrier.carryStatement(spec, carried.subList(0, 1)).replace(" SETTINGS ", ", … (the " + carried.size()
          + " carried hours in " + statements.size() + " statements of up to " + statements.getFirst().size()
          + " hours, each naming those v1 or v2 holds a part of, " + CarryLane.STATEMENTS_AT_ONCE
          + " at once beside the computed batches) SETTINGS "));
    }
    return out;
  }

  private static String hoursBetween(HourPartition a, HourPartition b) {
    return Duration.between(a.start(), b.start()).toHours() + " hour(s)";
  }
}
