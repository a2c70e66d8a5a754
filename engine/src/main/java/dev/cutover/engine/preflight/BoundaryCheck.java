package dev.cutover.engine.preflight;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.repair.Coverage;
import dev.cutover.engine.repair.HourSums;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.tables.TargetTables;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The boundary of a backfill, checked against the repair and the data. The repair's first backfill
 * pins B; it must not reach hours another writer already holds in v2 (the corrected live writer
 * deployed first, say): that would put two writers on one partition. A later backfill keeps the
 * pinned B (the planner already refused another); hours below B that v2 holds and no backfill of
 * the repair wrote are reported, because the backfill replaces them.
 */
final class BoundaryCheck {

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final TableSpec spec;
  private final StateStore store;

  BoundaryCheck(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.spec = on.spec();
    this.store = on.state();
  }

  Check check(Plan plan) {
    long behind = Duration.between(plan.boundary().start(), plan.liveEdge().start()).toHours();
    Optional<Repair> repair = new Repairs(on).open();
    HourRange below = new HourRange(plan.range().from(), plan.boundary());
    boolean v2 = new TargetTables(sql, spec).exists(spec.targetTable());
    if (repair.isEmpty() || repair.get().boundary().isEmpty()) {
      // Hours of the range that v2 holds and no backfill of the target ever wrote: another writer's.
      Map<HourPartition, LedgerEntry> any = store.hours().targetLedger(TableNames.target(spec));
      Map<HourPartition, HourSums.Hour> hours = v2 ? new HourSums(sql, spec).target(below, Coverage.carried(any))
          : Map.of();
      List<HourPartition> foreign = hours.entrySet().stream().filter(e -> e.getValue().rowsV2() > 0)
          .filter(e -> !written(any.get(e.getKey()), e.getValue())).map(Map.Entry::getKey).toList();
      if (!foreign.isEmpty()) {
        return new Check("boundary", Status.FAIL, spec.targetTable() + " already holds rows that no backfill wrote in "
            + Figures.count(foreign.size()) + " hour(s) below the boundary " + plan.boundary() + ", from "
            + foreign.getFirst()
            + ": another writer (the corrected live writer, if it already runs) owns them, and the backfill would "
            + "write them too.", "Choose the boundary where that writer starts (" + foreign.getFirst() + " if it is the "
            + "live writer), or empty those hours of " + spec.targetTable() + " first.");
      }
      return new Check("boundary", Status.PASS, "The boundary " + plan.boundary() + " is on the hour, " + behind
          + " hours behind the live edge " + plan.liveEdge() + " (margin " + spec.safetyMargin().toHours() + "), and "
          + "after the range start " + plan.range().from() + ". This backfill pins it: the corrected live writer must "
          + "write every hour from " + plan.boundary() + " on, and no later plan can move it.", "");
    }
    Repair r = repair.get();
    Map<HourPartition, LedgerEntry> ledger = store.hours().repairLedger(r.id());
    Map<HourPartition, HourSums.Hour> hours = v2 ? new HourSums(sql, spec).target(below, Coverage.carried(ledger))
        : Map.of();
    List<HourPartition> foreign = hours.entrySet().stream().filter(e -> e.getValue().rowsV2() > 0)
        .filter(e -> plan.range().contains(e.getKey()) && !written(ledger.get(e.getKey()), e.getValue()))
        .map(Map.Entry::getKey).toList();
    String pinned = "The boundary " + plan.boundary() + " was pinned by repair " + r.id() + "; the backfill writes only "
        + "hours before it.";
    if (!foreign.isEmpty()) {
      return new Check("boundary", Status.WARN, pinned + " " + spec.targetTable() + " holds rows in "
          + Figures.count(foreign.size()) + " hour(s) of the range that the repair's backfill did not write (from "
          + foreign.getFirst() + "); the backfill replaces them.", "If the corrected live writer wrote them, it started "
          + "before B: make it start at " + plan.boundary() + ".");
    }
    return new Check("boundary", Status.PASS, pinned, "");
  }

  private static boolean written(LedgerEntry entry, HourSums.Hour now) {
    // A carried hour's line holds its files' fingerprint, which a merge since changes: its rows say it is the carry's.
    return entry != null && entry.complete() && entry.rows() == now.rowsV2()
        && (entry.carried() || entry.checksum() == now.checksumV2());
  }
}
