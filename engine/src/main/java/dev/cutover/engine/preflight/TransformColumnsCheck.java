package dev.cutover.engine.preflight;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.tables.Transform;
import java.time.Instant;
import java.util.List;

/**
 * Whether the transform compiles on this server and produces every column the target needs, and
 * whether the spec's keys are columns of it. Only DESCRIBE is run: nothing is computed.
 */
final class TransformColumnsCheck {

  private final Sql sql;
  private final TableSpec spec;
  private final TargetTables tables;

  TransformColumnsCheck(Sql sql, TableSpec spec, TargetTables tables) {
    this.sql = sql;
    this.spec = spec;
    this.tables = tables;
  }

  Check check() {
    Identifier table = tables.exists(spec.targetTable()) ? spec.targetTable() : spec.liveTable();
    List<Identifier> target = tables.insertableColumns(table);
    HourPartition any = HourPartition.containing(Instant.now());
    Transform t = Transform.bind(spec, any, any.plusHours(1));
    List<Identifier> produced;
    try {
      produced = sql.query("describe the transform", "DESCRIBE (" + t.sql() + ")", rs -> Identifier.of(rs.getString(1)),
          t.values().toArray());
    } catch (QueryFailedException e) {
      return new Check("transform", Status.FAIL, "The transform does not compile on this server: " + e.getMessage(),
          "Fix the transform in the spec and run preflight again.");
    }
    List<Identifier> missing = target.stream().filter(c -> !produced.contains(c)).toList();
    if (!missing.isEmpty()) {
      return new Check("transform", Status.FAIL, "The transform produces " + produced + " but " + table + " needs "
          + missing + " as well.", "Name every column of " + table + " in the transform's SELECT list.");
    }
    for (Identifier key : spec.keys()) {
      if (!target.contains(key)) {
        return new Check("transform", Status.FAIL, "Key column " + key + " is not a column of " + table + ".",
            "Correct keys in the spec to columns of the table.");
      }
    }
    return new Check("transform", Status.PASS, "The transform compiles and produces every column of " + table + ".", "");
  }
}
