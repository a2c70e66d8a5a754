package dev.cutover.engine.repair;

import dev.cutover.engine.api.Gate.Version;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Repair.Operation;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import java.util.Optional;

/**
 * Records what the world shows when no live process can say it: the phase an operation reached
 * when its process died (a backfill from its ledger, a swap from the consumer view's definition),
 * and after a swap whose own record failed, what consumers read. Each record is a compare-and-set;
 * losing to another process is fine, since that one recorded something newer.
 */
final class Settlement {

  private final RepairStore store;
  private final Holders holders;
  private final ConsumerView view;
  private final TableSpec spec;
  private final java.util.function.Function<Repair, RepairPhase> backfilled;

  /** {@code backfilled}: the phase a repair's ledger shows once its backfill stopped (backfilled, or not yet). */
  Settlement(RepairStore store, Holders holders, ConsumerView view, TableSpec spec,
      java.util.function.Function<Repair, RepairPhase> backfilled) {
    this.store = store;
    this.holders = holders;
    this.view = view;
    this.spec = spec;
    this.backfilled = backfilled;
  }

  /** {@code current}, after settling its operation when that operation's process is gone. */
  Optional<Repair> settle(Optional<Repair> current, java.util.function.Supplier<Optional<Repair>> reread) {
    if (current.isEmpty() || current.get().operation().isEmpty() || !holders.gone(current.get().operation().get())) {
      return current;
    }
    Repair r = current.get();
    Operation op = r.operation().get();
    RepairPhase phase = recovered(r, op);
    try {
      return Optional.of(store.write(current, r.next(phase, Optional.empty(), Operator.actor(), "settled: the "
          + op.describe() + " ended with its process; the repair is " + phase.words() + ", as "
          + (!op.action().equals(Operation.BACKFILL) ? "the consumer view's definition shows"
              : phase == RepairPhase.BACKFILLED ? "the repair's ledger shows: every hour below B is written"
              : "the repair's ledger shows (resume the run to finish it)")), "settle"));
    } catch (StepRefusedException lost) {
      return reread.get(); // another process settled it first
    }
  }

  /** {@code current}, recorded as the consumer view's definition shows when no operation holds it. */
  Optional<Repair> agreeWithView(Optional<Repair> current, String why,
      java.util.function.Supplier<Optional<Repair>> reread) {
    if (current.isEmpty() || current.get().operation().isPresent()) {
      return current;
    }
    Repair r = current.get();
    Version reads = view.reads();
    RepairPhase truth = reads == Version.V2 ? RepairPhase.CUT_OVER
        : r.phase() == RepairPhase.CUT_OVER ? RepairPhase.ROLLED_BACK : r.phase();
    if (truth == r.phase() || !r.phase().canBecome(truth)) {
      return current;
    }
    try {
      return Optional.of(store.write(current, r.next(truth, Optional.empty(), Operator.actor(), "corrected: consumers "
          + "read " + (reads == Version.V2 ? spec.targetTable() : spec.liveTable()) + " (" + why + ")"), "correct"));
    } catch (StepRefusedException lost) {
      return reread.get();
    }
  }

  /** The phase an operation whose process died left the repair in, as the data shows it. */
  private RepairPhase recovered(Repair r, Operation op) {
    return switch (op.action()) {
      case Operation.CUTOVER -> view.reads() == Version.V2 ? RepairPhase.CUT_OVER : r.phase();
      case Operation.ROLLBACK -> view.reads() == Version.V1 ? RepairPhase.ROLLED_BACK : RepairPhase.CUT_OVER;
      case Operation.DROP_V1 -> view.liveExists() ? RepairPhase.CUT_OVER : RepairPhase.V1_DROPPED;
      // A run killed after its last hour but before it let go has written the history all the same.
      case Operation.BACKFILL -> r.phase().canBecome(backfilled.apply(r)) ? backfilled.apply(r) : r.phase();
      default -> r.phase();
    };
  }
}
