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
import dev.cutover.engine.ShardedRepair.ClusterRun;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The backfill runs the Shards screen starts on every shard: started to the end (once started they run
 * whether anyone waits), followed to their end and reported, cancelled on request or when the console
 * closes, each shard resumable from its ledger.
 */
final class ShardRuns {

  private final ShardsModel model;
  private final Workspace workspace;
  private final Activity activity;
  private final Predicate<ShardedRepair> current;
  private final Runnable read;
  private volatile ClusterRun run;
  /** The last start of runs; the console's close waits for it. */
  private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);

  ShardRuns(ShardsModel model, Predicate<ShardedRepair> current, Runnable read) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.current = current;
    this.read = read;
  }

  /**
   * Starts runs to the end: once the shards' runs have started they run whether anyone waits or not, so
   * the start is not cancellable and its runs are always followed, cancelled on close, and reported.
   */
  void start(ShardedRepair r, String doing, java.util.function.Supplier<ClusterRun> starting) {
    CompletableFuture<Void> step = new CompletableFuture<>();
    inFlight = step;
    activity.runToTheEnd(doing, p -> starting.get(), started -> {
      run = started;
      step.complete(null);
      model.started("Backfill running on " + started.runs().size() + " shard(s): " + String.join(", ",
          started.runs().keySet().stream().map(s -> s.shard() + "").toList()) + ".");
      read.run();
      workspace.executor().submit(p -> started.await(), ended -> ended(r, ended), failure -> {
        run = null;
        model.ended("The runs could not be followed to their end: " + Errors.sentence(failure, "follow the runs"));
      });
    }, failure -> step.complete(null));
  }

  private void ended(ShardedRepair r, Map<ShardRef, RunRecord> ended) {
    run = null;
    List<String> failed = ClusterRun.failed(ended);
    model.ended(failed.isEmpty() ? "The backfill succeeded on all " + ended.size() + " shard(s)."
        : "The backfill did not succeed on " + failed.size() + " shard(s): " + String.join("; ", failed)
        + ". Resume finishes only those shards.");
    if (current.test(r)) {
      read.run();
    }
  }

  /** Cancels the runs this console started; batches under way finish, and every shard stays resumable. */
  void cancel() {
    ClusterRun r = run;
    if (r != null) {
      r.runs().values().forEach(RunHandle::cancel);
    }
  }

  /** Whether this console drives a backfill on some shard now. */
  Optional<ClusterRun> driven() {
    return Optional.ofNullable(run);
  }

  /**
   * Whether the console may close: yes unless this console drives a backfill on the shards and the
   * operator, asked, keeps it. Closing cancels the runs; every shard stays resumable from its ledger.
   */
  boolean mayClose() {
    if (run == null) {
      return true;
    }
    long[] progress = model.readings().progress();
    return workspace.dialogs().confirmCloseWhileRunning("on " + run.runs().size() + " shards", progress[0], progress[1]);
  }

  /**
   * For the console's close, off the FX thread: waits up to {@code limit} for a step that must be seen to
   * its end (a swap across nodes, the start of runs), then cancels this console's runs and waits for them
   * to stop, each shard resumable.
   */
  void closing(Duration limit) {
    try {
      inFlight.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException | TimeoutException e) {
      // The step did not end in time: closing goes on, and each shard's state says where it stopped.
    }
    ClusterRun r = run;
    if (r == null) {
      return;
    }
    r.runs().values().forEach(RunHandle::cancel);
    for (RunHandle h : r.runs().values()) {
      try {
        h.completion().get(limit.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | TimeoutException e) {
        // The run stays resumable from its ledger.
      }
    }
  }
}
