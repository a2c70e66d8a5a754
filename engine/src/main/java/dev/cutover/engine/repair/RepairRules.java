package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.TableSpec;
import java.util.function.Predicate;

/**
 * What a step needs of the repair it takes: no other operation holding it, the pinned boundary, the
 * repair's transform, and a phase that allows the step. Each rule throws the refusal that says what
 * to do; none writes anything.
 */
final class RepairRules {

  private final TableSpec spec;
  private final RepairRefusals refusals;

  RepairRules(TableSpec spec, RepairRefusals refusals) {
    this.spec = spec;
    this.refusals = refusals;
  }

  /** No other operation holds the repair: only one process may change it at a time. */
  void requireFree(Repair r, String step) {
    if (r.operation().isPresent()) {
      throw refusals.held(r, step);
    }
  }

  /** The boundary asked for is the one the repair pinned, when it pinned one. */
  void requireBoundary(Repair r, HourPartition asked, String step) {
    if (r.boundary().isPresent() && !r.boundary().get().equals(asked)) {
      throw refusals.pinned(r, asked, step);
    }
  }

  /** The repair's transform: one repair, one logic in v2. */
  void requireTransform(Repair r) {
    if (!r.transformSha256().equals(spec.transformSha256())) {
      throw refusals.otherTransform(r);
    }
  }

  /** A backfill of {@code plan} may take {@code r}: free, same boundary, same transform, consumers on v1. */
  void requireBackfill(Repair r, Plan plan) {
    requireFree(r, "backfill");
    requireBoundary(r, plan.boundary(), "backfill");
    requireTransform(r);
    if (!r.phase().backfillAllowed()) {
      throw refusals.backfillAfterCutover(r);
    }
  }

  /** {@code action} may take {@code r}: free, in a phase {@code allowed} accepts ({@code why} says which). */
  void requireClaim(Repair r, String action, Predicate<RepairPhase> allowed, String why) {
    requireFree(r, action);
    if (!allowed.test(r.phase())) {
      throw refusals.phase(r, action, why);
    }
  }

  /** {@code r} may be abandoned: free, and consumers do not read v2. */
  void requireAbandon(Repair r) {
    requireFree(r, "abandon");
    if (!r.phase().canBecome(RepairPhase.ABANDONED)) {
      throw refusals.abandonAfterCutover(r);
    }
  }
}
