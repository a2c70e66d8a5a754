package dev.cutover.engine.preflight;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Replay effect suppression: the materialized views and other dependents of the target and of v1,
 * which block the backfill until the operator has acknowledged each by name, with a reason that the
 * backfill writes to the audit trail when it starts.
 */
final class SideEffectsCheck {

  private final Sql sql;
  private final TableSpec spec;

  SideEffectsCheck(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /**
   * The dependents of the target and of v1, each with the reason of the acknowledgement that names it (the
   * first, when several do).
   */
  List<Dependent> dependents(List<AcknowledgedDependent> acknowledged) {
    List<Dependent> dependents = new ArrayList<>();
    for (Identifier table : List.of(spec.targetTable(), spec.liveTable())) {
      sql.query("list dependents of " + table, "SELECT arrayJoin(arrayMap((d, t) -> d || '.' || t, "
              + "dependencies_database, dependencies_table)) FROM system.tables WHERE database = ? AND name = ?",
          rs -> rs.getString(1), spec.database().name(), table.name())
          .forEach(d -> dependents.add(new Dependent(d, table.name(), reason(acknowledged, d))));
    }
    return dependents;
  }

  private static Optional<String> reason(List<AcknowledgedDependent> acknowledged, String dependent) {
    return acknowledged.stream().filter(a -> a.name().equals(dependent)).map(AcknowledgedDependent::reason)
        .findFirst();
  }

  Check check(List<Dependent> found) {
    List<String> dependents = found.stream().map(d -> d.name() + " (reads " + d.reads() + ")"
        + d.reason().map(r -> ": " + r).orElse("")).toList();
    List<String> open = found.stream().filter(d -> !d.acknowledged()).map(d -> d.name() + " (reads " + d.reads() + ")")
        .toList();
    if (dependents.isEmpty()) {
      return new Check("side effects", Status.PASS, "No materialized view or other dependent reads "
          + spec.targetTable() + " or " + spec.liveTable() + ".", "");
    }
    if (!open.isEmpty()) {
      return new Check("side effects", Status.FAIL, "These dependents react to writes: " + String.join(", ", open)
          + ". The backfill fires no materialized view (where a view reads the target, it writes only by REPLACE "
          + "PARTITION, which fires none), but anything that reads these tables must not re-emit effects for "
          + "replayed history.",
          "Review each one, then acknowledge it by name with the reason replaying history through it is safe (it "
              + "goes to the audit trail when the backfill starts): " + found.stream().filter(d -> !d.acknowledged())
              .map(Dependent::name).collect(Collectors.joining(", ")) + ".");
    }
    return new Check("side effects", Status.WARN, "Acknowledged dependents, each with its reason: "
        + String.join("; ", dependents) + ". The backfill writes each to the audit trail before any hour.", "");
  }
}
