package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent.Listener;
import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Dependent;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.tables.TargetTables;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.UUID;

/**
 * Starts and resumes backfill runs of a plan that passed its preflight. A run holds its target's
 * repair for as long as it writes: a second run, a cutover or an abandonment is refused meanwhile,
 * with a sentence naming the run that holds it. The first run of a repair pins its boundary. A run
 * writes the dependents its preflight found acknowledged to the audit trail before any hour.
 */
public final class Backfill {

  private final Sql sql;
  private final StateStore store;

  public Backfill(Sql sql, StateStore store) {
    this.sql = sql;
    this.store = store;
  }

  /** Starts a new run of the plan, or continues the run it resumes, with no acknowledged dependent to record. */
  public BackfillRun start(Plan plan, Listener listener) {
    return start(plan, List.of(), listener);
  }

  /**
   * Starts a new run of the plan, or continues the run it resumes; first writes one line to the audit trail
   * for each of the {@code dependents} its preflight found acknowledged.
   */
  public BackfillRun start(Plan plan, List<Dependent> dependents, Listener listener) {
    return start(plan, dependents, listener, newRunId());
  }

  /**
   * As {@link #start(Plan, List, Listener)}, a new run taking the id {@code runId}: the shards of a cluster start
   * their runs of one backfill under one id, so that each shard's ledger and record are found as that backfill's.
   */
  public BackfillRun start(Plan plan, List<Dependent> dependents, Listener listener, String runId) {
    return plan.resumes().isPresent() ? resume(plan, dependents, listener) : fresh(plan, dependents, listener, runId);
  }

  /** A new run's id: when it started, to the second, and a random part. */
  public static String newRunId() {
    return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now())
        + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private BackfillRun fresh(Plan plan, List<Dependent> dependents, Listener listener, String runId) {
    TableSpec spec = plan.spec();
    store.ensureSchema();
    Repairs repairs = new Repairs(RepairContext.of(sql, store, spec));
    Repair held = repairs.beginBackfill(plan, runId);
    try {
      // Before any table or hour is written: a replay the operator accepted is on record even if the run dies.
      new SideEffectNotes(store).record(runId, held.id(), dependents);
      TargetTables tables = new TargetTables(sql, spec);
      boolean created = tables.createTargetIfAbsent();
      Instant now = Instant.now();
      RunRecord run = new RunRecord(runId, held.id(), spec.name(), spec.sha256(), TableNames.target(spec), plan.range(),
          plan.boundary(), RunParameters.encode(plan.settings(), plan.affected()), Operator.user(), Operator.host(),
          ProcessHandle.current().pid(), Operator.toolVersion(), now, now, RunState.RUNNING, "started");
      store.saveRun(run);
      if (created) {
        store.audit(runId, "create-target", "created " + TableNames.target(spec) + " with the structure of " + spec.liveTable());
      }
      store.audit(runId, "start", "backfill " + plan.range() + " of " + TableNames.target(spec) + " for repair " + held.id()
          + ", boundary " + plan.boundary() + ", " + Figures.count(plan.hours().size()) + " hours" + bounded(plan)
          + ", spec "
          + spec.name() + " sha256 "
          + spec.sha256() + ", " + RunParameters.encode(plan.settings(), plan.affected()));
      return launch(plan, run, plan.hours(), listener, repairs);
    } catch (RuntimeException e) {
      releaseQuietly(repairs, held, "run " + runId + " did not start: " + e.getMessage());
      throw e;
    }
  }

  /** Continues a run that was interrupted, failed or cancelled, from its ledger, with the plan's throttle. */
  private BackfillRun resume(Plan plan, List<Dependent> dependents, Listener listener) {
    TableSpec spec = plan.spec();
    String runId = plan.resumes().orElseThrow();
    store.ensureSchema();
    RunRecord run = check(runId, spec);
    Repairs repairs = new Repairs(RepairContext.of(sql, store, spec));
    Repair held = repairs.beginBackfill(plan, runId);
    try {
      String parameters = RunParameters.encode(plan.settings(), plan.affected());
      RunRecord resumed = new RunRecord(run.id(), run.repairId(), run.specName(), spec.sha256(), run.target(),
          run.range(), run.boundary(), parameters, Operator.user(), Operator.host(), ProcessHandle.current().pid(),
          run.toolVersion(), run.created(), Instant.now(), RunState.RUNNING, "resumed");
      // A resume is a state change like any other: of two processes resuming at once, one wins.
      store.replace(resumed);
      new SideEffectNotes(store).record(runId, run.repairId(), dependents);
      store.audit(runId, "resume", "resumed from " + run.state().name().toLowerCase() + " by " + Operator.user()
          + ", " + parameters);
      return launch(plan, resumed, run.range().list(), listener, repairs);
    } catch (RuntimeException e) {
      releaseQuietly(repairs, held, "run " + runId + " did not resume: " + e.getMessage());
      throw e;
    }
  }

  /** Starts writing {@code hours} for {@code run}, which lets go of the repair when it ends. */
  private BackfillRun launch(Plan plan, RunRecord run, java.util.List<dev.cutover.engine.api.HourPartition> hours,
      Listener listener, Repairs repairs) {
    BackfillRun execution = new BackfillRun(sql, store, plan.spec(), hours, plan.boundary(), plan.affected(), run,
        plan.settings(), listener, repairs::backfillEnded);
    execution.start();
    return execution;
  }

  /** The run to resume, refused when it cannot be: another target, finished, still alive, another repair. */
  public RunRecord check(String runId, TableSpec spec) {
    RunRecord run = store.run(runId).orElseThrow(() -> new InvalidInputException("resume", "There is no run "
        + runId + "; pick one of the ids the target's run list shows."));
    if (!run.target().equals(TableNames.target(spec))) {
      throw new InvalidInputException("resume", "Run " + runId + " wrote " + run.target() + ", but this spec's target is "
          + TableNames.target(spec) + "; resume it with the spec it was started with.");
    }
    if (run.state() == RunState.SUCCEEDED) {
      throw new InvalidInputException("resume", "Run " + runId + " already succeeded; there is nothing to resume.");
    }
    if (run.state().active() && !run.interrupted(Instant.now(), RunRecord.STALE_AFTER)) {
      boolean seen = run.process() == RunRecord.Process.HERE || run.process() == RunRecord.Process.THERE;
      throw HeldByAnotherProcessException.of("resume", run, "Run " + runId + " is still "
          + run.state().name().toLowerCase() + (seen ? " (its process " + run.pid() + " is there on this host, "
          + run.host() + ");" : " (its process answered " + java.time.Duration.between(run.heartbeat(), Instant.now())
          .toSeconds() + " s ago on " + run.host() + ");"), "wait for it, or cancel it there.");
    }
    var open = new Repairs(RepairContext.of(sql, store, spec)).open();
    if (open.isEmpty() || !open.get().id().equals(run.repairId())) {
      throw new InvalidInputException("resume", "Run " + runId + " belongs to " + (run.repairId().isEmpty()
          ? "no repair (it was recorded before repairs were kept)" : "repair " + run.repairId() + ", which is over")
          + "; its hours no longer count. Start a new backfill instead.");
    }
    return run;
  }

  private static String bounded(Plan plan) {
    return plan.affected().map(a -> " (" + plan.computed().size() + " affected hours " + a + " recomputed, "
        + plan.carried().size() + " carried from " + plan.spec().liveTable() + ")").orElse("");
  }

  private static void releaseQuietly(Repairs repairs, Repair held, String why) {
    try {
      repairs.release(held, why);
    } catch (RuntimeException e) {
      // The server may be gone; the next process that looks finds this process gone and settles the repair.
    }
  }
}
