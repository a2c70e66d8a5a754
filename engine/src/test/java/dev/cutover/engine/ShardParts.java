package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.ClusterAbandon;
import dev.cutover.engine.cluster.ClusterDeclaration;
import dev.cutover.engine.cluster.ClusterDeployment;
import dev.cutover.engine.cluster.Shards;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Each shard's part of a sharded repair's steps, apart: what a test of the cluster's rules checks shard by shard
 * (each shard's plan, run, verdict, gate and switch) beneath the answers {@link TargetRepair} of a sharded table gives as one.
 * The product reaches a sharded repair only through its {@link TargetRepair} steps.
 */
public final class ShardParts {

  /** Told after each node has switched, before the next one does. */
  @FunctionalInterface
  public interface SwapListener {
    void switched(ShardRef shard, SwapResult result);

    SwapListener NONE = (s, r) -> {};
  }

  /** Every shard's plan, over one range and one boundary. */
  public record ClusterPlan(HourRange range, HourPartition boundary, Map<ShardRef, Plan> plans) {
    public HourRange recomputedRange() {
      return parts().recomputedRange();
    }

    dev.cutover.engine.ClusterPlan parts() {
      return new dev.cutover.engine.ClusterPlan(range, boundary, plans);
    }
  }

  /** The runs of one backfill, one per shard. */
  public record ClusterRun(Map<ShardRef, RunHandle> runs) {
    /** Waits for every shard's run to end; each shard's final record. */
    public Map<ShardRef, RunRecord> await() throws InterruptedException {
      Map<ShardRef, RunRecord> out = new LinkedHashMap<>();
      for (var e : runs.entrySet()) {
        out.put(e.getKey(), e.getValue().await());
      }
      return out;
    }

    /** The shards whose run did not succeed, each with its run's last sentence. */
    public static List<String> failed(Map<ShardRef, RunRecord> ended) {
      return ended.entrySet().stream().filter(e -> e.getValue().state() != RunState.SUCCEEDED)
          .map(e -> e.getKey() + ": run " + e.getValue().id() + " " + e.getValue().state() + ": "
              + e.getValue().message()).toList();
    }
  }

  /** Every shard's reconciliation; green only when every shard's is. */
  public record ClusterVerdict(Map<ShardRef, Reconciliation> shards) {
    public boolean green() {
      return shards.values().stream().allMatch(r -> r.verdict().allowsCutover());
    }

    public String sentence() {
      return shards.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().verdict()).toList().toString();
    }
  }

  private final Shards shards;
  private final TableSpec spec;
  private final ClusterBackfills backfills;

  private ShardParts(ClusterRepair repair) {
    this.shards = repair.shards();
    this.spec = repair.spec();
    this.backfills = new ClusterBackfills(shards, spec);
  }

  /** Each shard's part of {@code repair}, a sharded table's (from {@link #open} or {@link Engine#repair}). */
  public static ShardParts of(TargetRepair repair) {
    return new ShardParts((ClusterRepair) repair);
  }

  /** The repair of {@code spec}'s sharded table over engines already open on every shard. */
  public static TargetRepair open(Shards shards, TableSpec spec) {
    return new ClusterRepair(shards, spec);
  }

  public ClusterPlan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      UnaryOperator<BackfillSettings> overrides) {
    return plan(from, to, boundary, Optional.empty(), overrides);
  }

  public ClusterPlan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      Optional<HourRange> affected, UnaryOperator<BackfillSettings> overrides) {
    dev.cutover.engine.ClusterPlan p = backfills.plan(from, to, boundary, affected, overrides);
    return new ClusterPlan(p.range(), p.boundary(), p.plans());
  }

  public Preflighted preflight(ClusterPlan plan, List<AcknowledgedDependent> acknowledged) {
    return backfills.preflight(plan.parts(), acknowledged, Progress.NONE);
  }

  public ClusterRun backfill(Preflighted preflight, Function<ShardRef, BackfillEvent.Listener> listeners) {
    return new ClusterRun(backfills.backfill(preflight, listeners).runs());
  }

  public ClusterRun resume(UnaryOperator<BackfillSettings> overrides, List<AcknowledgedDependent> acknowledged,
      Function<ShardRef, BackfillEvent.Listener> listeners) {
    return new ClusterRun(backfills.resume(overrides, acknowledged, listeners).runs());
  }

  public Map<ShardRef, LiveDeployment> liveDeployment() {
    return ClusterRepair.byRef(new ClusterDeployment(shards, spec).plan());
  }

  public Map<ShardRef, LiveDeployment> deployLive() {
    return ClusterRepair.byRef(new ClusterDeployment(shards, spec).deploy(Optional.empty()));
  }

  public Map<ShardRef, Optional<Repair>> abandon(String confirmation, String reason) {
    return ClusterRepair.byRef(new ClusterAbandon(shards, spec).abandon(confirmation, reason));
  }

  public Map<ShardRef, LiveWriterNote> declareLiveWriter(String writer) {
    Map<ShardRef, LiveWriterNote> notes = new LinkedHashMap<>();
    ClusterRepair.byRef(new ClusterDeclaration(shards, spec).declare(writer)).forEach((s, d) -> notes.put(s,
        d.note()));
    return notes;
  }

  public ClusterVerdict reconcile(Reconciliation.Scope scope, int keyLimit) {
    return new ClusterVerdict(new ClusterReconcile(shards, spec).each(scope, Optional.empty(), keyLimit,
        Progress.NONE));
  }

  public Map<ShardRef, Reconciliation.Fingerprint> acknowledge(HourPartition hour, List<String> key, String reason) {
    return new ClusterReconcile(shards, spec).acknowledgeEach(hour, key, reason, Optional.empty());
  }

  public Map<ShardRef, Gate> gates() {
    return ClusterRepair.byRef(shards.each("cutover gate", s -> s.engine().cutovers().gate(spec)));
  }

  public Map<ShardRef, Gate> rollbackGates() {
    return ClusterRepair.byRef(shards.each("rollback gate", s -> s.engine().cutovers().rollbackGate(spec)));
  }

  public Map<ShardRef, SwapResult> cutover(String confirmation, SwapListener listener) {
    return new ClusterCutover(shards, spec).each(true, confirmation, Optional.empty(), listener::switched);
  }

  public Map<ShardRef, SwapResult> rollback(String confirmation, Optional<String> reason, SwapListener listener) {
    return new ClusterCutover(shards, spec).each(false, confirmation, reason, listener::switched);
  }
}
