package dev.cutover.engine.repair;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.Reconciliation.Verdict;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.TableSpec;
import java.util.Optional;

/**
 * Records the milestones a look at the data has shown, in their order: backfilled (every hour below
 * B in the ledger), live from B (the corrected live writer starts at B and keeps to it), overlap (it
 * has written the spec's minimum since B), reconciled (a verdict over the whole repair allows the
 * cutover). A red verdict over the whole repair takes a reconciled repair back to overlap.
 */
public final class Milestones {

  private Milestones() {}

  /** @param verdict the verdict of a reconciliation over the whole repair, when one was just made */
  public static Optional<Repair> record(Repairs repairs, LiveWriter live, TableSpec spec, Optional<Verdict> verdict) {
    Optional<Repair> current = repairs.settled();
    if (current.isEmpty() || current.get().operation().isPresent()) {
      return current;
    }
    if (current.get().phase() == RepairPhase.BACKFILLING && repairs.missingHistory(current.get()).isEmpty()) {
      current = repairs.observe(RepairPhase.BACKFILLED, "every hour below B is in the ledger");
    }
    if (live.startsAtBoundary() && current.map(r -> r.phase() == RepairPhase.BACKFILLED).orElse(false)) {
      current = repairs.observe(RepairPhase.LIVE_FROM_B, live.describe());
    }
    boolean overlap = live.startsAtBoundary() && live.hours() >= spec.minimumOverlap().toHours();
    if (overlap && current.map(r -> r.phase() == RepairPhase.LIVE_FROM_B).orElse(false)) {
      current = repairs.observe(RepairPhase.OVERLAP, "both versions written live for " + Figures.count(live.hours())
          + " hours since B");
    }
    if (verdict.isPresent() && verdict.get().allowsCutover() && overlap
        && current.map(r -> r.phase() == RepairPhase.OVERLAP).orElse(false)) {
      current = repairs.observe(RepairPhase.RECONCILED, "the whole repair reconciled: " + verdict.get().name()
          .toLowerCase());
    }
    if (verdict.isPresent() && !verdict.get().allowsCutover()
        && current.map(r -> r.phase() == RepairPhase.RECONCILED).orElse(false)) {
      current = repairs.observe(RepairPhase.OVERLAP, "the whole repair reconciled red");
    }
    return current;
  }
}
