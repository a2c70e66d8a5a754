package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.ShardedRepair.ClusterPlan;
import dev.cutover.engine.ShardedRepair.ClusterPreflight;
import dev.cutover.engine.ShardedRepair.ClusterRun;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.tasks.TaskExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The Shards screen's reads and steps on a repair that spans every shard of a cluster: reads every
 * shard every {@link #PERIOD} while the screen is shown; plans and preflights every shard over one
 * range and one boundary; starts, resumes and cancels the backfill on every shard; reconciles every
 * shard into one verdict and accepts a difference on every shard; judges every node's gate; and
 * switches consumers node by node, all or nothing, behind the confirmation dialog of one server's swap
 * (the runs it starts are {@link ShardRuns}', the swaps {@link ShardSwaps}').
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
  private final ShardSwaps swaps;
  private TaskExecutor.Handle timer;

  public ShardsController(ShardsModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.runs = new ShardRuns(model, this::current, this::read);
    this.swaps = new ShardSwaps(model, this::current, this::read);
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

  /** Resumes every shard whose latest run did not succeed, from its own ledger. */
  public void resume() {
    repair().ifPresent(r -> runs.start(r, "resume every shard whose run did not succeed",
        () -> r.resume(UnaryOperator.identity(), s -> BackfillEvent.Listener.NONE)));
  }

  /**
   * Deploys a view-fed table's corrected view on every shard from one future B, once the operator has
   * read the statement and B: all or nothing, and the shards' lines then show B pinned on every shard.
   */
  public void deployView() {
    repair().ifPresent(r -> activity.run("plan the corrected view on every shard", p -> r.liveDeployment(), planned -> {
      if (!current(r)) {
        return;
      }
      var first = planned.values().iterator().next();
      if (planned.values().stream().allMatch(dev.cutover.engine.api.LiveDeployment::exists)) {
        model.deployed("The corrected view " + first.view() + " already writes every shard's v2 from B = "
            + first.boundary() + "; nothing was changed.");
        return;
      }
      if (!workspace.dialogs().confirmDeployView(first, r.spec().targetTable() + " on each of " + planned.size()
          + " shards")) {
        return;
      }
      activity.runToTheEnd("deploy the corrected view on every shard", p -> r.deployLive(Optional.of(first.boundary())),
          deployed -> {
        model.deployed("The corrected view " + first.view() + " writes every shard's v2 from B = "
            + deployed.values().iterator().next().boundary() + ", pinned on every shard; the backfill writes the "
            + "hours before B once B has closed.");
        read();
      }, failure -> read());
    }));
  }

  /**
   * Declares the operator's corrected live writer (a job outside the database) deployed on every shard from
   * their one B, in the operator's words: all or nothing, refused with nothing written while any shard has no
   * B, another B or a corrected view. Each shard's repair then waits for the writer's first hour from B.
   */
  public void declareLiveWriter() {
    repair().ifPresent(r -> activity.run("read every shard's repair", p -> r.status(), status -> {
      if (!current(r)) {
        return;
      }
      Optional<HourPartition> b = status.values().stream().flatMap(s -> s.repair().stream())
          .filter(x -> !x.phase().ended()).flatMap(x -> x.boundary().stream()).findFirst();
      if (b.isEmpty()) {
        activity.fail("No shard has a repair with a boundary yet: the first backfill on every shard pins B, from "
            + "which the corrected live writer writes.");
        return;
      }
      TableSpec spec = r.spec();
      workspace.dialogs().declareLiveWriter(b.get(), spec.database() + "." + spec.targetTable() + " on each of "
          + status.size() + " shards").ifPresent(words ->
          activity.runToTheEnd("declare the corrected live writer on every shard", p -> r.declareLiveWriter(words),
              done -> {
                model.deployed("The corrected live writer (" + words + ") is declared deployed from B = " + b.get()
                    + " on " + done.size() + " shard(s); each shard's repair waits for its first hour from B.");
                read();
              }, failure -> read()));
    }));
  }

  /**
   * Gives the repair up on every shard that has one open, once the operator typed the target's name and
   * wrote a reason; refused, nothing abandoned, while consumers read v2 on any node or a step holds a shard.
   */
  public void abandon() {
    repair().ifPresent(r -> activity.run("read every shard's repair", p -> r.status(), status -> {
      if (!current(r)) {
        return;
      }
      var open = status.entrySet().stream().filter(e -> e.getValue().repair().filter(x -> !x.phase().ended())
          .isPresent()).toList();
      if (open.isEmpty()) {
        activity.fail("No shard has a repair open: there is nothing to abandon.");
        return;
      }
      var first = open.getFirst().getValue().repair().orElseThrow();
      String ids = String.join(", ", open.stream().map(e -> e.getValue().repair().orElseThrow().id()).distinct()
          .toList());
      TableSpec spec = r.spec();
      workspace.dialogs().confirmAbandon(new DialogService.AbandonRequest(spec.database() + "." + spec.targetTable()
          + " on " + open.size() + " shard(s)", spec.targetTable().name(), ids, first.phase().name().toLowerCase(
          java.util.Locale.ROOT).replace('_', ' '), first.boundary(), "Every shard's repair stops counting: its "
          + "boundary B and its ledger. v2 stays as it is on every shard, and a corrected view the repair deployed "
          + "is dropped. The next backfill starts one new repair on every shard, with a boundary of its own. Refused "
          + "on every shard while consumers read v2 on any node.")).ifPresent(a ->
          activity.runToTheEnd("abandon the repair on every shard", p -> r.abandon(a.typedName(), a.reason()), done -> {
            model.deployed("The repair is abandoned on " + done.values().stream().filter(Optional::isPresent).count()
                + " shard(s); the next backfill starts a new repair on every shard.");
            model.forgetPreflight();
            read();
          }, failure -> read()));
    }));
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
        "Every unexpected difference of hour " + hour + ", on every shard that has one.")).ifPresent(reason ->
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
   * For the console's close, off the FX thread: waits up to {@code limit} for a swap across nodes to end
   * (it must not lose its connections halfway), then for the start of runs, then cancels this console's
   * runs and waits for them to stop, each shard resumable.
   */
  public void closing(Duration limit) {
    swaps.awaitEnd(limit);
    runs.closing(limit);
  }

  /** Judges every node's cutover gate, or the rollback gate of nodes that read v2. */
  public void judgeGates() {
    repair().ifPresent(swaps::judgeGates);
  }

  /** Switches consumers to v2 on every node once the operator typed the view's name with every gate open. */
  public void cutover() {
    repair().ifPresent(r -> swaps.swap(r, true));
  }

  /** Switches consumers back to v1 on every node once the operator typed the view's name with every gate open. */
  public void rollback() {
    repair().ifPresent(r -> swaps.swap(r, false));
  }
}
