package dev.cutover.engine;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
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

  public BackfillSettings defaults(TableSpec spec) {
    return BackfillSettings.from(spec.throttle());
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
    return new Preflight(sql, plan.spec(), store.database()).run(plan, acknowledgedDependents);
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
    store.ensureSchema();
    return store.runs(Backfill.target(spec));
  }

  public Optional<RunRecord> run(String id) {
    store.ensureSchema();
    return store.run(id);
  }

  public TreeMap<HourPartition, LedgerEntry> ledger(String runId) {
    store.ensureSchema();
    return store.ledger(runId);
  }

  public StateStore state() {
    return store;
  }
}
