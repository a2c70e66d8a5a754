package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Repair.Operation;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import java.util.List;
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

  StepRefusedException held(Repair r, String step) {
    Operation op = r.operation().orElseThrow();
    return new StepRefusedException(step, "The repair of " + target + " is held by the " + op.describe()
        + "; only one process may change it at a time. Wait for it to end"
        + (op.action().equals(Operation.BACKFILL) ? ", or cancel the run there" : "") + ", then try again.",
        List.of(), Optional.of(op.holder()));
  }

  InvalidInputException pinned(Repair r, HourPartition asked) {
    return new InvalidInputException("boundary", pinnedSentence(r, asked));
  }

  /** The sentence that refuses a boundary other than the pinned one. */
  String pinnedSentence(Repair r, HourPartition asked) {
    HourPartition b = r.boundary().orElseThrow();
    return "The repair of " + target + " pinned the boundary B = " + b + " when its first backfill started (repair "
        + r.id() + "); the corrected live writer owns every hour from " + b + " on, so a backfill may only write "
        + "hours before it, and " + asked + " cannot replace it. Keep " + b + ", or abandon the repair to start over "
        + "with another boundary.";
  }

  StepRefusedException backfillAfterCutover(Repair r) {
    return new StepRefusedException("backfill", "The repair of " + target + " is " + r.phase().words()
        + ": consumers read " + spec.targetTable() + ", and rewriting its history now would change what they "
        + "see. Roll back first.");
  }

  StepRefusedException phase(Repair r, String action, String why) {
    return new StepRefusedException(action, "The " + action + " is refused: the repair of " + target + " is "
        + r.phase().words() + ", and the " + action + " needs " + why + ".");
  }

  StepRefusedException abandonAfterCutover(Repair r) {
    return new StepRefusedException("abandon", "The repair of " + target + " is " + r.phase().words()
        + ": consumers read " + spec.targetTable() + ". Roll back first to abandon it, or drop v1 to finish it.");
  }

  /** No repair is under way: the last one ended ({@code latest}), or there never was one. */
  StepRefusedException none(Optional<Repair> latest, String action) {
    return new StepRefusedException(action, latest.map(ended -> "Repair " + ended.id() + " of " + target
        + " is over (" + ended.phase().words() + "): there is nothing to " + action + ".")
        .orElse("There is no repair of " + target + " under way: it starts with its first backfill."));
  }

  StepRefusedException noneToAbandon() {
    return new StepRefusedException("abandon", "There is no repair of " + target + " under way to abandon.");
  }

  InvalidInputException otherTransform(Repair r) {
    return new InvalidInputException("spec", "The repair of " + target + " recomputes history with another "
        + "transform (sha256 " + r.transformSha256().substring(0, 12) + "…, this spec's is "
        + spec.transformSha256().substring(0, 12) + "…): one repair must not mix two logics in "
        + spec.targetTable() + ". Restore that transform, or abandon the repair to recompute with this one.");
  }
}
