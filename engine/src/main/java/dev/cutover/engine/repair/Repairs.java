package dev.cutover.engine.repair;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Repair.Operation;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Every change of one target's repair: created and pinned by its first backfill, held by one
 * operation at a time (a backfill run, a cutover, a rollback, a drop of v1), moved through its
 * phases, abandoned. Each change is a compare-and-set on the repair's state record, so two
 * processes (two consoles, or a console and a script) can never both move it: the second is told
 * who did. What a step needs of the repair is in {@link RepairRules}; the refusals' sentences in
 * {@link RepairRefusals}.
 *
 * <p>An operation whose process died is settled by the next process that looks ({@link Settlement}):
 * a backfill goes back to resumable; a swap is recorded as what the consumer view's definition shows.
 */
public final class Repairs {

  private final StateStore runs;
  private final RepairStore store;
  private final TableSpec spec;
  private final String target;
  private final RepairRules rules;
  private final RepairRefusals refusals;
  private final Settlement settlement;

  public Repairs(RepairContext on) {
    this.runs = on.state();
    this.store = new RepairStore(on.sql(), on.state().database());
    this.spec = on.spec();
    this.target = on.spec().database().name() + "." + on.spec().targetTable().name();
    this.refusals = new RepairRefusals(on.spec(), target);
    this.rules = new RepairRules(on.spec(), refusals);
    this.settlement = new Settlement(store, new Holders(on.state()), new ConsumerView(on.sql(), on.spec()), on.spec(),
        r -> missingHistory(r).isEmpty() ? RepairPhase.BACKFILLED : RepairPhase.BACKFILLING);
  }

  public String target() {
    return target;
  }

  /** Declarations that the repair's corrected live writer, a job outside the database, was deployed. */
  public LiveWriterNotes liveWriterNotes() {
    return new LiveWriterNotes(runs, spec, this);
  }

  /** The target's newest repair record, ended or not. */
  public Optional<Repair> latest() {
    return store.current(target);
  }

  /** The repair under way: the newest record unless that repair has ended. */
  public Optional<Repair> open() {
    return latest().filter(r -> !r.phase().ended());
  }

  /** The state records of this target's repairs, newest first. */
  public List<Repair> history(int limit) {
    return store.history(target, limit);
  }

  /**
   * The repair under way, after settling an operation whose process is gone: that change is
   * recorded, so that every process sees the same repair afterwards.
   */
  public Optional<Repair> settled() {
    return settlement.settle(open(), this::open);
  }

  /**
   * Takes the repair for a backfill run: creates the repair on the target's first backfill (pinning
   * the plan's boundary), or checks that the plan keeps the pinned boundary and the repair's
   * transform. Refuses while another operation holds the repair or consumers read v2.
   */
  public Repair beginBackfill(Plan plan, String runId) {
    Operation op = new Operation(Operation.BACKFILL, Operator.actor(), Instant.now(), runId);
    Optional<Repair> current = settled();
    if (current.isPresent()) {
      Repair r = current.get();
      rules.requireBackfill(r, plan);
      HourPartition first = r.firstHour().filter(f -> f.isBefore(plan.range().from())).orElse(plan.range().from());
      Repair next = r.next(RepairPhase.BACKFILLING, Optional.of(op), op.holder(), "backfill run " + runId + " of "
          + plan.range() + ", boundary " + plan.boundary()).withFirstHour(first).withBoundary(plan.boundary());
      return Holders.holding(op, () -> store.write(current, next, "backfill"));
    }
    Repair planned = plan(plan.boundary(), Optional.of(plan.range().from()), java.util.List.of(), op.holder(),
        "planned with the boundary " + plan.boundary(), "backfill");
    Repair pinned = planned;
    return Holders.holding(op, () -> store.write(Optional.of(pinned), pinned.next(RepairPhase.BACKFILLING, Optional.of(op),
        op.holder(), "the boundary " + plan.boundary() + " is pinned by the first backfill, run " + runId + " of "
            + plan.range()), "backfill"));
  }

  /**
   * Starts a new repair of the target, planned with {@code boundary} pinned, after the target's last
   * one has ended; {@code liveViews} are the corrected views its deployment creates, if it is theirs.
   */
  public Repair plan(HourPartition boundary, Optional<HourPartition> firstHour,
      java.util.List<dev.cutover.engine.api.Identifier> liveViews, Repair.Actor by, String note, String step) {
    Optional<Repair> before = latest();
    String id = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()) + "-"
        + UUID.randomUUID().toString().substring(0, 6);
    Repair planned = new Repair(id, target, before.map(Repair::version).orElse(0L) + 1, RepairPhase.PLANNED,
        Optional.of(boundary), firstHour, spec.name(), spec.transformSha256(), liveViews, Optional.empty(),
        Instant.now(), by, note + before.map(b -> " after repair " + b.id() + " was " + b.phase().words()).orElse(""));
    return store.write(before, planned, step);
  }

  /**
   * Ends a run's hold on the repair: backfilled when the ledger holds every hour of the repair window
   * below B, still backfilling (resumable) otherwise. A record that cannot be written now is settled
   * by the next process that looks. A repair that another process settled under the run, taking it for gone (its
   * process on another host, its beat late), and that no operation holds since, is recorded backfilled all the same
   * once the run's end completes its ledger: nothing else would, before a reconciliation.
   */
  public void backfillEnded(RunRecord run) {
    try {
      Optional<Repair> current = latest();
      if (current.isEmpty() || !current.get().id().equals(run.repairId())) {
        return;
      }
      Repair r = current.get();
      boolean held = r.operation().map(o -> o.runId().equals(run.id())).orElse(false);
      boolean settledUnder = r.operation().isEmpty() && r.phase() == RepairPhase.BACKFILLING;
      if (!held && !settledUnder) {
        return;
      }
      List<HourPartition> missing = missingHistory(r);
      if (!held && !missing.isEmpty()) {
        return; // it says backfilling already, resumable
      }
      RepairPhase phase = missing.isEmpty() ? RepairPhase.BACKFILLED : RepairPhase.BACKFILLING;
      store.write(current, r.next(phase, Optional.empty(), Operator.actor(), "run " + run.id() + " "
          + run.state().name().toLowerCase() + (missing.isEmpty() ? "; every hour below B is in the ledger"
              : "; " + Figures.count(missing.size()) + " hour(s) below B are not written yet, from "
              + missing.getFirst())),
          "backfill");
    } catch (RuntimeException e) {
      // The server may be gone; the next process that looks settles the run from its record.
    } finally {
      Holders.ended(run.id());
    }
  }

  /** Hours of the repair window below B that its ledger does not hold as written or emptied. */
  public List<HourPartition> missingHistory(Repair r) {
    if (r.history().isEmpty()) {
      return List.of();
    }
    var ledger = runs.hours().repairLedger(r.id());
    return r.history().get().list().stream().filter(h -> {
      LedgerEntry e = ledger.get(h);
      return e == null || !e.complete();
    }).toList();
  }

  /**
   * Takes the repair for {@code action} when its phase allows it and no other operation holds it.
   *
   * @param why what the phase must be, for the refusal: "consumers read v2", …
   */
  public Repair claim(String action, Predicate<RepairPhase> allowed, String why) {
    Optional<Repair> current = settled();
    Repair r = current.orElseThrow(() -> refusals.none(latest(), action));
    rules.requireClaim(r, action, allowed, why);
    Operation op = new Operation(action, Operator.actor(), Instant.now(), "");
    return Holders.holding(op, () -> store.write(current, r.next(r.phase(), Optional.of(op), op.holder(), "the " + action
        + " started"), action));
  }

  /** Records a milestone while holding the repair: the operation goes on. */
  public Repair advance(Repair held, RepairPhase to, String note) {
    return store.write(Optional.of(held), held.next(to, held.operation(), Operator.actor(), note),
        held.operation().map(Operation::action).orElse("advance"));
  }

  /** Ends the operation held, with the repair in phase {@code to}. */
  public Repair finish(Repair held, RepairPhase to, String note) {
    try {
      return store.write(Optional.of(held), held.next(to, Optional.empty(), Operator.actor(), note),
          held.operation().map(Operation::action).orElse("finish"));
    } finally {
      Holders.ended(held);
    }
  }

  /**
   * Lets go of the operation held without a record, when none can be written (the server does not answer):
   * its record names this process, which no longer holds it, so the next process that reads the repair settles
   * it, as it does the operation of a process that died.
   */
  public void letGo(Repair held) {
    Holders.ended(held);
  }

  /** Ends the operation held without changing the phase, e.g. when its gate turned out closed. */
  public Repair release(Repair held, String note) {
    return finish(held, held.phase(), note);
  }

  /**
   * After a swap whose own record could not be written (its operation was settled by another
   * process meanwhile, or the server failed): records what the consumer view's definition shows, so
   * that the repair agrees with what consumers read. Returns the repair as it then stands.
   */
  public Optional<Repair> agreeWithView(String why) {
    return settlement.agreeWithView(settled(), why, this::open);
  }

  /**
   * Records milestones observed in the data (backfilled, live from B, overlap, reconciled) when the
   * repair is free and the phase may move there; returns the repair as it stands. Losing the race to
   * another process is fine: it recorded something newer.
   */
  public Optional<Repair> observe(RepairPhase to, String note) {
    Optional<Repair> current = settled();
    if (current.isEmpty() || current.get().operation().isPresent() || current.get().phase() == to
        || !current.get().phase().canBecome(to)) {
      return current;
    }
    try {
      return Optional.of(store.write(current, current.get().next(to, Optional.empty(), Operator.actor(), note),
          "observe"));
    } catch (StepRefusedException lost) {
      return open();
    }
  }

  /**
   * Gives the repair up, with a reason: its boundary and ledger stop counting, and the target's next
   * backfill starts a new repair. v2 and its rows stay. Refused while an operation holds the repair
   * and while consumers read v2.
   */
  public Repair abandon(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidInputException("reason", "Abandoning a repair needs a written reason; it goes to the audit "
          + "trail and the repair's history.");
    }
    Optional<Repair> current = settled();
    Repair r = current.orElseThrow(refusals::noneToAbandon);
    rules.requireAbandon(r);
    return store.write(current, r.next(RepairPhase.ABANDONED, Optional.empty(), Operator.actor(), "abandoned: "
        + reason.strip()), "abandon");
  }

  /** Requires the repair's transform: one repair, one logic in v2. */
  public void requireTransform(Repair r) {
    rules.requireTransform(r);
  }

  /**
   * Requires the boundary the repair pinned, when it pinned one.
   *
   * @throws dev.cutover.engine.api.BoundaryPinnedException naming the pinned hour and {@code asked}
   */
  public void requireBoundary(Repair r, HourPartition asked, String step) {
    rules.requireBoundary(r, asked, step);
  }
}
