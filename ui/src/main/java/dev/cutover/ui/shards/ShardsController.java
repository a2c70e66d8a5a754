package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ClusterPlan;
import dev.cutover.engine.ShardedRepair.ClusterPreflight;
import dev.cutover.engine.ShardedRepair.ClusterRun;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The Shards screen's reads and steps on a repair that spans every shard of a cluster: reads every
 * shard every {@link #PERIOD} while the screen is shown; plans and preflights every shard over one
 * range and one boundary; starts, resumes and cancels the backfill on every shard; reconciles every
 * shard into one verdict and accepts a difference on every shard (the runs it starts are {@link ShardRuns}',
 * the steps on the repair itself {@link ShardRepairSteps}'). Every node's gate, the cutover and the rollback
 * are the Cutover screen's.
 */
public final class ShardsController implements ScreenController {

  /** How often every shard is read while the screen is shown. */
  public static final Duration PERIOD = Duration.ofSeconds(2);

  /** How many differing keys each shard's reconciliation keeps. */
  static final int KEY_LIMIT = 100;

  private final ShardsModel model;
  private final Workspace workspace;
  private final Activity activity;
  private final ShardRuns runs;
  private final ShardRepairSteps steps;
  private TaskExecutor.Handle timer;

  public ShardsController(ShardsModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.runs = new ShardRuns(model, this::current, this::read);
    this.steps = new ShardRepairSteps(model, this::current, this::read);
  }

  @Override
  public void shown() {
    read();
    if (timer == null) {
      timer = workspace.executor().every(PERIOD, () -> {
        if (workspace.online().get()) {
          read();
        }
      });
    }
  }

  @Override
  public void hidden() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  @Override
  public void reread() {
    // After a reconnect nothing checked before may clear a backfill: the plan and preflight are made again.
    model.forgetPreflight();
    read();
  }

  @Override
  public ObservableBooleanValue reading() {
    return model.reading().runningProperty();
  }

  private Optional<ShardedRepair> repair() {
    Optional<ShardedRepair> r = Optional.ofNullable(workspace.shardedProperty().get());
    if (r.isEmpty()) {
      activity.fail("No sharded repair is open: load a spec that names a cluster on the Connection screen.");
    }
    return r;
  }

  /** Whether {@code r} is still the repair the screen works on: a result of another is dropped, never shown. */
  boolean current(ShardedRepair r) {
    return workspace.shardedProperty().get() == r;
  }

  /** Reads every shard, off the FX thread; a read under way is not doubled. */
  public void read() {
    ShardedRepair repair = workspace.shardedProperty().get();
    if (repair == null || model.reading().running()) {
      return;
    }
    // A swap of every node that its process left unfinished is finished first, and the run line says so.
    record Read(Optional<String> finished, Map<ShardRef, ShardedRepair.ShardReading> shards) {}
    model.reading().run("read every shard", p -> new Read(repair.finishUnfinishedSwap(), repair.read()), read -> {
      read.finished().ifPresent(model::finished);
      model.read(repair, read.shards(), Instant.now());
    });
  }

  private record Checked(ClusterPlan plan, ClusterPreflight preflight) {}

  /**
   * Plans every shard over one range and one boundary, and runs every shard's preflight with the dependents
   * acknowledged so far.
   */
  public void preflight() {
    repair().ifPresent(r -> {
      List<AcknowledgedDependent> acknowledged = model.acknowledgedDependents();
      activity.run("plan and preflight every shard", p -> {
        ClusterPlan plan = r.plan(Optional.empty(), Optional.empty(), Optional.empty(), UnaryOperator.identity());
        return new Checked(plan, r.preflight(plan, acknowledged));
      }, c -> {
        if (current(r)) {
          model.checked(r, c.plan(), c.preflight());
        }
      });
    });
  }

  /** Starts the backfill on every shard once the operator confirmed it; refused unless every shard's preflight passed. */
  public void backfill() {
    Optional<ShardedRepair> repair = repair();
    ClusterPreflight checked = model.preflightProperty().get();
    ClusterPlan plan = model.planProperty().get();
    if (repair.isEmpty() || checked == null || !checked.passed() || model.checkedBy() != repair.get()) {
      activity.fail("Plan and preflight first: the backfill starts only from a preflight every shard passed, on the "
          + "repair open now.");
      return;
    }
    ShardedRepair r = repair.get();
    TableSpec spec = r.spec();
    int shards = checked.reports().size();
    long computed = plan.plans().values().stream().mapToLong(p -> p.computed().size()).sum();
    if (!workspace.dialogs().confirmBackfill(new DialogService.BackfillRequest(spec.targetTable() + " on each of "
        + shards + " shards of " + spec.cluster().orElseThrow().name(), plan.range(), plan.boundary(), computed,
        "Every shard at once, each from its own sources into its own v2, each with its own throttle within its share "
        + "of the cluster's totals; one ledger line per shard and hour."))) {
      return;
    }
    runs.start(r, "start the backfill on every shard", () -> r.backfill(checked, s -> BackfillEvent.Listener.NONE));
  }

  /**
   * Resumes every shard whose latest run did not succeed, from its own ledger, with the dependents acknowledged
   * so far.
   */
  public void resume() {
    List<AcknowledgedDependent> acknowledged = model.acknowledgedDependents();
    repair().ifPresent(r -> runs.start(r, "resume every shard whose run did not succeed",
        () -> r.resume(UnaryOperator.identity(), acknowledged, s -> BackfillEvent.Listener.NONE)));
  }

  /**
   * Asks why replaying history through {@code dependent}, which reads v1 on some shard, is safe; an answer
   * acknowledges it for the next preflight or resume, a declined question leaves it as it was.
   */
  public void acknowledgeDependent(String dependent) {
    TableSpec spec = workspace.spec();
    workspace.dialogs().acknowledgeSideEffect(new DialogService.SideEffectRequest(dependent, spec.liveTable().name()
        + " on some shard", spec.database() + "." + spec.targetTable())).ifPresent(reason -> {
          try {
            model.acknowledge(new AcknowledgedDependent(dependent, reason));
          } catch (CutoverException refused) {
            activity.fail(refused.getMessage());
          }
        });
  }

  /** Takes back the acknowledgement of {@code dependent}: the backfill needs the plan and preflight again. */
  public void takeBack(String dependent) {
    model.takeBack(dependent);
  }

  /** Deploys a view-fed table's corrected view on every shard from one future B, once the operator confirmed it. */
  public void deployView() {
    repair().ifPresent(steps::deployView);
  }

  /** Declares the operator's corrected live writer deployed on every shard from their one B, in their words. */
  public void declareLiveWriter() {
    repair().ifPresent(steps::declareLiveWriter);
  }

  /** Gives the repair up on every shard that has one open, once the operator typed the target's name and a reason. */
  public void abandon() {
    repair().ifPresent(steps::abandon);
  }

  /** Reconciles every shard over the whole repair: one verdict, green only when every shard's is. */
  public void reconcile() {
    repair().ifPresent(r -> activity.run("reconcile every shard", p -> r.reconcile(Reconciliation.Scope.REPAIR,
        KEY_LIMIT), v -> {
          if (current(r)) {
            model.reconciled(v);
          }
        }));
  }

  /** Accepts the unexpected differences of a whole hour on every shard, with the operator's reason. */
  public void acknowledge(HourPartition hour) {
    repair().ifPresent(r -> workspace.dialogs().acknowledgeDifference(new DialogService.AckRequest(hour, List.of(),
        "Every unexpected difference of hour " + hour + ", on every shard that has one.", "the unexpected differences "
            + "each shard holds in that hour when you confirm, each shard's acknowledgement bound to its own"))
        .ifPresent(reason ->
        activity.run("acknowledge hour " + hour + " on every shard", p -> {
          r.acknowledge(hour, List.of(), reason);
          return r.reconcile(Reconciliation.Scope.REPAIR, KEY_LIMIT);
        }, v -> {
          if (current(r)) {
            model.reconciled(v);
          }
        })));
  }

  /** Cancels the runs this console started; batches under way finish, and every shard stays resumable. */
  public void cancel() {
    runs.cancel();
  }

  /** Whether this console drives a backfill on some shard now. */
  public Optional<ClusterRun> driven() {
    return runs.driven();
  }

  /**
   * Whether the console may close: yes unless this console drives a backfill on the shards and the
   * operator, asked, keeps it. Closing cancels the runs; every shard stays resumable from its ledger.
   */
  public boolean mayClose() {
    return runs.mayClose();
  }

  /**
   * For the console's close, off the FX thread: waits up to {@code limit} for the start of runs, then cancels
   * this console's runs and waits for them to stop, each shard resumable.
   */
  public void closing(Duration limit) {
    runs.closing(limit);
  }
}
