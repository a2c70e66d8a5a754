package dev.cutover.engine.cutover;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Gate.Version;
import dev.cutover.engine.api.GateClosedException;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PhaseRefusedException;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.reconcile.Reconciler;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.repair.CorrectedView;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TableNames;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Switches consumers between v1 and v2 in one atomic statement, {@code EXCHANGE TABLES view AND
 * view__next}, and back the same way. Each swap holds the repair from its gate to its record: a
 * second console or script asking at the same moment is refused and told who holds it. The gate is
 * judged again inside the swap, the rollback handle must read the other version, and afterwards the
 * consumer view is compared with the version it should read, hour by hour.
 */
public final class Swap {

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;
  private final Repairs repairs;
  private final ConsumerView view;
  private final Gates gates;
  /** How often a gate closed only by what a live writer leaves for a moment is judged again before it refuses. */
  private static final int MOMENT_RETRIES = 3;

  /** Whether every unmet condition is one a live writer between its two writes can leave unmet for a moment. */
  private static boolean passing(Gate gate) {
    return gate.unmet().stream().allMatch(c -> c.name().equals("data now") || c.name().equals("v2 caught up"));
  }

  /** Waits {@code millis} between two looks at a moment that may pass; an interrupt ends the wait. */
  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private final Progress progress;
  private Optional<String> rowsNotCompared = Optional.empty();
  /** The operator's reason for this swap, written to the audit trail and the repair's record beside it. */
  private Optional<String> reason = Optional.empty();
  private java.util.function.BooleanSupplier answering = () -> true;

  public Swap(RepairContext on) {
    this(on, Progress.NONE);
  }

  /** A swap that reports its steps (the gate judged again, the exchange, the verification) to {@code progress}. */
  public Swap(RepairContext on, Progress progress) {
    this.on = on;
    this.progress = progress;
    this.sql = on.sql();
    this.state = on.state();
    this.reports = on.reports();
    this.spec = on.spec();
    this.repairs = new Repairs(on);
    this.view = new ConsumerView(sql, spec);
    this.gates = new Gates(on);
  }

  /**
   * This swap checks the view's definition instead of its rows afterwards, for the reason given (the rows
   * cannot be read now); its result is not verified.
   */
  public Swap withoutRowComparison(String why) {
    this.rowsNotCompared = Optional.of(why);
    return this;
  }

  /**
   * This swap asks {@code answering} whether the server answers before it reads again what consumers read
   * after the server went away around the exchange, so that no read waits on a server that is gone.
   */
  /** This swap's reason, as the operator gave it (checked already): the audit trail keeps it with the swap. */
  public Swap because(Optional<String> why) {
    this.reason = why;
    return this;
  }

  public Swap withAnswering(java.util.function.BooleanSupplier answering) {
    this.answering = answering;
    return this;
  }

  private SwapHold hold() {
    return new SwapHold(repairs, view, spec, answering);
  }

  /** The one statement that switches consumers, both ways. */
  public String statement() {
    return "EXCHANGE TABLES " + spec.qualified(spec.consumerView()) + " AND " + spec.qualified(view.handle());
  }

  /** Switches consumers to v2. {@code confirmation} must be the consumer view's name, typed by the operator. */
  public SwapResult cutover(String confirmation) {
    confirm(confirmation, "cutover");
    if (view.reads() == Version.V2) {
      throw new PhaseRefusedException(Gate.CUTOVER, Optional.empty(), "consumers on v1", "Consumers already read "
          + spec.targetTable() + " through " + spec.consumerView() + "; a second cutover would switch them back.",
          "Use rollback for that.");
    }
    Repair held = repairs.claim(Repair.Operation.CUTOVER, RepairPhase::cutoverAllowed, "its history backfilled and "
        + "consumers on v1");
    try {
      progress.update("Judging the cutover gate from the data now", 0.05);
      Gate gate = gates.cutover(Optional.of(held), true);
      // A live writer that writes v1 and v2 one after the other (a job, or two views on one insert) leaves a moment
      // when one version has an hour the other does not yet. Judged again, a difference of that moment is gone; one
      // that is real is still there. The gate opens only on what it sees when it is judged.
      for (int again = 1; !gate.open() && again <= MOMENT_RETRIES && passing(gate); again++) {
        pause(250L * again);
        gate = gates.cutover(Optional.of(held), true);
      }
      if (!gate.open()) {
        held = repairs.release(held, "the cutover gate was closed: " + unmet(gate));
        throw GateClosedException.of(gate);
      }
      // The open gate saw each milestone in the data: they are recorded in order before consumers switch.
      for (RepairPhase milestone : List.of(RepairPhase.LIVE_FROM_B, RepairPhase.OVERLAP, RepairPhase.RECONCILED)) {
        if (held.phase() != RepairPhase.ROLLED_BACK && held.phase().compareTo(milestone) < 0) {
          held = repairs.advance(held, milestone, "the cutover gate saw it in the data: " + gate.conditions().stream()
              .filter(c -> c.name().equals(milestoneCondition(milestone))).map(Gate.Condition::detail).findFirst()
              .orElse(""));
        }
      }
      String next = ConsumerView.replaceTable(view.query(), spec.consumerLive().name(),
          spec.consumerTarget().name());
      sql.execute("prepare " + view.handle(), "CREATE OR REPLACE VIEW " + spec.qualified(view.handle()) + " AS " + next);
      requireHandle(Version.V1, Version.V2, "cutover");
      HourRange window = gate.judged().orElseThrow();
      SwapResult result = swap("cutover", Version.V1, Version.V2, spec.consumerTarget(), window);
      return hold().end(held, RepairPhase.CUT_OVER, "consumers read " + spec.targetTable(), result);
    } catch (RuntimeException e) {
      hold().settle(held, e);
      throw e;
    }
  }

  /** Switches consumers back to v1, while it is kept. */
  public SwapResult rollback(String confirmation) {
    confirm(confirmation, "rollback");
    Version current = view.reads();
    if (!view.liveExists()) {
      throw new PhaseRefusedException(Gate.ROLLBACK, Optional.empty(), "v1 kept", spec.liveTable()
          + " was dropped: consumers of " + spec.consumerView() + " read " + spec.targetTable() + " for good, and "
          + "there is no version to roll back to.", "");
    }
    if (current != Version.V2) {
      throw new PhaseRefusedException(Gate.ROLLBACK, Optional.empty(), "consumers on v2", "Consumers read "
          + (current == Version.V1 ? spec.liveTable() : "neither version") + " through " + spec.consumerView()
          + "; there is no cutover to roll back.", "");
    }
    Repair held = repairs.claim(Repair.Operation.ROLLBACK, p -> p == RepairPhase.CUT_OVER, "consumers switched to v2");
    try {
      progress.update("Judging the rollback gate from the data now", 0.05);
      Gate gate = gates.rollback(Optional.of(held), true);
      if (!gate.open()) {
        held = repairs.release(held, "the rollback gate was closed: " + unmet(gate));
        throw GateClosedException.of(gate);
      }
      requireHandle(Version.V2, Version.V1, "rollback");
      HourRange window = new Reconciler(on).window(held, Scope.REPAIR, Optional.empty());
      SwapResult result = swap("rollback", Version.V2, Version.V1, spec.consumerLive(), window);
      // The reason comes last in the repair's record, where status finds it (RepairPhase.REASON).
      result = hold().end(held, RepairPhase.ROLLED_BACK, "consumers read " + spec.liveTable() + " again", result,
          reason.map(r -> RepairPhase.REASON + r).orElse(""));
      String repair = held.id();
      // A corrected view would keep writing a table nobody reads, under a fix that was just taken back.
      try {
        repairs.latest().filter(r -> r.phase() == RepairPhase.ROLLED_BACK && r.id().equals(repair))
            .ifPresent(rolledBack -> new CorrectedView(on).dropDeployed(rolledBack, "consumers were "
                + "rolled back to " + spec.liveTable()));
      } catch (RuntimeException e) {
        // Consumers read v1 again, which is what the rollback promised; the repair still names the view, and
        // its status says that it still writes v2 until an abandon drops it.
      }
      return result;
    } catch (RuntimeException e) {
      hold().settle(held, e);
      throw e;
    }
  }

  /**
   * The handle must read the other version right before the exchange: a swap of two views over the
   * same version would leave consumers where they are and the handle pointing nowhere useful.
   */
  private void requireHandle(Version viewNow, Version handleNow, String step) {
    Version reads = view.reads();
    Optional<Version> handle = view.handleReads();
    if (reads != viewNow || handle.isEmpty() || handle.get() != handleNow) {
      String found = spec.consumerView() + " reads " + reads + " and the rollback handle " + view.handle() + " reads "
          + handle.map(Object::toString).orElse("nothing (it does not exist)") + ", but the swap needs " + viewNow
          + " and " + handleNow;
      throw new GateClosedException(step, List.of(new Gate.Condition("rollback handle", false, found)), "The " + step
          + " is refused: " + found + ". Nothing was changed.", "Make the handle read the other version, then try "
          + "again: " + gates.handleRepair() + ".", List.of());
    }
  }

  /**
   * Exchanges, then checks what consumers read. Once the exchange has run, nothing that fails after it (the
   * check, the swap log, the audit trail) is thrown: consumers were switched, and the result says so, with what
   * could not be checked and where to find out.
   */
  private SwapResult swap(String action, Version before, Version after, Identifier nowRead, HourRange window) {
    state.ensureSchema();
    reports.ensureSchema();
    Instant at = Instant.now();
    // The intent is written first: a process killed right after the exchange still leaves a trace of it.
    reports.recordSwap(new ReportStore.SwapRecord(TableNames.target(spec), action, at, Operator.user(), statement(),
        "requested: " + before + " -> " + after));
    progress.update("Exchanging: " + statement(), 0.80);
    AfterExchange aftermath = new AfterExchange(sql, spec, answering, AfterExchange.PATIENCE);
    String how = "the server acknowledged the exchange";
    long started = System.nanoTime();
    try {
      sql.execute(action + " " + spec.consumerView(), statement());
    } catch (QueryFailedException e) {
      if (!e.unreachable()) {
        throw e; // the server refused the statement: nothing was switched
      }
      // The server went away while the statement ran: its definition says whether consumers were switched.
      AfterExchange.Reading reading = aftermath.readAgain();
      if (reading.reads().filter(v -> v == after).isEmpty()) {
        throw aftermath.notSwitched(action, statement(), e, reading);
      }
      how = aftermath.ranAnyway(e, reading);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    progress.update("Verifying what " + spec.consumerView() + " returns, hour by hour over "
        + Figures.count(window.hours()) + " hours", 0.85);
    SwapVerification.Verification check = rowsNotCompared.isEmpty()
        ? aftermath.check(window, nowRead, after, action, how)
        : new SwapVerification.Verification(SwapResult.Check.INCOMPLETE, "NOT verified: " + spec.consumerView()
            + "'s definition reads " + view.reads() + " (" + nowRead + "); its rows were not compared, because "
            + rowsNotCompared.get());
    progress.update(check.verified() ? "Verified" : "Not verified", 1.0);
    try {
      if (check.check() == SwapResult.Check.INCOMPLETE && !answering.getAsBoolean()) {
        return new SwapResult(action, statement(), before, after, at, took, window, check.check(), check.sentence());
      }
      reports.recordSwap(new ReportStore.SwapRecord(TableNames.target(spec), action, at, Operator.user(), statement(),
          check.sentence()));
      state.audit(TableNames.target(spec), action, statement() + " by " + Operator.user() + " on " + Operator.host()
          + ": " + before + " -> " + after + "; " + check.sentence() + reason.map(r -> " Reason: " + r).orElse(""));
    } catch (CutoverException e) {
      // The swap log keeps its request, which explains either version; the repair's record is settled below.
    }
    return new SwapResult(action, statement(), before, after, at, took, window, check.check(), check.sentence());
  }

  private static String milestoneCondition(RepairPhase milestone) {
    return switch (milestone) {
      case LIVE_FROM_B -> "live writer from B";
      case OVERLAP -> "overlap";
      default -> "data now";
    };
  }

  private static String unmet(Gate gate) {
    return gate.unmet().stream().map(Gate.Condition::name).collect(Collectors.joining(", "));
  }

  private void confirm(String confirmation, String action) {
    if (!spec.consumerView().name().equals(confirmation)) {
      throw new InvalidInputException("confirm", "To " + action + ", confirm with the consumer view's name, "
          + spec.consumerView() + (confirmation == null || confirmation.isBlank() ? "" : " (you typed '" + confirmation
              + "')") + ".");
    }
  }
}
