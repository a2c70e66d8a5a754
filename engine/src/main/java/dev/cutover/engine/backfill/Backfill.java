package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent.Listener;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Starts and resumes backfill runs. One run at a time may write a target: a second is refused with
 * a sentence naming the run that holds it.
 *
 * <pre>{@code
 * Plan plan = new Planner(sql, spec).plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, true);
 * BackfillRun run = new Backfill(sql, store).start(plan, event -> System.out.println(event));
 * RunRecord finished = run.await();
 * }</pre>
 */
public final class Backfill {

  private final Sql sql;
  private final StateStore store;

  public Backfill(Sql sql, StateStore store) {
    this.sql = sql;
    this.store = store;
  }

  public static String target(TableSpec spec) {
    return spec.database().name() + "." + spec.targetTable().name();
  }

  public BackfillRun start(Plan plan, Listener listener) {
    TableSpec spec = plan.spec();
    store.ensureSchema();
    String runId = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now())
        + "-" + UUID.randomUUID().toString().substring(0, 8);
    lockOrRefuse(spec, runId);
    try {
      boolean created = new TargetTables(sql, spec).createTargetIfAbsent();
      Instant now = Instant.now();
      RunRecord run = new RunRecord(runId, spec.name(), spec.sha256(), target(spec), plan.range(), plan.boundary(),
          parameters(plan.settings()), Operator.user(), Operator.host(), ProcessHandle.current().pid(),
          Operator.toolVersion(), now, now,
          RunState.RUNNING, "started");
      store.saveRun(run);
      if (created) {
        store.audit(runId, "create-target", "created " + target(spec) + " with the structure of " + spec.liveTable());
      }
      store.audit(runId, "start", "backfill " + plan.range() + " of " + target(spec) + ", boundary " + plan.boundary()
          + ", " + plan.hours().size() + " hours, spec " + spec.name() + " sha256 " + spec.sha256() + ", "
          + parameters(plan.settings()));
      BackfillRun execution = new BackfillRun(sql, store, spec, plan.hours(), plan.boundary(), run, plan.settings(),
          listener);
      execution.start();
      return execution;
    } catch (RuntimeException e) {
      store.unlock(target(spec));
      throw e;
    }
  }

  /** Continues a run that was interrupted, failed or cancelled, from its ledger. */
  public BackfillRun resume(String runId, TableSpec spec, BackfillSettings settings, Listener listener) {
    store.ensureSchema();
    RunRecord run = store.run(runId).orElseThrow(() -> new InvalidInputException("resume", "There is no run "
        + runId + "; pick one of the ids the target's run list shows."));
    if (!run.target().equals(target(spec))) {
      throw new InvalidInputException("resume", "Run " + runId + " wrote " + run.target() + ", but this spec's target is "
          + target(spec) + "; resume it with the spec it was started with.");
    }
    if (!run.specHash().equals(spec.sha256())) {
      throw new InvalidInputException("resume", "Run " + runId + " was started with a different version of spec "
          + spec.name() + " (sha256 " + run.specHash().substring(0, 12) + "…); resuming with another transform would "
          + "mix two logics in one target. Restore that spec, or start a new run.");
    }
    if (run.state() == RunState.SUCCEEDED) {
      throw new InvalidInputException("resume", "Run " + runId + " already succeeded; there is nothing to resume.");
    }
    if (run.state().active() && !run.interrupted(Instant.now(), StateStore.STALE_AFTER)) {
      throw new InvalidInputException("resume", "Run " + runId + " is still " + run.state().name().toLowerCase()
          + " (its process answered " + java.time.Duration.between(run.heartbeat(), Instant.now()).toSeconds()
          + " s ago on " + run.host() + "); wait for it, or cancel it there.");
    }
    lockOrRefuse(spec, runId);
    try {
      RunRecord resumed = new RunRecord(run.id(), run.specName(), run.specHash(), run.target(), run.range(),
          run.boundary(), run.parameters(), Operator.user(), Operator.host(), ProcessHandle.current().pid(),
          run.toolVersion(), run.created(), Instant.now(), RunState.RUNNING, "resumed");
      store.saveRun(resumed);
      store.audit(runId, "resume", "resumed from " + run.state().name().toLowerCase() + " by " + Operator.user()
          + ", " + parameters(settings));
      BackfillRun execution = new BackfillRun(sql, store, spec, run.range().list(), run.boundary(), resumed, settings,
          listener);
      execution.start();
      return execution;
    } catch (RuntimeException e) {
      store.unlock(target(spec));
      throw e;
    }
  }

  private void lockOrRefuse(TableSpec spec, String runId) {
    String target = target(spec);
    if (store.lock(target, runId)) {
      return;
    }
    String holder = store.lockHolder(target).orElse("");
    var holderRun = store.run(holder);
    boolean stale = holderRun.map(r -> !r.state().active() || r.interrupted(Instant.now(), StateStore.STALE_AFTER))
        .orElse(true);
    if (holder.equals(runId) || stale) {
      // The holder finished, died, or is this very run: take the lock over.
      store.audit(runId, "lock", "took over the lock of " + target + " from " + (holder.isEmpty() ? "nobody" : holder));
      store.unlock(target);
      if (store.lock(target, runId)) {
        return;
      }
      holder = store.lockHolder(target).orElse("another run");
      holderRun = store.run(holder);
    }
    RunRecord active = holderRun.orElse(null);
    throw new InvalidInputException("target", "Run " + holder + (active == null ? "" : " (started by "
        + active.osUser() + " on " + active.host() + " at " + active.created() + ")") + " is writing " + target
        + "; only one run may write a target. Wait for it to finish, or cancel it, then try again.");
  }

  static String parameters(BackfillSettings s) {
    return "{\"concurrency\": " + s.concurrency() + ", \"batch_hours\": " + s.batchHours() + ", \"max_threads\": "
        + s.maxThreads() + ", \"priority\": " + s.priority() + ", \"max_memory_usage\": " + s.maxMemoryUsage()
        + ", \"rows_per_second\": " + s.rowsPerSecond() + ", \"max_live_lag_minutes\": " + s.maxLiveLag().toMinutes()
        + ", \"max_attempts\": " + s.maxAttempts() + "}";
  }
}
