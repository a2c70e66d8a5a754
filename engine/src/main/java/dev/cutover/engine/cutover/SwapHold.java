package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Gate.Version;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import java.util.function.BooleanSupplier;

/**
 * A swap's hold on the repair, ended: with the phase the swap reached, or, after a failure, with the
 * phase the consumer view's definition shows. Consumers read what the exchange made them read whatever
 * happens to this record; when it cannot be written, the next process that reads the repair settles it.
 */
final class SwapHold {

  private final Repairs repairs;
  private final ConsumerView view;
  private final TableSpec spec;
  private final BooleanSupplier answering;

  SwapHold(Repairs repairs, ConsumerView view, TableSpec spec, BooleanSupplier answering) {
    this.repairs = repairs;
    this.view = view;
    this.spec = spec;
    this.answering = answering;
  }

  /**
   * Ends the hold of a swap that was made, with the repair in phase {@code to}; when that record cannot be
   * written, the result says so instead of failing: consumers were switched.
   */
  SwapResult end(Repair held, RepairPhase to, String note, SwapResult result) {
    return end(held, to, note, result, "");
  }

  /** As {@link #end(Repair, RepairPhase, String, SwapResult)}, with {@code last} after the verification in the note. */
  SwapResult end(Repair held, RepairPhase to, String note, SwapResult result, String last) {
    String unwritten = ". The repair's record of the " + result.action() + " could not be written now (%s); the next "
        + "process that reads the repair records it as " + spec.consumerView() + "'s definition shows";
    // A server that does not answer would keep each statement below waiting for a connection.
    if (result.check() == SwapResult.Check.INCOMPLETE && !answering.getAsBoolean()) {
      repairs.letGo(held);
      return result.withVerification(result.verification() + unwritten.formatted("the server does not answer"));
    }
    try {
      repairs.finish(held, to, note + "; " + result.verification() + last);
      return result;
    } catch (RuntimeException e) {
      settle(held, e);
      return result.withVerification(result.verification() + unwritten.formatted(Sql.situation(e.getMessage())));
    }
  }

  /** After a failure inside a swap: the repair is recorded as the consumer view's definition shows. */
  void settle(Repair held, RuntimeException cause) {
    if (held.operation().isEmpty()) {
      return; // released or finished already
    }
    String why = cause.getMessage() == null ? cause.toString() : Sql.situation(cause.getMessage());
    try {
      if (repairs.latest().filter(r -> r.version() == held.version()).isEmpty()) {
        // Someone else recorded the repair meanwhile; make sure it says what consumers read.
        repairs.agreeWithView("after a " + held.operation().get().action() + " that ended with: " + why);
        return;
      }
      Version reads = view.reads();
      RepairPhase phase = held.operation().map(Repair.Operation::action).orElse("").equals(Repair.Operation.CUTOVER)
          ? (reads == Version.V2 ? RepairPhase.CUT_OVER : held.phase())
          : (reads == Version.V1 ? RepairPhase.ROLLED_BACK : RepairPhase.CUT_OVER);
      repairs.finish(held, phase, "ended by a failure: " + why);
    } catch (RuntimeException e) {
      // The server may be gone; the next process that looks settles the repair from the view's definition.
    }
  }
}
