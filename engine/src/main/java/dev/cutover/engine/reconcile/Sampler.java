package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates the corrected transform on a few hours before the full run: computes them into a
 * scratch table (never the target) and diffs it against v1 with the model reconciliation uses.
 */
public final class Sampler {

  public static final int MAX_HOURS = 48;

  private final Sql sql;
  private final TableSpec spec;

  public Sampler(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  public Diff sample(List<HourPartition> hours, int keyLimit) {
    if (hours.isEmpty() || hours.size() > MAX_HOURS) {
      throw new InvalidInputException("hours", "A sample takes 1 to " + MAX_HOURS + " hours, not " + hours.size()
          + "; name a few hours.");
    }
    TargetTables tables = new TargetTables(sql, spec);
    Identifier scratch = TableNames.of(spec).sample();
    List<Identifier> columns = tables.insertableColumns(spec.liveTable());
    sql.execute("create the sample table", "CREATE TABLE " + spec.qualified(scratch) + " AS " + spec.qualified(spec.liveTable()));
    try {
      String cols = TargetTables.columnList(columns);
      for (HourPartition h : hours) {
        Transform t = Transform.bind(spec, h, h.plusHours(1)).wrap("INSERT INTO " + spec.qualified(scratch) + " (" + cols
            + ") SELECT " + cols + " FROM (", ") WHERE toStartOfHour(" + spec.timeColumn().quoted()
            + ") = toDateTime(?, 'UTC')", List.of(h.epochSecond()));
        sql.execute("compute the sample hour " + h, t.sql(), t.values().toArray());
      }
      Differ differ = new Differ(sql, spec);
      List<Diff.HourDiff> hourDiffs = new ArrayList<>();
      for (HourPartition h : hours) {
        List<Diff.HourDiff> one = differ.hours(spec.liveTable(), scratch, new HourRange(h, h.plusHours(1)));
        hourDiffs.addAll(one.isEmpty() ? List.of(new Diff.HourDiff(h, 0, 0, 0, 0, 0, 0, List.of())) : one);
      }
      return differ.diff(spec.liveTable(), scratch, hourDiffs, keyLimit);
    } finally {
      sql.execute("drop the sample table", "DROP TABLE IF EXISTS " + spec.qualified(scratch));
    }
  }
}
