package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ClusterPlan;
import dev.cutover.engine.ShardedRepair.ClusterPreflight;
import dev.cutover.engine.ShardedRepair.ClusterRun;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javafx.application.Platform;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The Shards screen's reads and steps on a repair that spans every shard of a cluster: reads every
 * shard every {@link #PERIOD} while the screen is shown; plans and preflights every shard over one
 * range and one boundary; starts, resumes and cancels the backfill on every shard; reconciles every
 * shard into one verdict and accepts a difference on every shard; judges every node's gate; and
 * switches consumers node by node, all or nothing, behind the confirmation dialog of one server's swap.
 */
public final class ShardsController implements ScreenController {

  /** How often every shard is read while the screen is shown. */
  public static final Duration PERIOD = Duration.ofSeconds(2);

  /** How many differing keys each shard's reconciliation keeps. */
  static final int KEY_LIMIT = 100;

  private final ShardsModel model;
  private final Workspace workspace;
  private final Activity activity;
  private TaskExecutor.Handle timer;
  private volatile ClusterRun run;

  public ShardsController(ShardsModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
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
    return Optional.ofNullable(workspace.shardedProperty().get());
  }

  /** Reads every shard, off the FX thread; a read under way is not doubled. */
  public void read() {
    ShardedRepair repair = workspace.shardedProperty().get();
    if (repair == null || model.reading().running()) {
      return;
    }
    model.reading().run("read every shard", p -> repair.read(), read -> model.read(repair, read, Instant.now()));
  }

  private record Checked(ClusterPlan plan, ClusterPreflight preflight) {}

  /** Plans every shard over one range and one boundary, and runs every shard's preflight with the ticked dependents. */
  public void preflight() {
    repair().ifPresent(r -> {
      List<String> acknowledged = List.copyOf(model.acknowledged());
      activity.run("plan and preflight every shard", p -> {
        ClusterPlan plan = r.plan(Optional.empty(), Optional.empty(), Optional.empty(), UnaryOperator.identity());
        return new Checked(plan, r.preflight(plan, acknowledged));
      }, c -> model.checked(c.plan(), c.preflight()));
    });
  }

  /** Starts the backfill on every shard once the operator confirmed it; refused unless every shard's preflight passed. */
  public void backfill() {
    Optional<ShardedRepair> repair = repair();
    ClusterPreflight checked = model.preflightProperty().get();
    ClusterPlan plan = model.planProperty().get();
    if (repair.isEmpty() || checked == null || !checked.passed()) {
      activity.fail("Run the preflight first: the backfill starts only once every shard's preflight passed.");
      return;
    }
    TableSpec spec = repair.get().spec();
    int shards = checked.reports().size();
    if (!workspace.dialogs().confirmBackfill(new DialogService.BackfillRequest(spec.targetTable() + " on each of "
        + shards + " shards of " + spec.cluster().orElseThrow().name(), plan.range(), plan.boundary(),
        plan.range().hours() * shards, "Every shard at once, each from its own sources into its own v2 with the "
        + "spec's throttle; one ledger line per shard and hour."))) {
      return;
    }
    start("start the backfill on every shard", () -> repair.get().backfill(checked, s -> BackfillEvent.Listener.NONE));
  }

  /** Resumes every shard whose latest run did not succeed, from its own ledger. */
  public void resume() {
    repair().ifPresent(r -> start("resume every shard whose run did not succeed",
        () -> r.resume(UnaryOperator.identity(), s -> BackfillEvent.Listener.NONE)));
  }

  private void start(String doing, java.util.function.Supplier<ClusterRun> starting) {
    activity.run(doing, p -> starting.get(), started -> {
      run = started;
      workspace.drivingShardsProperty().set(true);
      model.started("Backfill running on " + started.runs().size() + " shard(s): " + String.join(", ",
          started.runs().keySet().stream().map(s -> s.shard() + "").toList()) + ".");
      read();
      workspace.executor().submit(p -> started.await(), this::ended, failure -> {
        workspace.drivingShardsProperty().set(false);
        model.ended("The runs could not be followed to their end: " + Errors.sentence(failure, "follow the runs"));
      });
    });
  }

  private void ended(Map<ShardRef, RunRecord> ended) {
    run = null;
    workspace.drivingShardsProperty().set(false);
    List<String> failed = ClusterRun.failed(ended);
    model.ended(failed.isEmpty() ? "The backfill succeeded on all " + ended.size() + " shard(s)."
        : "The backfill did not succeed on " + failed.size() + " shard(s): " + String.join("; ", failed)
        + ". Resume finishes only those shards.");
    read();
  }

  /** Cancels the runs this console started; batches under way finish, and every shard stays resumable. */
  public void cancel() {
    ClusterRun r = run;
    if (r != null) {
      r.runs().values().forEach(RunHandle::cancel);
    }
  }

  /** Whether this console drives a backfill on some shard now. */
  public Optional<ClusterRun> driven() {
    return Optional.ofNullable(run);
  }

  /** Reconciles every shard over the whole repair: one verdict, green only when every shard's is. */
  public void reconcile() {
    repair().ifPresent(r -> activity.run("reconcile every shard", p -> r.reconcile(Reconciliation.Scope.REPAIR,
        KEY_LIMIT), model::reconciled));
  }

  /** Accepts the unexpected differences of a whole hour on every shard, with the operator's reason. */
  public void acknowledge(HourPartition hour) {
    repair().ifPresent(r -> workspace.dialogs().acknowledgeDifference(new DialogService.AckRequest(hour, List.of(),
        "Every unexpected difference of hour " + hour + ", on every shard that has one.")).ifPresent(reason ->
        activity.run("acknowledge hour " + hour + " on every shard", p -> {
          r.acknowledge(hour, List.of(), reason);
          return r.reconcile(Reconciliation.Scope.REPAIR, KEY_LIMIT);
        }, model::reconciled)));
  }

  /** Judges every node's cutover gate, or the rollback gate of nodes that read v2. */
  public void judgeGates() {
    repair().ifPresent(r -> activity.run("judge every node's gate", p -> gates(r), g -> model.gates(g, Instant.now())));
  }

  /** The gate of the swap the consumers can take now: a rollback once every node reads v2, else the cutover. */
  private static Map<ShardRef, Gate> gates(ShardedRepair r) {
    boolean allV2 = r.status().values().stream().allMatch(s -> s.reads() == Gate.Version.V2);
    return allV2 ? r.rollbackGates() : r.gates();
  }

  /** Switches consumers to v2 on every node once the operator typed the view's name with every gate open. */
  public void cutover() {
    swap(true);
  }

  /** Switches consumers back to v1 on every node once the operator typed the view's name with every gate open. */
  public void rollback() {
    swap(false);
  }

  private void swap(boolean forward) {
    Optional<ShardedRepair> repair = repair();
    if (repair.isEmpty()) {
      return;
    }
    ShardedRepair r = repair.get();
    TableSpec spec = r.spec();
    int nodes = r.shardRefs().size();
    String statement = "On each of the " + nodes + " nodes in turn, each verified, all or nothing:\n" + r.statement();
    DialogService.GateCheck check = (judged, failed) -> workspace.executor().submit(p -> merged(forward
        ? r.gates() : r.rollbackGates()), g -> judged.accept(g, Instant.now()),
        failure -> failed.accept(Errors.sentence(failure, "judge every node's gate")));
    Optional<String> typed = forward
        ? workspace.dialogs().confirmCutover(new DialogService.SwapRequest("cutover", statement, spec.consumerView()
            .name(), Gate.Version.V1, spec.consumerLive().name(), Gate.Version.V2, spec.consumerTarget().name(), check))
        : workspace.dialogs().confirmRollback(new DialogService.SwapRequest("rollback", statement, spec.consumerView()
            .name(), Gate.Version.V2, spec.consumerTarget().name(), Gate.Version.V1, spec.consumerLive().name(), check));
    typed.ifPresent(t -> {
      String doing = forward ? "Cutover" : "Rollback";
      model.swapStarted(doing, nodes);
      activity.run((forward ? "cut over" : "roll back") + " on every node", p -> forward
          ? r.cutover(t, this::switched) : r.rollback(t, this::switched), done -> {
            model.swapEnded(doing + " done: every node reads " + (forward ? "v2" : "v1") + ", each verified.");
            read();
          }, failure -> {
            model.swapEnded(Errors.sentence(failure, doing.toLowerCase(java.util.Locale.ROOT) + " on every node"));
            read();
          });
    });
  }

  private void switched(ShardRef shard, SwapResult result) {
    Platform.runLater(() -> model.switched(shard, result));
  }

  /**
   * Every node's gate as one, for the confirmation dialog: open only when every node's is, each
   * condition named by its node.
   */
  static Gate merged(Map<ShardRef, Gate> gates) {
    List<Gate.Condition> conditions = new ArrayList<>();
    gates.forEach((s, g) -> g.conditions().forEach(c -> conditions.add(new Gate.Condition(s + ": " + c.name(), c.met(),
        c.detail()))));
    Gate first = gates.values().iterator().next();
    return new Gate(first.step(), conditions, first.current(), first.judged());
  }
}
