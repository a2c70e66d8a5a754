package dev.cutover.engine;

import dev.cutover.engine.api.Armed;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import dev.cutover.engine.cutover.Arming;
import dev.cutover.engine.cutover.Gates;
import dev.cutover.engine.cutover.Retirement;
import dev.cutover.engine.cutover.Swap;
import dev.cutover.engine.tables.Leftovers;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Switching consumers and what follows: the gates judged from the data, the one-statement exchange
 * and its way back, the retention of the rollback handle, retiring v1 and cleaning staging.
 */
public final class Cutovers {

  private final Ground ground;

  Cutovers(Ground ground) {
    this.ground = ground;
  }

  /**
   * The switch of {@code spec}'s consumers on this server as {@link CutoverSteps}, the shape a cluster's has
   * too: what the console's Cutover screen runs.
   */
  public CutoverSteps of(TableSpec spec) {
    return new ServerCutover(this, ground, spec);
  }

  /** The cutover gate, judged from the data now. */
  public Gate gate(TableSpec spec) {
    return gates(spec).cutover();
  }

  /** The rollback gate. */
  public Gate rollbackGate(TableSpec spec) {
    return gates(spec).rollback();
  }

  /** The statement the cutover runs, exactly, for the confirmation to show. */
  public String statement(TableSpec spec) {
    return new Swap(ground.on(spec)).statement();
  }

  public SwapResult cutover(TableSpec spec, String confirmation) {
    return cutover(spec, confirmation, Progress.NONE);
  }

  /** The cutover, reporting its steps: the gate judged again from the data, the exchange, the verification. */
  public SwapResult cutover(TableSpec spec, String confirmation, Progress progress) {
    return byHand(spec, "cutover", swap(spec, progress).cutover(confirmation));
  }

  /**
   * A switch the operator made ends an arm: an arm left after a cutover by hand would, after a rollback, switch
   * consumers forward again against the operator's intent.
   */
  private SwapResult byHand(TableSpec spec, String step, SwapResult done) {
    try {
      arming(spec).disarm("consumers were switched by a " + step + " made by hand");
    } catch (RuntimeException e) {
      // The switch is made; an arm left is ended by its next turn, which finds consumers on v2 or the gate closed.
    }
    return done;
  }

  public SwapResult rollback(TableSpec spec, String confirmation) {
    return rollback(spec, confirmation, Progress.NONE);
  }

  /** The rollback, reporting its steps as {@link #cutover(TableSpec, String, Progress)} does. */
  public SwapResult rollback(TableSpec spec, String confirmation, Progress progress) {
    return byHand(spec, "rollback", swap(spec, progress).rollback(confirmation));
  }

  /**
   * The rollback with the operator's reason, which the audit trail and the repair's record keep beside it; a
   * reason given is one line, not blank (refused before anything is switched otherwise).
   */
  public SwapResult rollback(TableSpec spec, String confirmation, Optional<String> reason, Progress progress) {
    return byHand(spec, "rollback", swap(spec, progress).because(Reasons.rollback(reason)).rollback(confirmation));
  }

  /**
   * Arms the cutover: consumers switch to v2 by themselves the first time the gate opens within {@code window} from
   * now, when the command that armed it or a console open on the repair takes its turn ({@link #armedTurn}). Refused,
   * nothing written, unless {@code confirmation} names the consumer view, consumers read v1, the window is between
   * a minute and {@link Arming#LONGEST}, and nothing is armed yet.
   */
  public Armed arm(TableSpec spec, String confirmation, java.time.Duration window) {
    return arming(spec).arm(confirmation, window, gates(spec).rollback().current());
  }

  /** Removes the arm with the operator's why in the audit trail; empty when nothing was armed. */
  public Optional<Armed> disarm(TableSpec spec, String why) {
    return arming(spec).disarm(why);
  }

  /** The arm in force, when there is one. Reads only. */
  public Optional<Armed> armed(TableSpec spec) {
    return arming(spec).armed();
  }

  /**
   * One turn of the armed cutover: past its window, the arm is removed and nothing switches; inside it, the gate is
   * judged, and when it is open the ordinary cutover runs (its gate judged again inside) and the arm is removed once
   * consumers switched. A closed gate, or a swap another process holds, leaves the arm for the next turn.
   */
  public Armed.Turn armedTurn(TableSpec spec, Progress progress) {
    Arming arming = arming(spec);
    Optional<Armed> armed = arming.armed();
    if (armed.isEmpty()) {
      return new Armed.Turn(Armed.Outcome.NOT_ARMED, armed, Optional.empty(), Optional.empty(), "Nothing is armed.");
    }
    if (armed.get().expired(java.time.Instant.now())) {
      arming.disarm("its window ended before the gate opened; nothing was switched");
      return new Armed.Turn(Armed.Outcome.EXPIRED, armed, Optional.empty(), Optional.empty(), "The window of the "
          + "armed cutover (" + armed.get().describe() + ") ended before the gate opened; nothing was switched.");
    }
    Gate gate = gate(spec);
    if (gate.current() == Gate.Version.V2) {
      // Switched meanwhile (by hand, or by another process's turn): the arm has nothing left to do.
      arming.disarm("consumers read v2 already; nothing was switched by the arm");
      return new Armed.Turn(Armed.Outcome.NOT_ARMED, armed, Optional.of(gate), Optional.empty(), "Consumers read v2 "
          + "already; the arm is removed, and nothing was switched by it.");
    }
    if (!gate.open()) {
      return new Armed.Turn(Armed.Outcome.WAITING, armed, Optional.of(gate), Optional.empty(), "Armed; the gate is "
          + "closed (" + gate.unmet().stream().map(Gate.Condition::name).collect(java.util.stream.Collectors.joining(
          ", ")) + "); waiting.");
    }
    // The hooks before a cutover run before the arm is taken: one that fails leaves the arm in place, and the next
    // turn runs them again.
    var hooks = RepairHooks.onServer(ground, spec);
    try {
      if (hooks.has(dev.cutover.engine.api.Hook.Event.BEFORE_CUTOVER)) {
        hooks.run(dev.cutover.engine.api.Hook.Event.BEFORE_CUTOVER, "cutover", java.util.Map.of("to", "v2",
            "armed", true));
      }
    } catch (dev.cutover.engine.api.StepRefusedException refused) {
      return new Armed.Turn(Armed.Outcome.WAITING, armed, Optional.of(gate), Optional.empty(), "Armed; the gate is "
          + "open, but " + refused.getMessage() + " Waiting.");
    }
    // The arm is taken before the switch, by one caller only: a disarm (or another process's turn) that came first
    // leaves nothing to take, and nothing is switched.
    if (!arming.take(armed.get())) {
      return new Armed.Turn(Armed.Outcome.NOT_ARMED, Optional.empty(), Optional.of(gate), Optional.empty(),
          "The arm was removed (disarmed, or taken by another process's turn) before this turn switched; nothing "
          + "was switched by it.");
    }
    try {
      SwapResult done = swap(spec, progress).cutover(spec.consumerView().name());
      try {
        hooks.run(dev.cutover.engine.api.Hook.Event.AFTER_CUTOVER, "cutover", java.util.Map.of("to", "v2", "armed",
            true, "verification", done.verification()));
      } catch (RuntimeException e) {
        // A hook after the switch changes nothing; its run is in the audit trail.
      }
      arming.audit("consumers switched to v2 at " + Figures.time(done.at()) + ", the first time "
          + "the gate opened; the arm is gone");
      return new Armed.Turn(Armed.Outcome.SWITCHED, armed, Optional.of(gate), Optional.of(done), "The armed cutover "
          + "switched consumers to v2: " + done.verification());
    } catch (dev.cutover.engine.api.StepRefusedException refused) {
      // The gate closed between the two judgements, or another process holds the repair: the arm is put back as it
      // was, and the next turn looks again.
      arming.restore(armed.get());
      return new Armed.Turn(Armed.Outcome.WAITING, armed, Optional.of(gate), Optional.empty(), "Armed; the cutover "
          + "was refused this turn (" + refused.getMessage() + "); waiting.");
    }
  }

  /**
   * A swap whose rows cannot be compared now, as when a node of the cluster the consumer view reads through
   * does not answer: the gate is judged and the exchange made as always, and the view's definition, not its
   * rows, tells which version it reads; the result is not verified and says why. For switching a node back
   * to where it was after a cluster-wide swap failed, so that no node stays on the other version.
   */
  public SwapResult swapUnverified(TableSpec spec, String confirmation, Gate.Version to, String whyRowsAreNotCompared) {
    Swap swap = new Swap(ground.on(spec), Progress.NONE)
        .withoutRowComparison(whyRowsAreNotCompared);
    return to == Gate.Version.V2 ? swap.cutover(confirmation) : swap.rollback(confirmation);
  }

  /** How long the rollback handle is kept, and whether it still exists. */
  public Retention retention(TableSpec spec) {
    return retirement(spec).retention();
  }

  /** The statements that drop v1 and the rollback handle, exactly as {@link #dropV1} runs them. */
  public List<String> dropV1Statements(TableSpec spec) {
    return retirement(spec).dropStatements();
  }

  /** Drops v1, refused while a table that still uses it is not acknowledged (see {@link #v1Readers}). */
  public List<String> dropV1(TableSpec spec, boolean force, String reason, List<String> acknowledged) {
    return retirement(spec).dropV1(force, reason, acknowledged);
  }

  /** What {@link #dropV1} checks before it drops anything, refused as it would be; writes nothing. */
  public List<V1Reader> checkDropV1(TableSpec spec, boolean force, String reason, List<String> acknowledged) {
    return retirement(spec).checkDrop(force, reason, acknowledged);
  }

  /** The tables that still use v1 and break when it is dropped. */
  public List<V1Reader> v1Readers(TableSpec spec) {
    return retirement(spec).v1Readers();
  }

  /** Drops what backfills left in staging; returns the statements it ran. */
  public List<String> cleanup(TableSpec spec) {
    return new Leftovers(ground.on(spec)).drop();
  }

  private Gates gates(TableSpec spec) {
    return new Gates(ground.on(spec));
  }

  private Swap swap(TableSpec spec, Progress progress) {
    return new Swap(ground.on(spec), progress)
        .withAnswering(() -> ground.database().ping(java.time.Duration.ofSeconds(1)).answering());
  }

  private Arming arming(TableSpec spec) {
    return new Arming(ground.on(spec));
  }

  private Retirement retirement(TableSpec spec) {
    return new Retirement(ground.on(spec));
  }
}
