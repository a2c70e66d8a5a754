package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.StepRefusedException;
import java.util.SortedMap;
import java.util.function.UnaryOperator;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.engine.api.Subscription;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.backfill.SideEffectNotes;
import dev.cutover.engine.tables.TableNames;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Backfill runs: starting one from a cleared plan, reading what runs did, and following a run as it
 * goes, whichever process drives it.
 */
public final class Backfills {

  private final Ground ground;
  private final Plans plans;

  Backfills(Ground ground, Plans plans) {
    this.ground = ground;
    this.plans = plans;
  }

  /** The backfill steps of {@code spec}'s repair on this server: what the console's Backfill screen runs. */
  public BackfillSteps of(TableSpec spec) {
    RepairBook repairs = new RepairBook(ground);
    return new BackfillSteps() {
      @Override
      public String where() {
        return "the server";
      }

      @Override
      public List<RunRecord> runs() {
        return Backfills.this.runs(spec);
      }

      @Override
      public SortedMap<HourPartition, LedgerEntry> ledger(String runId) {
        return Backfills.this.ledger(runId);
      }

      @Override
      public BackfillSettings settings(RunRecord run) {
        return plans.runSettings(spec, run);
      }

      @Override
      public RunFeed feed(String runId) {
        return Backfills.this.feed(spec, runId);
      }

      @Override
      public RunHandle start(Preflighted checked, BackfillEvent.Listener listener) {
        return Backfills.this.start(cleared("backfill", checked), listener);
      }

      @Override
      public RunHandle resume(String runId, UnaryOperator<BackfillSettings> throttle,
          List<AcknowledgedDependent> acknowledged, Progress progress, BackfillEvent.Listener listener) {
        Plan plan = plans.planResume(spec, runId, throttle);
        return Backfills.this.start(cleared("resume", plans.preflight(plan, acknowledged, progress)), listener);
      }

      @Override
      public LiveDeployment liveDeployment() {
        return repairs.liveDeployment(spec);
      }

      @Override
      public LiveDeployment deployLive(Optional<HourPartition> confirmed) {
        if (confirmed.isPresent()) {
          // The B the operator confirmed is the one this server chose then: when events moved it since, say so.
          HourPartition now = repairs.liveDeployment(spec).boundary();
          if (!now.equals(confirmed.get())) {
            throw new dev.cutover.engine.api.StepRefusedException("deploy-live", "B is now " + now + ", not "
                + confirmed.get() + " as confirmed: events arrived meanwhile. Nothing was deployed; confirm the "
                + "new B.", List.of("boundary"), Optional.empty());
          }
        }
        return confirmed.map(b -> repairs.deployLive(spec, b)).orElseGet(() -> repairs.deployLive(spec));
      }

      @Override
      public dev.cutover.engine.api.NodeAnswers<dev.cutover.engine.api.LiveWriterNote.Declared> declareLiveWriter(
          String writer) {
        return dev.cutover.engine.api.NodeAnswers.one(repairs.declareLiveWriter(spec, writer));
      }
    };
  }

  /** What a passing preflight cleared; refused, with every failed check, when it did not pass. */
  static ClearedPlan cleared(String step, Preflighted checked) {
    return checked.cleared().orElseThrow(() -> new StepRefusedException(step, "The " + step + " is refused: the "
        + "preflight failed: " + String.join("; ", checked.failures()) + ". Fix that, or acknowledge the dependents on "
        + "the Plan screen, and run it again. Nothing was written.", checked.failures(), Optional.empty()));
  }

  /**
   * Starts the cleared plan's backfill, or resumes the run it continues. Before it writes any hour, the run
   * writes each dependent its preflight found acknowledged to the audit trail, with the operator's reason
   * (see {@link #sideEffectAcknowledgements}).
   */
  public RunHandle start(ClearedPlan cleared, BackfillEvent.Listener listener) {
    TableSpec spec = cleared.plan().spec();
    return RepairHooks.run(RepairHooks.onServer(ground, spec), RepairHooks.fields(cleared.plan()),
        () -> start(cleared, listener, Backfill.newRunId()));
  }

  /** As {@link #start(ClearedPlan, BackfillEvent.Listener)}, a new run taking the id {@code runId}. */
  RunHandle start(ClearedPlan cleared, BackfillEvent.Listener listener, String runId) {
    return new Backfill(ground.sql(), ground.store()).start(cleared.plan(), cleared.report().dependents(), listener,
        runId);
  }

  /**
   * The dependents the runs of this spec's target were allowed to replay history through, newest first: who
   * acknowledged each, when, for which run and repair, and why, as the audit trail keeps it.
   */
  public List<SideEffectAcknowledgement> sideEffectAcknowledgements(TableSpec spec) {
    return new SideEffectNotes(ground.store()).read(TableNames.target(spec));
  }

  /** Runs against this spec's target, newest first. */
  public List<RunRecord> runs(TableSpec spec) {
    return ground.store().runs(TableNames.target(spec));
  }

  public Optional<RunRecord> run(String id) {
    return ground.store().run(id);
  }

  /** The run's ledger: one entry per hour it wrote, carried or failed, the latest attempt of each. */
  public TreeMap<HourPartition, LedgerEntry> ledger(String runId) {
    return ground.store().hours().ledger(runId);
  }

  /**
   * A feed of run {@code runId} of {@code spec}'s target, read on the caller's schedule: what changed
   * in its records since the last read, as the events its driver hears. For a screen that reads on
   * its own executor.
   */
  public RunFeed feed(TableSpec spec, String runId) {
    return RunFeed.onServer(ground, plans, spec, runId);
  }

  /**
   * Follows run {@code runId} from its records, reading them every {@code every} on a thread of its
   * own: the listener hears each hour the ledger gains, each change of state, and the progress after
   * each read, whether this process drives the run or another one does. A read that fails (the server
   * away for a moment) is skipped and tried again; following ends once the run has ended and its last
   * events were told, or on close.
   */
  public Subscription follow(TableSpec spec, String runId, Duration every, BackfillEvent.Listener listener) {
    if (every.isNegative() || every.isZero()) {
      throw new IllegalArgumentException("A follower reads at a positive period, not " + every);
    }
    RunFeed feed = feed(spec, runId);
    AtomicBoolean closed = new AtomicBoolean();
    Thread.ofVirtual().name("follow-" + runId).start(() -> {
      while (!closed.get()) {
        try {
          feed.next().forEach(e -> {
            if (!closed.get()) {
              listener.on(e);
            }
          });
          if (feed.ended()) {
            return;
          }
        } catch (CutoverException unreadable) {
          // the next read tries again; the run's state is whatever its records say then
        }
        try {
          Thread.sleep(every);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    return () -> closed.set(true);
  }
}
