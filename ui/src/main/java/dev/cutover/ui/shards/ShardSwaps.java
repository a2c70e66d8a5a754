package dev.cutover.ui.shards;

import dev.cutover.engine.ShardedRepair;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Errors;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.dialogs.DialogService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.application.Platform;

/**
 * The swaps of consumers across every node: each node's gate judged, the cutover or rollback confirmed
 * with every node's gate judged again, then run to its end (switch-back included) with each node's line
 * shown as it switches; the console's close waits for a swap under way.
 */
final class ShardSwaps {

  private final ShardsModel model;
  private final Workspace workspace;
  private final Activity activity;
  private final Predicate<ShardedRepair> current;
  private final Runnable read;
  /** The last swap; the console's close waits for it. */
  private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);

  ShardSwaps(ShardsModel model, Predicate<ShardedRepair> current, Runnable read) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.current = current;
    this.read = read;
  }

  /** Waits up to {@code limit} for a swap under way to end. Off the FX thread. */
  void awaitEnd(Duration limit) {
    try {
      inFlight.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // The swap did not end in time: closing goes on, and each node's view says what it reads.
    }
  }

  /** Judges every node's cutover gate, or the rollback gate of nodes that read v2. */
  void judgeGates(ShardedRepair r) {
    activity.run("judge every node's gate", p -> gates(r), g -> {
      if (current.test(r)) {
        model.gates(g, Instant.now());
      }
    });
  }

  /** The gate of the swap the consumers can take now: a rollback once every node reads v2, else the cutover. */
  private static Map<ShardRef, Gate> gates(ShardedRepair r) {
    boolean allV2 = r.status().values().stream().allMatch(s -> s.reads() == Gate.Version.V2);
    return allV2 ? r.rollbackGates() : r.gates();
  }

  /**
   * Switches consumers on every node, to v2 when {@code forward}, else back to v1, once the operator typed
   * the view's name with every node's gate judged open again.
   */
  void swap(ShardedRepair r, boolean forward) {
    TableSpec spec = r.spec();
    int nodes = r.shardRefs().size();
    String statement = "On each of the " + nodes + " nodes in turn, each verified, all or nothing:\n" + r.statement();
    DialogService.GateCheck check = (judged, failed) -> workspace.executor().submit(p -> merged(forward
        ? r.gates() : r.rollbackGates()), g -> judged.accept(g, Instant.now()),
        failure -> failed.accept(Errors.sentence(failure, "judge every node's gate")));
    Optional<String> typed = forward
        ? workspace.dialogs().confirmCutover(new DialogService.SwapRequest(workspace.server(), "cutover", statement, spec.consumerView()
            .name(), Gate.Version.V1, spec.consumerLive().name(), Gate.Version.V2, spec.consumerTarget().name(), check))
        : workspace.dialogs().confirmRollback(new DialogService.SwapRequest(workspace.server(), "rollback", statement, spec.consumerView()
            .name(), Gate.Version.V2, spec.consumerTarget().name(), Gate.Version.V1, spec.consumerLive().name(), check));
    if (typed.isEmpty() || !current.test(r)) {
      return;
    }
    String doing = forward ? "Cutover" : "Rollback";
    model.swapStarted(doing, nodes);
    CompletableFuture<Void> step = new CompletableFuture<>();
    inFlight = step;
    // A swap across nodes runs to its end, switch-back included: it offers no Cancel, and its outcome is always shown.
    activity.runToTheEnd((forward ? "cut over" : "roll back") + " on every node", p -> forward
        ? r.cutover(typed.get(), (s, result) -> switched(r, s, result))
        : r.rollback(typed.get(), (s, result) -> switched(r, s, result)), done -> {
          step.complete(null);
          model.swapEnded(doing + " done: every node reads " + (forward ? "v2" : "v1") + ", each verified.");
          read.run();
        }, failure -> {
          step.complete(null);
          model.swapEnded(Errors.sentence(failure, doing.toLowerCase(java.util.Locale.ROOT) + " on every node"));
          read.run();
        });
  }

  private void switched(ShardedRepair r, ShardRef shard, SwapResult result) {
    Platform.runLater(() -> {
      if (current.test(r)) {
        model.switched(shard, result);
      }
    });
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
