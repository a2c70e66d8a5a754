package dev.cutover.engine;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.backfill.BackfillRun;
import dev.cutover.engine.backfill.LiveReader;
import dev.cutover.engine.backfill.Planner;
import dev.cutover.engine.backfill.RunParameters;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.cutover.Gates;
import dev.cutover.engine.cutover.Retirement;
import dev.cutover.engine.cutover.Swap;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.preflight.Preflight;
import dev.cutover.engine.reconcile.Differ;
import dev.cutover.engine.reconcile.Reconciler;
import dev.cutover.engine.reconcile.ReportColumns;
import dev.cutover.engine.reconcile.ReportExport;
import dev.cutover.engine.reconcile.Rules;
import dev.cutover.engine.reconcile.Sampler;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.repair.Status;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.sql.Sql;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The engine's front door, for the console and the command line alike: load a spec, plan, check,
 * sample, run and follow backfills, reconcile, judge the gates, swap, and read where the repair
 * stands. Every method may block on ClickHouse; call it off the UI thread.
 *
 * <p>The order of the procedure is held by the types: a {@link Plan} comes from the planner, a
 * passing {@link #preflight} turns it into a {@link ClearedPlan}, and only that starts or resumes a
 * backfill.
 *
 * <pre>{@code
 * Engine engine = new Engine(session.database());
 * TableSpec spec = engine.loadSpec(Path.of("pnl.yaml"));
 * Plan plan = engine.plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.defaults(spec));
 * Preflighted checked = engine.preflight(plan, List.of("trading.pnl_alerts_mv"), Progress.NONE);
 * BackfillRun run = engine.backfill(checked.cleared().orElseThrow(), BackfillEvent.Listener.NONE);
 * }</pre>
 */
public final class Engine {

  private final Database database;
  private final Sql sql;
  private final StateStore store;
  private final ReportStore reports;

  public Engine(Database database) {
    this.database = database;
    this.sql = database.sql();
    this.store = new StateStore(sql, database.server().database());
    this.reports = new ReportStore(sql, database.server().database());
  }

  /**
   * Loads a spec and checks its rules with the server: each {@code where}, {@code check} and
   * {@code delta} must be one expression, and, when v1 exists, resolve against its columns.
   */
  public TableSpec loadSpec(Path file) {
    TableSpec spec = SpecLoader.load(file);
    checkRules(spec);
    return spec;
  }

  /** The rules of a spec parsed and compiled by the server; refuses naming the rule and field. */
  public void checkRules(TableSpec spec) {
    boolean v1 = sql.queryLong("look up " + spec.liveTable(), "SELECT count() FROM system.tables WHERE database = ? "
        + "AND name = ?", spec.database().name(), spec.liveTable().name()) > 0;
    new Rules(sql, spec).compile(v1);
  }

  /**
   * The spec's throttle. Where the spec leaves {@code max_threads} to the server, the backfill takes at
   * most half of the server's threads in all: {@code max(1, server's max_threads / (2 × concurrency))},
   * so that the live job keeps the other half. Reads the server: call it off the FX thread.
   */
  public BackfillSettings defaults(TableSpec spec) {
    BackfillSettings s = BackfillSettings.from(spec.throttle());
    if (s.maxThreads() > 0) {
      return s;
    }
    long server = sql.queryLong("read the server's max_threads", "SELECT getSetting('max_threads')");
    return s.withMaxThreads((int) Math.max(1, server / (2L * s.concurrency())));
  }

  public LiveStatus live(TableSpec spec) {
    return new LiveReader(sql, spec).read();
  }

  /** The oldest hour every source still holds. */
  public Optional<HourPartition> reprocessingStart(TableSpec spec) {
    return new LiveReader(sql, spec).reprocessingStart();
  }

  /**
   * Plans a new backfill. Once the target's repair has pinned its boundary, the plan takes it; a
   * different {@code boundary} is refused with a sentence that names the pinned one.
   */
  public Plan plan(TableSpec spec, Optional<HourPartition> from, Optional<HourPartition> to,
      Optional<HourPartition> boundary, BackfillSettings settings) {
    return new Planner(sql, store, spec).plan(from, to, boundary, settings, true);
  }

  /**
   * Plans a bounded repair: only the {@code affected} hours are recomputed, the others of the range are
   * carried from v1. Empty {@code affected} takes the spec's {@code affected}, if any. The window must
   * lie inside the range (hence before the boundary); otherwise it is refused with a sentence.
   */
  public Plan plan(TableSpec spec, Optional<HourPartition> from, Optional<HourPartition> to,
      Optional<HourPartition> boundary, Optional<HourRange> affected, BackfillSettings settings) {
    return new Planner(sql, store, spec).plan(from, to, boundary, affected.or(spec::affected), settings, true);
  }

  /**
   * Plans the continuation of a stopped run: its range and boundary, and the throttle it ran with,
   * changed only where {@code overrides} says so.
   */
  public Plan planResume(TableSpec spec, String runId, UnaryOperator<BackfillSettings> overrides) {
    RunRecord run = new Backfill(sql, store).check(runId, spec);
    BackfillSettings kept = RunParameters.decode(run.parameters(), defaults(spec));
    return new Planner(sql, store, spec).resume(run, overrides.apply(kept));
  }

  /** The throttle a run was started or last changed with. */
  public BackfillSettings runSettings(TableSpec spec, RunRecord run) {
    return RunParameters.decode(run.parameters(), defaults(spec));
  }

  /**
   * Runs every preflight check, reporting each as it starts; stops between checks once cancelled.
   * The plan is made again by the planner from its own request, and that plan is what a passing
   * preflight clears.
   */
  public Preflighted preflight(Plan plan, List<String> acknowledgedDependents, Progress progress) {
    Planner planner = new Planner(sql, store, plan.spec());
    Plan fresh = plan.resumes().isPresent()
        ? planner.resume(new Backfill(sql, store).check(plan.resumes().get(), plan.spec()), plan.settings())
        : planner.plan(Optional.of(plan.range().from()), Optional.of(plan.range().to()), Optional.of(plan.boundary()),
            plan.affected(), plan.settings(), false);
    Plan checked = new Plan(fresh.spec(), fresh.range(), fresh.boundary(), fresh.liveEdge(), fresh.hours(),
        fresh.overlap(), plan.estimates(), fresh.statements(), fresh.settings(), fresh.pinned(), fresh.resumes(),
        fresh.affected());
    PreflightReport report = new Preflight(sql, plan.spec(), store).run(checked, acknowledgedDependents, progress);
    return new Preflighted(report, report.passed() ? Optional.of(new ClearedPlan(checked, report)) : Optional.empty());
  }

  public Preflighted preflight(Plan plan, List<String> acknowledgedDependents) {
    return preflight(plan, acknowledgedDependents, Progress.NONE);
  }

  public Diff sample(TableSpec spec, List<HourPartition> hours, int keyLimit) {
    return new Sampler(sql, spec).sample(hours, keyLimit);
  }

  /** Starts the cleared plan's backfill, or resumes the run it continues. */
  public BackfillRun backfill(ClearedPlan cleared, BackfillEvent.Listener listener) {
    return new Backfill(sql, store).start(cleared.plan(), listener);
  }

  /** Runs against this spec's target, newest first. */
  public List<RunRecord> runs(TableSpec spec) {
    return store.runs(Backfill.target(spec));
  }

  public Optional<RunRecord> run(String id) {
    return store.run(id);
  }

  public TreeMap<HourPartition, LedgerEntry> ledger(String runId) {
    return store.ledger(runId);
  }

  public StateStore state() {
    return store;
  }

  /** The target's repair as its newest state record says, ended or not; reads one table list. */
  public Optional<Repair> repair(TableSpec spec) {
    return new Repairs(sql, store, spec).latest();
  }

  /** The state records of the target's repairs, newest first. */
  public List<Repair> repairHistory(TableSpec spec, int limit) {
    return new Repairs(sql, store, spec).history(limit);
  }

  /** Where the repair stands, with the observed live writer, the verdict and the next step. */
  public RepairStatus status(TableSpec spec) {
    return new Status(sql, store, reports, spec).read();
  }

  /** Gives up the repair, with a reason; v2 stays, and the next backfill starts a new repair. */
  public Repair abandon(TableSpec spec, String confirmation, String reason) {
    if (!spec.targetTable().name().equals(confirmation)) {
      throw new InvalidInputException("confirm", "To abandon the repair, confirm with the target's name, "
          + spec.targetTable() + (confirmation == null || confirmation.isBlank() ? "" : " (you typed '" + confirmation
              + "')") + ".");
    }
    store.ensureSchema();
    Repair abandoned = new Repairs(sql, store, spec).abandon(reason);
    store.audit(Backfill.target(spec), "abandon", "abandoned repair " + abandoned.id() + " (B = "
        + abandoned.boundary().map(Object::toString).orElse("none") + "): " + reason.strip());
    return abandoned;
  }

  /** Reconciles the whole repair, stores the report and returns it. */
  public Reconciliation reconcile(TableSpec spec, Reconciliation.Scope scope, int keyLimit) {
    return reconcile(spec, scope, Optional.empty(), keyLimit, Progress.NONE);
  }

  public Reconciliation reconcile(TableSpec spec, Reconciliation.Scope scope, int keyLimit, Progress progress) {
    return reconcile(spec, scope, Optional.empty(), keyLimit, progress);
  }

  /**
   * Reconciles v1 and v2 over {@code scope} (and {@code range} for {@link Reconciliation.Scope#RANGE})
   * with progress; once cancelled it stops before its next statement and stores nothing.
   */
  public Reconciliation reconcile(TableSpec spec, Reconciliation.Scope scope, Optional<HourRange> range, int keyLimit,
      Progress progress) {
    return new Reconciler(sql, store, reports, spec).reconcile(scope, range, keyLimit, progress);
  }

  /**
   * The keys of one hour that differ between v1 and v2 now, unexpected first, each with the rule that
   * explains it; for looking into an hour of a reconciliation.
   */
  public List<Diff.KeyDiff> hourKeys(TableSpec spec, HourPartition hour, int limit) {
    return new Differ(sql, spec).keys(spec.liveTable(), spec.targetTable(), List.of(hour), limit);
  }

  public List<ReportStore.Summary> reconciliations(TableSpec spec) {
    return reports.reconciliations(Backfill.target(spec));
  }

  /**
   * The newest stored reconciliation of the spec's target, read back whole, as it was when it was
   * made: what a screen shows before anyone reconciles again. Empty when none was stored.
   */
  public Optional<Reconciliation> latestReconciliation(TableSpec spec) {
    return reports.reconciliations(Backfill.target(spec)).stream().findFirst().flatMap(s -> reports.load(s.id()));
  }

  /**
   * Writes a reconciliation as an HTML page for reviewers, with the CSV of every key it kept beside
   * it (the CSV first, so that the page never names a file that is not there); key columns are named
   * and values print as their ClickHouse types print.
   */
  public ReportExport.Written exportHtml(Reconciliation r, TableSpec spec, java.nio.file.Path file) {
    return ReportExport.write(r, ReportColumns.read(database, spec), file);
  }

  /** Writes a reconciliation as CSV: hours, keys, counts and coverage, values as their types print. */
  public java.nio.file.Path exportCsv(Reconciliation r, TableSpec spec, java.nio.file.Path file) {
    try {
      return java.nio.file.Files.writeString(file, ReportExport.csv(r, ReportColumns.read(database, spec)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Could not write the report to " + file + ": " + e.getMessage(), e);
    }
  }

  /** A stored reconciliation by its id, read back whole. */
  public Optional<Reconciliation> reconciliation(String id) {
    return reports.load(id);
  }

  /** Accepts an unexpected difference (a whole hour when {@code key} is empty) with a written reason. */
  public void acknowledge(TableSpec spec, HourPartition hour, List<String> key, String reason) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidInputException("reason", "An acknowledgement needs a written reason; it goes "
          + "to the audit trail and the verdict shows it.");
    }
    Repair repair = new Repairs(sql, store, spec).open().orElseThrow(() -> new StepRefusedException("acknowledge",
        "No repair of " + Backfill.target(spec) + " is under way; an acknowledgement belongs to one."));
    store.ensureSchema();
    reports.ensureSchema();
    reports.acknowledge(Backfill.target(spec), repair.id(), hour, key, reason.strip());
    store.audit(Backfill.target(spec), "acknowledge", "accepted the difference at " + hour
        + (key.isEmpty() ? " (whole hour)" : " key " + key) + " in repair " + repair.id() + ": " + reason.strip());
  }

  /** The cutover gate, judged from the data now. */
  public Gate gate(TableSpec spec) {
    return new Gates(sql, store, reports, spec).cutover();
  }

  /** The rollback gate. */
  public Gate rollbackGate(TableSpec spec) {
    return new Gates(sql, store, reports, spec).rollback();
  }

  public String cutoverStatement(TableSpec spec) {
    return new Swap(sql, store, reports, spec).statement();
  }

  public SwapResult cutover(TableSpec spec, String confirmation) {
    return cutover(spec, confirmation, Progress.NONE);
  }

  /** The cutover, reporting its steps: the gate judged again from the data, the exchange, the verification. */
  public SwapResult cutover(TableSpec spec, String confirmation, Progress progress) {
    return new Swap(sql, store, reports, spec, progress).cutover(confirmation);
  }

  public SwapResult rollback(TableSpec spec, String confirmation) {
    return rollback(spec, confirmation, Progress.NONE);
  }

  /** The rollback, reporting its steps as {@link #cutover(TableSpec, String, Progress)} does. */
  public SwapResult rollback(TableSpec spec, String confirmation, Progress progress) {
    return new Swap(sql, store, reports, spec, progress).rollback(confirmation);
  }

  public Retention retention(TableSpec spec) {
    return new Retirement(sql, store, reports, spec).retention();
  }

  /** The statements that drop v1 and the rollback handle, exactly as {@link #dropV1} runs them. */
  public List<String> dropV1Statements(TableSpec spec) {
    return new Retirement(sql, store, reports, spec).dropStatements();
  }

  /** Drops v1, refused while a table that still uses it is not acknowledged (see {@link #v1Readers}). */
  public List<String> dropV1(TableSpec spec, boolean force, String reason, List<String> acknowledged) {
    return new Retirement(sql, store, reports, spec).dropV1(force, reason, acknowledged);
  }

  /** The tables that still use v1 and break when it is dropped. */
  public List<dev.cutover.engine.api.V1Reader> v1Readers(TableSpec spec) {
    return new Retirement(sql, store, reports, spec).v1Readers();
  }

  public List<String> cleanup(TableSpec spec) {
    return new Retirement(sql, store, reports, spec).cleanup();
  }
}
