package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.backfill.Planner;
import dev.cutover.engine.backfill.RunParameters;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.preflight.Preflight;
import dev.cutover.engine.reconcile.Sampler;
import dev.cutover.engine.tables.LiveReader;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Planning a backfill and clearing it: where the live writer stands, which hours to recompute, the
 * boundary, the throttle, and the preflight whose pass is the only way to a {@link ClearedPlan}.
 * Nothing here writes data.
 */
public final class Plans {

  private final Ground ground;

  Plans(Ground ground) {
    this.ground = ground;
  }

  /**
   * The planning of {@code spec}'s repair on this server as {@link PlanSteps}, the shape a cluster's has too: what
   * the console's Plan screen runs.
   */
  public PlanSteps of(TableSpec spec) {
    RepairBook repairs = new RepairBook(ground);
    return new PlanSteps() {
      @Override
      public String where() {
        return "the server";
      }

      @Override
      public Optional<HourPartition> reprocessingStart() {
        return Plans.this.reprocessingStart(spec);
      }

      @Override
      public LiveStatus live() {
        return Plans.this.live(spec);
      }

      @Override
      public Optional<Repair> openRepair() {
        return repairs.current(spec).filter(r -> !r.phase().ended());
      }

      @Override
      public Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary) {
        return Plans.this.plan(spec, from, to, boundary, defaults(spec));
      }

      @Override
      public Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
          Optional<HourRange> affected, UnaryOperator<BackfillSettings> overrides) {
        return Plans.this.plan(spec, from, to, boundary, affected, overrides.apply(defaults(spec)));
      }

      @Override
      public Preflighted preflight(Plan plan, List<AcknowledgedDependent> acknowledged, Progress progress) {
        return Plans.this.preflight(plan, acknowledged, progress);
      }

      @Override
      public Diff sample(List<HourPartition> hours, int keyLimit) {
        return Plans.this.sample(spec, hours, keyLimit);
      }

      @Override
      public dev.cutover.engine.api.NodeAnswers<Optional<Repair>> abandon(String confirmation, String reason) {
        return dev.cutover.engine.api.NodeAnswers.one(Optional.of(repairs.abandon(spec, confirmation, reason)));
      }
    };
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
    long server = ground.sql().queryLong("read the server's max_threads", "SELECT getSetting('max_threads')");
    return s.withMaxThreads((int) Math.max(1, server / (2L * s.concurrency())));
  }

  /** Where the live writer stands now: its watermark and edge, read from v1 and its sources. */
  public LiveStatus live(TableSpec spec) {
    return new LiveReader(ground.sql(), spec).read();
  }

  /** The oldest hour every source still holds. */
  public Optional<HourPartition> reprocessingStart(TableSpec spec) {
    return new LiveReader(ground.sql(), spec).reprocessingStart();
  }

  /**
   * Plans a new backfill. Once the target's repair has pinned its boundary, the plan takes it; a
   * different {@code boundary} is refused with a sentence that names the pinned one.
   */
  public Plan plan(TableSpec spec, Optional<HourPartition> from, Optional<HourPartition> to,
      Optional<HourPartition> boundary, BackfillSettings settings) {
    return planner(spec).plan(from, to, boundary, settings, true);
  }

  /**
   * Plans a bounded repair: only the {@code affected} hours are recomputed, the others of the range are
   * carried from v1. Empty {@code affected} takes the spec's {@code affected}, if any. The window must
   * lie inside the range (hence before the boundary); otherwise it is refused with a sentence.
   */
  public Plan plan(TableSpec spec, Optional<HourPartition> from, Optional<HourPartition> to,
      Optional<HourPartition> boundary, Optional<HourRange> affected, BackfillSettings settings) {
    return planner(spec).plan(from, to, boundary, affected.or(spec::affected), settings, true);
  }

  /**
   * Plans the continuation of a stopped run: its range and boundary, and the throttle it ran with,
   * changed only where {@code overrides} says so.
   */
  public Plan planResume(TableSpec spec, String runId, UnaryOperator<BackfillSettings> overrides) {
    RunRecord run = backfill().check(runId, spec);
    BackfillSettings kept = RunParameters.decode(run.parameters(), defaults(spec));
    return planner(spec).resume(run, overrides.apply(kept));
  }

  /** The throttle a run was started or last changed with. */
  public BackfillSettings runSettings(TableSpec spec, RunRecord run) {
    return RunParameters.decode(run.parameters(), defaults(spec));
  }

  /**
   * As {@link #runSettings(TableSpec, RunRecord)}, with what the run's record does not say taken from
   * {@code fallback} (the plan it was started with): reads nothing from a server that may have stopped
   * the run by not answering.
   */
  public BackfillSettings runSettings(RunRecord run, BackfillSettings fallback) {
    return RunParameters.decode(run.parameters(), fallback);
  }

  /**
   * Runs every preflight check, reporting each as it starts; stops between checks once cancelled.
   * The plan is made again by the planner from its own request, and that plan is what a passing
   * preflight clears: a plan edited or kept since it was shown cannot slip through. The dependents of the
   * target and of v1 pass only when {@code acknowledgedDependents} names each, with the reason replaying
   * history through it is safe; the cleared plan carries those reasons to the backfill, which writes them
   * to the audit trail when it starts.
   */
  public Preflighted preflight(Plan plan, List<AcknowledgedDependent> acknowledgedDependents, Progress progress) {
    // The plan made again and every check read the server through one memo: the same question (is there a v2,
    // where is the live edge, what columns has a source) is asked once, not once per check that needs it.
    RepairContext once = ground.on(plan.spec()).readingOnce();
    Planner planner = new Planner(once);
    Plan fresh = plan.resumes().isPresent()
        ? planner.resume(backfill().check(plan.resumes().get(), plan.spec()), plan.settings())
        : planner.plan(Optional.of(plan.range().from()), Optional.of(plan.range().to()), Optional.of(plan.boundary()),
            plan.affected(), plan.settings(), false);
    Plan checked = new Plan(fresh.spec(), fresh.range(), fresh.boundary(), fresh.liveEdge(), fresh.hours(),
        fresh.overlap(), plan.estimates(), fresh.statements(), fresh.settings(), fresh.pinned(), fresh.resumes(),
        fresh.affected());
    PreflightReport report = new Preflight(once)
        .run(checked, acknowledgedDependents, progress);
    return new Preflighted(report, report.passed() ? Optional.of(new ClearedPlan(checked, report)) : Optional.empty());
  }

  public Preflighted preflight(Plan plan, List<AcknowledgedDependent> acknowledgedDependents) {
    return preflight(plan, acknowledgedDependents, Progress.NONE);
  }

  /** The v1-vs-corrected difference of a few hours, computed in memory: what the fix will change. */
  public Diff sample(TableSpec spec, List<HourPartition> hours, int keyLimit) {
    return new Sampler(ground.sql(), spec).sample(hours, keyLimit);
  }

  private Planner planner(TableSpec spec) {
    return new Planner(ground.on(spec));
  }

  private Backfill backfill() {
    return new Backfill(ground.sql(), ground.store());
  }
}
