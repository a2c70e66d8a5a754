package dev.cutover.engine;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.cutover.Cutover;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.reconcile.Reconciler;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.backfill.BackfillRun;
import dev.cutover.engine.backfill.LiveReader;
import dev.cutover.engine.backfill.Planner;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.preflight.Preflight;
import dev.cutover.engine.reconcile.Sampler;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.sql.Sql;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The engine's front door, for the console and the command line alike: load a spec, plan, check,
 * sample, run and follow backfills. Every method may block on ClickHouse; call it off the UI thread.
 *
 * <pre>{@code
 * Engine engine = new Engine(session.database());
 * TableSpec spec = engine.loadSpec(Path.of("pnl.yaml"));
 * Plan plan = engine.plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.defaults(spec));
 * PreflightReport checks = engine.preflight(plan, List.of());
 * }</pre>
 */
public final class Engine {

  private final Sql sql;
  private final StateStore store;

  public Engine(Database database) {
    this.sql = new Sql(database.dataSource());
    this.store = new StateStore(sql, database.server().database());
  }

  public TableSpec loadSpec(Path file) {
    return SpecLoader.load(file);
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

  public Plan plan(TableSpec spec, Optional<HourPartition> from, Optional<HourPartition> to,
      Optional<HourPartition> boundary, BackfillSettings settings) {
    return new Planner(sql, spec).plan(from, to, boundary, settings, true);
  }

  public PreflightReport preflight(Plan plan, List<String> acknowledgedDependents) {
    return preflight(plan, acknowledgedDependents, Progress.NONE);
  }

  /** Runs every preflight check, reporting each as it starts; stops between checks once cancelled. */
  public PreflightReport preflight(Plan plan, List<String> acknowledgedDependents, Progress progress) {
    return new Preflight(sql, plan.spec(), store.database()).run(plan, acknowledgedDependents, progress);
  }

  public Diff sample(TableSpec spec, List<HourPartition> hours, int keyLimit) {
    return new Sampler(sql, spec).sample(hours, keyLimit);
  }

  public BackfillRun backfill(Plan plan, BackfillEvent.Listener listener) {
    return new Backfill(sql, store).start(plan, listener);
  }

  public BackfillRun resume(String runId, TableSpec spec, BackfillSettings settings, BackfillEvent.Listener listener) {
    return new Backfill(sql, store).resume(runId, spec, settings, listener);
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

  private ReportStore reports() {
    return new ReportStore(sql, store.database());
  }

  private Cutover cutover(TableSpec spec) {
    return new Cutover(sql, store, reports(), spec);
  }

  /** Reconciles v1 and v2, stores the report and returns it. */
  public Reconciliation reconcile(TableSpec spec, Reconciler.Window window, int keyLimit) {
    return reconcile(spec, window, keyLimit, Progress.NONE);
  }

  /**
   * Reconciles v1 and v2 with progress; once cancelled it stops before its next statement and stores
   * nothing.
   */
  public Reconciliation reconcile(TableSpec spec, Reconciler.Window window, int keyLimit, Progress progress) {
    return new Reconciler(sql, store, reports(), spec).reconcile(window, keyLimit, progress);
  }

  /**
   * The keys of one hour that differ between v1 and v2 now, unexpected first, each with the rule that
   * explains it; for looking into an hour of a reconciliation.
   */
  public List<Diff.KeyDiff> hourKeys(TableSpec spec, HourPartition hour, int limit) {
    return new dev.cutover.engine.reconcile.Differ(sql, spec).keys(spec.liveTable(), spec.targetTable(), List.of(hour), limit);
  }

  public List<ReportStore.Summary> reconciliations(TableSpec spec) {
    return reports().reconciliations(Backfill.target(spec));
  }

  /** Accepts an unexpected difference (a whole hour when {@code key} is empty) with a written reason. */
  public void acknowledge(TableSpec spec, HourPartition hour, List<String> key, String reason) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidInputException("reason", "An acknowledgement needs a written reason; it goes "
          + "to the audit trail and the verdict shows it.");
    }
    store.ensureSchema();
    reports().ensureSchema();
    reports().acknowledge(Backfill.target(spec), hour, key, reason.strip());
    store.audit(Backfill.target(spec), "acknowledge", "accepted the difference at " + hour
        + (key.isEmpty() ? " (whole hour)" : " key " + key) + ": " + reason.strip());
  }

  public Gate gate(TableSpec spec) {
    return cutover(spec).gate();
  }

  public String cutoverStatement(TableSpec spec) {
    return cutover(spec).statement();
  }

  public SwapResult cutover(TableSpec spec, String confirmation) {
    return cutover(spec).cutover(confirmation);
  }

  public SwapResult rollback(TableSpec spec, String confirmation) {
    return cutover(spec).rollback(confirmation);
  }

  public Retention retention(TableSpec spec) {
    return cutover(spec).retention();
  }

  /** The statements that drop v1 and the rollback handle, exactly as {@link #dropV1} runs them. */
  public List<String> dropV1Statements(TableSpec spec) {
    return cutover(spec).dropStatements();
  }

  public List<String> dropV1(TableSpec spec, boolean force, String reason) {
    return cutover(spec).dropV1(force, reason);
  }

  public List<String> cleanup(TableSpec spec) {
    return cutover(spec).cleanup();
  }
}
