package dev.cutover.engine.preflight;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TransformSources;
import dev.cutover.engine.tables.ViewWriters;
import dev.cutover.engine.tables.ViewWriters.View;
import java.util.List;
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

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final TableSpec spec;

  LiveWriterCheck(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.spec = on.spec();
  }

  Check check(Plan plan) {
    HourPartition b = plan.boundary();
    ViewWriters writers = new ViewWriters(sql, spec);
    List<View> v1 = writers.of(spec.liveTable());
    List<View> v2 = writers.of(spec.targetTable());
    // The view the repair deployed was created while B lay ahead of every source event, which deploy-live checked
    // before and after creating it: its age on this machine's clock says nothing about the data's.
    List<String> views = new Repairs(on).open().map(Repair::liveViews).orElse(List.of()).stream()
        .map(v -> spec.database().name() + "." + v.name()).toList();
    String deployed = String.join(", ", views);
    if (!views.isEmpty() && v2.stream().anyMatch(v -> views.contains(v.name()))) {
      List<String> others = v2.stream().map(View::name).filter(n -> !views.contains(n)).toList();
      if (others.isEmpty()) {
        String owns = "The corrected live writer is the materialized view " + deployed + ", which Cutover deployed "
            + "with B = " + b + " ahead of every source event: it writes " + spec.targetTable() + " from " + b
            + " on, and the backfill writes the hours before it once " + b + " has closed" + (v1.isEmpty() ? "."
            : " (" + spec.liveTable() + " is written by " + names(v1) + ").");
        // A view deduplicates within one insert block only: the two sides of B may differ for that alone.
        return TransformSources.blockBound(sql, spec, spec.correctedWriter().views())
            .map(warning -> new Check("live writer", Status.WARN, owns + " " + warning, "Keep retried inserts "
                + "out of the sources, so that both sides of B count alike: a block retried whole is dropped by the "
                + "source table's insert deduplication (non_replicated_deduplication_window on a MergeTree, or an "
                + "insert_deduplication_token per insert)."))
            .orElse(new Check("live writer", Status.PASS, owns, ""));
      }
      return new Check("live writer", Status.FAIL, spec.targetTable() + " is written by " + String.join(", ", others)
          + " besides the corrected view " + deployed + " that the repair deployed: two writers on its hours.",
          "Drop " + String.join(", ", others) + ", or abandon the repair.");
    }
    List<View> late = v2.stream().filter(v -> v.since().isAfter(b.start())).toList();
    if (!late.isEmpty()) {
      View first = late.getFirst();
      HourPartition after = HourPartition.containing(first.since()).plusHours(1);
      return new Check("live writer", Status.FAIL, "The materialized view " + first.name() + " writes "
          + spec.targetTable() + " since " + Figures.time(first.since()) + " (created or last changed then), after B = "
          + b + " began: "
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

  private static String names(List<View> views) {
    return views.stream().map(View::name).collect(Collectors.joining(", "));
  }
}
