package dev.cutover.engine.preflight;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which kind of live writer the repair has. An external job (a streaming job writing v1) can be
 * pointed at v2 from any hour, so the boundary may lie a few hours behind the live edge. A
 * materialized view sees only the inserts made after it was created: a corrected view cannot write
 * the hours between B and its creation. So where v1 is fed by a view, the corrected view over v2
 * must already exist and must have been created before B began, and B is otherwise chosen after it.
 * Views are found on the whole server from the {@code TO} clause of their definition (refreshable
 * ones included).
 */
final class LiveWriterCheck {

  /** A name the server prints without backquotes. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final Sql sql;
  private final TableSpec spec;

  LiveWriterCheck(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** A materialized view that writes a table, and when it was created or last changed. */
  record View(String name, Instant since) {}

  Check check(Plan plan) {
    HourPartition b = plan.boundary();
    List<View> v1 = writersOf(spec.liveTable());
    List<View> v2 = writersOf(spec.targetTable());
    List<View> late = v2.stream().filter(v -> v.since().isAfter(b.start())).toList();
    if (!late.isEmpty()) {
      View first = late.getFirst();
      HourPartition after = HourPartition.containing(first.since()).plusHours(1);
      return new Check("live writer", Status.FAIL, "The materialized view " + first.name() + " writes "
          + spec.targetTable() + " since " + first.since() + " (created or last changed then), after B = " + b + " began: "
          + "a view sees only the inserts made after it exists, so no one wrote " + spec.targetTable() + "'s hours "
          + "between " + b + " and then, and the backfill stops at " + b + ".",
          "Choose a boundary at or after " + after + ", the first whole hour the view has seen whole.");
    }
    if (!v2.isEmpty()) {
      return new Check("live writer", Status.PASS, "The corrected live writer is the materialized view "
          + names(v2) + ", which writes " + spec.targetTable() + " since before B = " + b + " began"
          + (v1.isEmpty() ? "" : " (" + spec.liveTable() + " is written by " + names(v1) + ")")
          + ": it must write only the hours from " + b + " on (a filter on " + spec.timeColumn() + "), the backfill "
          + "writes those before.", "");
    }
    if (!v1.isEmpty()) {
      return new Check("live writer", Status.WARN, spec.liveTable() + " is written by the materialized view "
          + names(v1) + ", and no view writes " + spec.targetTable() + ": a corrected view created now would see "
          + "only inserts from now on and could not write the hours from B = " + b + " to now. The corrected live "
          + "writer must be one that starts exactly at " + b + ".",
          "To repair with a corrected view: create it over " + spec.targetTable() + " with a filter on "
          + spec.timeColumn() + " from a whole hour H after now plus the safety margin, wait until H has closed, then "
          + "plan with H as the boundary.");
    }
    return new Check("live writer", Status.PASS, "No materialized view writes " + spec.liveTable() + ": its live "
        + "writer is a job outside the database, which can be pointed at " + spec.targetTable() + " from B = " + b
        + ", behind the live edge.", "");
  }

  /**
   * The materialized views of the whole server whose definition writes {@code table} of the spec's
   * database: {@code system.tables} prints each as {@code CREATE MATERIALIZED VIEW db.v [REFRESH …] TO
   * db.t (…) AS …}, the target always qualified.
   */
  private List<View> writersOf(Identifier table) {
    List<String> targets = quoted(spec.database().name()).stream()
        .flatMap(d -> quoted(table.name()).stream().map(t -> " TO " + d + "." + t + " ")).toList();
    return sql.query("find the materialized views that write " + table, "SELECT database || '.' || name, "
            + "toUnixTimestamp(metadata_modification_time), create_table_query FROM system.tables WHERE engine = 'MaterializedView' "
            + "ORDER BY 1",
        rs -> {
          String definition = rs.getString(3);
          boolean writes = targets.stream().anyMatch(definition::contains);
          return writes ? new View(rs.getString(1), Instant.ofEpochSecond(rs.getLong(2))) : null;
        }).stream().filter(java.util.Objects::nonNull).toList();
  }

  /** A name as the server may print it: bare when it can be, else in backquotes. */
  private static List<String> quoted(String name) {
    String quoted = "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    return PLAIN.matcher(name).matches() ? List.of(name, quoted) : List.of(quoted);
  }

  private static String names(List<View> views) {
    return views.stream().map(View::name).collect(Collectors.joining(", "));
  }
}
