package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Repair.Operation;
import dev.cutover.engine.api.BoundaryPinnedException;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.PhaseRefusedException;
import dev.cutover.engine.api.TableSpec;
import java.util.Optional;

/**
 * The sentences that refuse a step on a target's repair, each with what to do: another process holds
 * it, its boundary is pinned, its phase does not allow the step, there is none, it recomputes with
 * another transform.
 */
final class RepairRefusals {

  private final TableSpec spec;
  private final String target;

  RepairRefusals(TableSpec spec, String target) {
    this.spec = spec;
    this.target = target;
  }

  HeldByAnotherProcessException held(Repair r, String step) {
    Operation op = r.operation().orElseThrow();
    return HeldByAnotherProcessException.of(step, op, "The repair of " + target + " is held by the " + op.describe()
        + "; only one process may change it at a time.", "Wait for it to end"
        + (op.action().equals(Operation.BACKFILL) ? ", or cancel the run there" : "") + ", then try again.");
  }

  BoundaryPinnedException pinned(Repair r, HourPartition asked, String step) {
    HourPartition b = r.boundary().orElseThrow();
    return new BoundaryPinnedException(step, r.id(), b, asked, "The repair of " + target + " pinned the boundary B = "
        + b + " when its first backfill started (repair " + r.id() + "); the corrected live writer owns every hour "
        + "from " + b + " on, so a backfill may only write hours before it, and " + asked + " cannot replace it.",
        "Keep " + b + ", or abandon the repair to start over with another boundary.");
  }

  PhaseRefusedException backfillAfterCutover(Repair r) {
    return new PhaseRefusedException("backfill", Optional.of(r.phase()), "consumers on v1", "The repair of " + target
        + " is " + r.phase().words() + ": consumers read " + spec.targetTable() + ", and rewriting its history now "
        + "would change what they see.", "Roll back first.");
  }

  PhaseRefusedException phase(Repair r, String action, String why) {
    return new PhaseRefusedException(action, Optional.of(r.phase()), why, "The " + action + " is refused: the repair "
        + "of " + target + " is " + r.phase().words() + ", and the " + action + " needs " + why + ".", "");
  }

  PhaseRefusedException abandonAfterCutover(Repair r) {
    return new PhaseRefusedException("abandon", Optional.of(r.phase()), "consumers on v1", "The repair of " + target
        + " is " + r.phase().words() + ": consumers read " + spec.targetTable() + ".", "Roll back first to abandon "
        + "it, or drop v1 to finish it.");
  }

  /** No repair is under way: the last one ended ({@code latest}), or there never was one. */
  PhaseRefusedException none(Optional<Repair> latest, String action) {
    return new PhaseRefusedException(action, Optional.empty(), "a repair under way", latest.map(ended -> "Repair "
        + ended.id() + " of " + target + " is over (" + ended.phase().words() + "): there is nothing to " + action
        + ".").orElse("There is no repair of " + target + " under way:"), latest.isPresent() ? ""
        : "it starts with its first backfill.");
  }

  PhaseRefusedException noneToAbandon() {
    return new PhaseRefusedException("abandon", Optional.empty(), "a repair under way", "There is no repair of "
        + target + " under way to abandon.", "");
  }

  InvalidInputException otherTransform(Repair r) {
    return new InvalidInputException("spec", "The repair of " + target + " recomputes history with another "
        + "transform (sha256 " + r.transformSha256().substring(0, 12) + "…, this spec's is "
        + spec.transformSha256().substring(0, 12) + "…): one repair must not mix two logics in "
        + spec.targetTable() + ". Restore that transform, or abandon the repair to recompute with this one.");
  }
}
