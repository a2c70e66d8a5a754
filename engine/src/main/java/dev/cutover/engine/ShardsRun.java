package dev.cutover.engine;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import java.util.function.UnaryOperator;
import dev.cutover.engine.cluster.RunsOverShards;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One backfill this process drives on every shard of a cluster, as one run: every control goes to each shard's
 * part, and the listener hears the run as one, from the shards' records read together every {@link #EVERY} (an
 * hour once every shard wrote it), the last read after every part ended; then, once every part has let go of its
 * shard's repair, {@link #completion()} completes.
 */
final class ShardsRun implements RunHandle {

  /** How often the shards' records are read for the listener while the run goes. */
  static final Duration EVERY = Duration.ofSeconds(1);

  private final String id;
  private final Map<ShardRef, RunHandle> parts;
  private final UnaryOperator<BackfillSettings> share;
  private final CompletableFuture<RunRecord> completion = new CompletableFuture<>();

  ShardsRun(String id, Map<ShardRef, RunHandle> parts, UnaryOperator<BackfillSettings> share, RunFeed feed,
      BackfillEvent.Listener listener) {
    this.id = id;
    this.parts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parts));
    this.share = share;
    Thread.ofVirtual().name("shards-run-" + id).start(() -> follow(feed, listener));
  }

  private void follow(RunFeed feed, BackfillEvent.Listener listener) {
    CompletableFuture<Void> ended = CompletableFuture.allOf(parts.values().stream().map(RunHandle::completion)
        .toArray(CompletableFuture[]::new));
    boolean last = false;
    while (!last) {
      last = ended.isDone();
      try {
        feed.next().forEach(listener::on);
      } catch (RuntimeException unreadable) {
        // a shard away for a moment, or a listener that failed: the next read tells what changed meanwhile, and
        // the run ends whatever the reads did
      }
      // Once a read told the run's end (every part ended, as the records say), nothing is told after it.
      if (feed.ended()) {
        last = true;
      }
      if (!last) {
        try {
          ended.get(EVERY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
          // read again; a part that failed has ended, and its record says how
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    // The records say a part ended before the part lets go of its shard's repair (BackfillRun's finish): the run ends
    // once every part has, as one server's run does, so that whoever reads the repair at its end reads every shard's
    // repair let go ("backfilled"), not one still held by a run that has ended.
    try {
      ended.get();
    } catch (ExecutionException e) {
      // a part that failed has ended; its record says how
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      completion.complete(record());
    } catch (RuntimeException e) {
      completion.completeExceptionally(e);
    }
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public RunRecord record() {
    Map<ShardRef, RunRecord> each = new LinkedHashMap<>();
    parts.forEach((s, h) -> each.put(s, h.record()));
    return RunsOverShards.run(id, each);
  }

  @Override
  public RunRecord await() throws InterruptedException {
    try {
      return completion.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public CompletableFuture<RunRecord> completion() {
    return completion;
  }

  @Override
  public void pause() {
    parts.values().forEach(RunHandle::pause);
  }

  @Override
  public void resume() {
    parts.values().forEach(RunHandle::resume);
  }

  @Override
  public void cancel() {
    parts.values().forEach(RunHandle::cancel);
  }

  @Override
  public boolean paused() {
    return parts.values().stream().allMatch(RunHandle::paused);
  }

  /** Each shard's part runs {@code concurrency} batches at once, within its share of the cluster's total. */
  @Override
  public void setConcurrency(int concurrency) {
    parts.values().forEach(h -> h.setConcurrency(shared(h.settings().withConcurrency(concurrency)).concurrency()));
  }

  /** Each shard's part writes at most {@code limit} rows per second, within its share of the cluster's total. */
  @Override
  public void setRowsPerSecond(long limit) {
    parts.values().forEach(h -> h.setRowsPerSecond(shared(h.settings().withRowsPerSecond(limit)).rowsPerSecond()));
  }

  private BackfillSettings shared(BackfillSettings own) {
    return share.apply(own);
  }

  @Override
  public void setRestPercent(int percent) {
    parts.values().forEach(h -> h.setRestPercent(percent));
  }

  /** Each shard's throttle is its own share of the cluster's; the first shard's stands for all. */
  @Override
  public BackfillSettings settings() {
    return parts.values().iterator().next().settings();
  }
}
