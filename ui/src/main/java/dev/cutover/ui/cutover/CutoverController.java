package dev.cutover.ui.cutover;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.CutoverSteps;
import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import dev.cutover.ui.common.ScreenController;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.dialogs.DialogService.SwapRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import java.util.Optional;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The cutover screen's steps, over the repair's snapshot: the gate it shows is the one in the console's one
 * snapshot of the repair ({@link dev.cutover.ui.repair.RepairWatch}), read with the banner's phase, the next
 * step and the badges, so that none of them says another thing; it judges the gate again only as a
 * confirmation dialog opens (and the swap once more itself). It cuts over and rolls back once the operator
 * typed the view's name, drops v1 and cleans up the staging tables.
 */
public final class CutoverController implements ScreenController {

  private final CutoverModel model;
  private final Workspace workspace;
  private final Activity activity;
  /** The last swap, or an armed cutover's turn that may switch consumers; the console's close waits for it. */
  private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);
  /** The repair's version and what consumers read when the retention shown was read: it changes with a swap. */
  private Optional<String> retentionRead = Optional.empty();
  /** Retiring v1 and cleaning staging, after the cutover. */
  private final RetireController retirement;
  /** The armed cutover: arming, disarming and this console's turns. */
  private final ArmController arming;

  public CutoverController(CutoverModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.retirement = new RetireController(model, snapshot -> retentionRead = Optional.of(ground(snapshot)));
    this.arming = new ArmController(model, this::swapping);
    workspace.repair().snapshotProperty().subscribe(this::follow);
  }

  @Override
  public void reread() {
    if (workspace.spec() != null && workspace.engine() != null) {
      refresh();
    }
  }

  @Override
  public ObservableBooleanValue reading() {
    return activity.runningProperty();
  }

  @Override
  public void shown() {
    refresh();
  }

  @Override
  public void hidden() {
  }

  /**
   * A new snapshot of the repair: its gate, with when it was judged, and the repair it was read with. The
   * retention of v1 moves only with a swap: it is read again when the repair or what consumers read moved.
   */
  private void follow(RepairSnapshot snapshot) {
    if (snapshot == null || snapshot.gate().isEmpty() || workspace.lost().get()) {
      return;
    }
    arming.follow(snapshot);
    RepairSnapshot.Judged judged = snapshot.gate().get();
    Repair repair = snapshot.status().repair().orElse(null);
    String ground = ground(snapshot);
    if (retentionRead.equals(Optional.of(ground)) && model.retentionProperty().get() != null) {
      model.judged(judged.gate(), model.retentionProperty().get(), repair, judged.at());
      return;
    }
    CutoverSteps steps = steps();
    if (steps == null) {
      return;
    }
    workspace.executor().submit(p -> steps.retention(), (m, f) -> {}, retention -> {
      if (snapshot == workspace.repair().snapshotProperty().get()) {
        retentionRead = Optional.of(ground);
        model.judged(judged.gate(), retention, repair, judged.at());
      }
    }, failure -> activity.fail(Errors.sentence(failure, "read the retention of v1")));
  }

  /** What the retention of v1 depends on: the repair's record and what consumers read. */
  private static String ground(RepairSnapshot snapshot) {
    return snapshot.status().repair().map(r -> r.id() + "/" + r.version()).orElse("none") + "/" + snapshot.reads();
  }

  /**
   * The switch of the loaded spec's consumers: on every node for a sharded table (once its repair is open on
   * every node), else on the server; null while there is none. Read on the FX thread.
   */
  private CutoverSteps steps() {
    return workspace.stepsOf(TargetRepair::cutovers);
  }

  /**
   * The gate judged now, with each node's on a cluster, v1's retention and the statement; on a cluster a switch its
   * process left unfinished is finished first, and {@code finished} says so.
   */
  private record State(CutoverSteps.Judged judged, String statement, Retention retention, Optional<Repair> repair,
      Optional<String> finished) {}

  /**
   * Reads the statement the swap runs, and the repair's snapshot again, with its gate. A sharded table has no
   * snapshot: every node's gate is judged here, after any switch left unfinished is finished.
   */
  public void refresh() {
    TableSpec spec = workspace.spec();
    TargetRepair repair = workspace.targetRepair();
    if (workspace.lost().get() || repair == null) {
      return;
    }
    CutoverSteps steps = repair.cutovers();
    if (spec.cluster().isPresent()) {
      activity.run("judge the gate of " + steps.where(), p -> read(repair), this::show);
      return;
    }
    activity.run("read the statement of the swap", p -> steps.statement(), model::statement);
    workspace.repair().judgeAgain();
  }

  /** Arms the cutover once the operator typed the view's name and chose a window ({@link ArmController}). */
  public void arm() {
    arming.arm();
  }

  /** Disarms the armed cutover, this console's or another process's; nothing is switched. */
  public void disarm() {
    arming.disarm();
  }

  /**
   * The rollback gate while consumers read v2 (or v1 is dropped), the cutover gate otherwise, judged now (for a
   * confirmation dialog, or on a cluster for the screen).
   */
  private static State read(TargetRepair repair) {
    CutoverSteps steps = repair.cutovers();
    Optional<String> finished = steps.finishUnfinished().map(dev.cutover.engine.api.UnfinishedSwap::sentence);
    // On a cluster the least advanced shard's record: where the repair as one stands.
    return new State(steps.judge(), steps.statement(), steps.retention(), repair.stateRecord(), finished);
  }

  /** A gate judged for a dialog is shown too, and the snapshot read again so that every panel follows it. */
  private void show(State s) {
    if (workspace.lost().get()) {
      return;
    }
    CutoverSteps.Judged j = s.judged();
    model.statement(s.statement());
    model.judged(j.gate(), s.retention(), s.repair().orElse(null), j.at());
    if (!j.nodes().isEmpty()) {
      model.nodes(j.nodes(), j.at());
      s.finished().ifPresent(model::nodeNote);
    }
    workspace.repair().refresh();
  }

  /**
   * The gate judged again, now, for a confirmation dialog; the screen shows it too. Refused at once
   * while the server does not answer.
   */
  private DialogService.GateCheck freshGate(TargetRepair repair) {
    return (judged, failed) -> {
      if (workspace.lost().get()) {
        failed.accept("the server does not answer; " + workspace.linkProperty().get().sentence());
        return;
      }
      workspace.executor().submit(p -> read(repair), (message, fraction) -> {}, s -> {
        if (workspace.lost().get()) {
          failed.accept("the server stopped answering while the gate was judged.");
          return;
        }
        show(s);
        judged.accept(s.judged().gate(), s.judged().at());
      }, failure -> failed.accept(Errors.sentence(failure, "judge the gate")));
    };
  }

  /** Switches consumers to v2 (on every node of a cluster) once the operator typed the view's name. */
  public void cutover() {
    swap(true);
  }

  /** Switches consumers back to v1 (on every node of a cluster) once the operator typed the view's name. */
  public void rollback() {
    swap(false);
  }

  private void swap(boolean forward) {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    TargetRepair repair = workspace.targetRepair();
    if (repair == null) {
      return;
    }
    CutoverSteps steps = repair.cutovers();
    SwapRequest request = forward
        ? new SwapRequest(workspace.server(), Gate.CUTOVER, model.statementProperty().get(), spec.consumerView().name(),
            Gate.Version.V1, spec.consumerLive().name(), Gate.Version.V2, spec.consumerTarget().name(),
            freshGate(repair))
        : new SwapRequest(workspace.server(), Gate.ROLLBACK, model.statementProperty().get(),
            spec.consumerView().name(), Gate.Version.V2, spec.consumerTarget().name(), Gate.Version.V1,
            spec.consumerLive().name(), freshGate(repair));
    Optional<DialogService.Confirmed> typed = forward ? workspace.dialogs().confirmCutover(request)
        .map(t -> new DialogService.Confirmed(t, Optional.empty())) : workspace.dialogs().confirmRollback(request);
    if (typed.isEmpty() || spec != workspace.spec()) {
      return;
    }
    String doing = forward ? "cut over" : "roll back";
    boolean nodes = spec.cluster().isPresent();
    if (nodes) {
      model.swapStarted(forward ? "Cutover" : "Rollback", steps.nodes());
    }
    java.util.function.BiConsumer<ShardRef, SwapResult> switched = (node, r) -> Platform.runLater(() -> {
      if (spec == workspace.spec()) {
        model.switched(node, r);
      }
    });
    CompletableFuture<Void> step = swapping();
    // A swap runs to its end on the server whether anyone waits or not (across nodes, its switch-back included): no
    // Cancel, and its outcome is always shown. The snapshot (on a cluster every node's gate) is read in the same
    // task, after the swap: the result, the gate, the badge and the banner then change together, never a gate
    // judged before the swap beside the swap's result.
    activity.runToTheEnd(doing + " " + spec.consumerView() + (nodes ? " on " + steps.where() : ""), p -> {
      try {
        SwapResult result = forward ? steps.cutover(typed.get().typed(), p, switched)
            : steps.rollback(typed.get().typed(), typed.get().reason(), p, switched);
        return new Swapped(result, repair.snapshot(Optional.empty()), nodes ? Optional.of(read(repair))
            : Optional.empty(), steps.retention());
      } finally {
        step.complete(null);
      }
    }, s -> {
      model.swapped(s.result());
      model.retention(s.retention());
      retentionRead = Optional.of(ground(s.snapshot()));
      workspace.repair().take(engine, spec, s.snapshot());
      s.nodes().ifPresent(n -> {
        model.nodeNote((forward ? "Cutover" : "Rollback") + " done: every node reads " + (forward ? "v2" : "v1")
            + (s.result().verified() ? ", each verified." : "; not every node could be verified."));
        show(n);
      });
    }, failure -> {
      if (nodes) {
        model.nodeNote(Errors.sentence(failure, doing + " on every node"));
      }
      workspace.repair().refresh();
    });
  }

  /**
   * For the console's close, off the FX thread: waits up to {@code limit} for a swap under way to end (across
   * nodes it must not lose its connections halfway); one that does not end in time leaves each node's view
   * saying what it reads.
   */
  public void awaitSwap(Duration limit) {
    try {
      inFlight.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // The swap did not end in time: closing goes on.
    }
  }

  /** A step that may switch consumers begins: the console's close waits for it (and for any still under way). */
  private synchronized CompletableFuture<Void> swapping() {
    CompletableFuture<Void> step = new CompletableFuture<>();
    CompletableFuture<Void> before = inFlight;
    inFlight = before.isDone() ? step : CompletableFuture.allOf(before, step);
    return step;
  }

  /** A swap's result with what was read after it: one server's snapshot, or every node's gate. */
  private record Swapped(SwapResult result, RepairSnapshot snapshot, Optional<State> nodes,
      Retention retention) {}

  /**
   * Drops v1 and the rollback handle once the operator typed the table's name; before the retention
   * horizon only with a written reason, which goes to the audit trail.
   */
  public void dropV1() {
    retirement.dropV1();
  }

  /** Drops the staging and sample tables left by runs, once the operator confirmed. */
  public void cleanup() {
    retirement.cleanup();
  }
}
