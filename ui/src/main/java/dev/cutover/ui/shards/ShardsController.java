package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.ShardedRepair.ClusterRun;
import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
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
 * The Shards screen's reads and steps on the backfill of every shard of a cluster: reads every shard every
 * {@link #PERIOD} while the screen is shown; starts (from the Plan screen's preflight), resumes and cancels the
 * backfill on every shard (the runs it starts are {@link ShardRuns}'); deploys or declares the corrected live
 * writer on every shard ({@link ShardRepairSteps}). The plan, preflight and abandoning the repair are the Plan
 * screen's, the reconciliation the Reconcile screen's, every node's gate and switch the Cutover screen's.
 */
public final class ShardsController implements ScreenController {

  /** How often every shard is read while the screen is shown. */
  public static final Duration PERIOD = Duration.ofSeconds(2);

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

  /** Starts the backfill on every shard once the operator confirmed it; refused unless every shard's preflight passed. */
  public void backfill() {
    Optional<ShardedRepair> repair = repair();
    Preflighted checked = workspace.preflightProperty().get();
    Plan plan = workspace.plan();
    if (repair.isEmpty() || plan == null || checked == null || !checked.passed() || checked.nodes().isEmpty()) {
      activity.fail("Plan and preflight on the Plan screen first: the backfill starts only from a preflight every "
          + "shard passed.");
      return;
    }
    ShardedRepair r = repair.get();
    TableSpec spec = r.spec();
    int shards = checked.nodes().size();
    long computed = (long) shards * plan.computed().size();
    if (!workspace.dialogs().confirmBackfill(new DialogService.BackfillRequest(spec.targetTable() + " on each of "
        + shards + " shards of " + spec.cluster().orElseThrow().name(), plan.range(), plan.boundary(), computed,
        "Every shard at once, each from its own sources into its own v2, each with its own throttle within its share "
        + "of the cluster's totals; one ledger line per shard and hour."))) {
      return;
    }
    runs.start(r, "start the backfill on every shard", () -> r.backfill(checked, s -> BackfillEvent.Listener.NONE));
  }

  /**
   * Resumes every shard whose latest run did not succeed, from its own ledger, with the dependents acknowledged in
   * the Plan screen's last preflight.
   */
  public void resume() {
    Preflighted last = workspace.preflightProperty().get();
    List<AcknowledgedDependent> acknowledged = last == null ? List.of()
        : PreflightReport.Dependent.acknowledgements(last.report().dependents());
    repair().ifPresent(r -> runs.start(r, "resume every shard whose run did not succeed",
        () -> r.resume(UnaryOperator.identity(), acknowledged, s -> BackfillEvent.Listener.NONE)));
  }

  /** Deploys a view-fed table's corrected view on every shard from one future B, once the operator confirmed it. */
  public void deployView() {
    repair().ifPresent(steps::deployView);
  }

  /** Declares the operator's corrected live writer deployed on every shard from their one B, in their words. */
  public void declareLiveWriter() {
    repair().ifPresent(steps::declareLiveWriter);
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
