package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.cluster.ClusterChecks;
import dev.cutover.engine.cluster.PinnedBoundary;
import dev.cutover.engine.cluster.RunsOverShards;
import dev.cutover.engine.cluster.ShareOfTotal;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The backfill of a sharded repair, across its shards: one range and one boundary B planned for every
 * shard, every shard's preflight with the cluster's own checks, and every shard's run started at once or
 * none, fresh or resumed. {@link ClusterRepair}'s backfill steps.
 */
final class ClusterBackfills {

  private final Shards shards;
  private final TableSpec spec;

  ClusterBackfills(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /**
   * Plans every shard over one range and one boundary: {@code boundary} when given, or the one the
   * shards' repairs pinned (they must agree), or else the earliest every shard's live edge allows; the
   * range starts at the earliest any shard's would. With {@code affected} (or the spec's), only those
   * hours are recomputed and each shard carries the others from its own v1. Each shard's throttle is
   * {@code overrides} of its defaults within its share of the cluster's totals. Reads only.
   */
  ClusterPlan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      Optional<HourRange> affected, UnaryOperator<BackfillSettings> overrides) {
    TableSpec.Total total = spec.cluster().orElseThrow().total();
    int n = shards.all().size();
    ShareOfTotal.check(total, n);
    UnaryOperator<BackfillSettings> settings = s -> ShareOfTotal.of(overrides.apply(s), total, n);
    Map<Shard, Plan> own = shards.each("plan", s -> s.engine().plans().plan(spec, from, to, boundary, affected,
        settings.apply(s.engine().plans().defaults(spec))));
    Map<Shard, HourPartition> pinned = new LinkedHashMap<>();
    own.forEach((s, p) -> {
      if (p.pinned()) {
        pinned.put(s, p.boundary());
      }
    });
    HourPartition b = PinnedBoundary.agreed("plan", pinned, "plan it again").orElseGet(() -> own.values().stream()
        .map(Plan::boundary).min(Comparator.naturalOrder()).orElseThrow());
    HourPartition start = from.orElseGet(() -> own.values().stream().map(p -> p.range().from())
        .min(Comparator.naturalOrder()).orElseThrow());
    // A shard whose own plan already starts there and stops at B keeps it; the others plan again under both.
    Map<Shard, Plan> plans = shards.each("plan", s -> {
      Plan mine = own.get(s);
      return mine.boundary().equals(b) && mine.range().from().equals(start) ? mine
          : s.engine().plans().plan(spec, Optional.of(start), to, Optional.of(b), affected,
              settings.apply(s.engine().plans().defaults(spec)));
    });
    HourRange range = plans.values().iterator().next().range();
    return new ClusterPlan(range, b, ClusterRepair.byRef(plans));
  }

  /**
   * Every shard's preflight, with the check that its hours are complete from its own sources; clears
   * every shard's plan only when every shard passed. {@code acknowledged} names the dependents of v1 the
   * operator acknowledged, on any shard, each with its reason.
   */
  Preflighted preflight(ClusterPlan plan, List<AcknowledgedDependent> acknowledged, Progress progress) {
    progress.update("preflight every shard", 0);
    Map<Shard, Preflighted> each = shards.each("preflight",
        s -> s.engine().plans().preflight(plan.plans().get(s.ref()), acknowledged));
    progress.update("check the shards' own sources", 0.6);
    Map<Shard, List<PreflightReport.Check>> sharding = shards.each("preflight", s -> List.of(
        ClusterChecks.sharding(s, spec), ClusterChecks.ownHistory(s, spec, plan.recomputedRange())));
    progress.update("check the shards together", 0.8);
    // The carried hours of a bounded repair come from each shard's own v1: only the recomputed ones read a source.
    List<PreflightReport.Check> acrossShards = ClusterChecks.acrossShards(shards, spec, plan.recomputedRange());
    Map<ShardRef, Preflighted> nodes = new LinkedHashMap<>();
    each.forEach((s, p) -> {
      List<PreflightReport.Check> checks = new ArrayList<>(p.report().checks());
      checks.addAll(sharding.get(s));
      checks.addAll(acrossShards);
      PreflightReport report = new PreflightReport(checks, p.report().dependents());
      // A shard is cleared only when its own checks, its sources' and the shards' together all pass.
      nodes.put(s.ref(), new Preflighted(report, report.passed() ? p.cleared() : Optional.empty()));
    });
    return Preflighted.overNodes(nodes);
  }

  /** Starts every shard's backfill at once; refuses, starting none, unless every shard's preflight passed. */
  ClusterRun backfill(Preflighted preflight, Function<ShardRef, BackfillEvent.Listener> listeners) {
    if (preflight.nodes().isEmpty() || !preflight.passed()) {
      long failed = preflight.nodes().values().stream().filter(p -> !p.passed()).count();
      throw new StepRefusedException("backfill", "The backfill is refused: the preflight "
          + (preflight.nodes().isEmpty() ? "was not run on the shards" : "failed on " + failed + " shard(s): "
          + String.join("; ", preflight.failures())) + ". No shard was written.", preflight.failures(), Optional.empty());
    }
    Map<ShardRef, ClearedPlan> cleared = new LinkedHashMap<>();
    preflight.nodes().forEach((s, p) -> cleared.put(s, p.cleared().orElseThrow()));
    return new ClusterRun(start(cleared, listeners));
  }

  /**
   * Resumes every shard whose latest run of this repair did not succeed, from its own ledger, with the
   * throttle it ran with unless {@code overrides} says otherwise (within its share of the cluster's
   * totals); a shard whose run succeeded is left
   * alone. Each shard's preflight takes the {@code acknowledged} dependents. Refuses, resuming none, when a
   * shard has no run to resume or its preflight fails.
   */
  ClusterRun resume(UnaryOperator<BackfillSettings> overrides, List<AcknowledgedDependent> acknowledged,
      Function<ShardRef, BackfillEvent.Listener> listeners) {
    Map<Shard, Optional<RunRecord>> latest = shards.each("resume", s -> s.engine().backfills().runs(spec).stream()
        .max(Comparator.comparing(RunRecord::created)));
    List<String> none = latest.entrySet().stream().filter(e -> e.getValue().isEmpty()).map(e -> e.getKey().name())
        .toList();
    if (!none.isEmpty()) {
      throw new StepRefusedException("resume", "There is nothing to resume on " + String.join(", ", none) + ": no "
          + "backfill of " + spec.targetTable() + " ran there. Start the backfill instead.", none, Optional.empty());
    }
    Map<Shard, RunRecord> parts = new LinkedHashMap<>();
    latest.forEach((s, r) -> parts.put(s, r.orElseThrow()));
    return resumeParts(parts, overrides, acknowledged, listeners);
  }

  /**
   * Resumes run {@code runId} on every shard whose part of it did not succeed, from that shard's own ledger, as
   * {@link #resume(UnaryOperator, List, Function)} does; refused, resuming none, when no shard has a part of it to
   * resume.
   */
  ClusterRun resume(String runId, UnaryOperator<BackfillSettings> overrides,
      List<AcknowledgedDependent> acknowledged, Function<ShardRef, BackfillEvent.Listener> listeners) {
    Map<Shard, Optional<RunRecord>> found = shards.each("resume", s -> ClusterRuns.part(s, runId));
    List<String> without = found.entrySet().stream().filter(e -> e.getValue().isEmpty()).map(e -> e.getKey().name())
        .toList();
    if (!without.isEmpty() && without.size() < found.size()) {
      throw new StepRefusedException("resume", "Run " + runId + " has no part on " + String.join(", ", without)
          + ": its start did not reach " + (without.size() == 1 ? "that shard" : "those shards") + ", so resuming it "
          + "would leave their hours unwritten. Start a new backfill instead; nothing was resumed.", without,
          Optional.empty());
    }
    Map<Shard, RunRecord> parts = new LinkedHashMap<>();
    found.forEach((s, r) -> r.filter(x -> x.state() != RunState.SUCCEEDED).ifPresent(x -> parts.put(s, x)));
    if (parts.isEmpty()) {
      throw new StepRefusedException("resume", "There is nothing to resume of run " + runId + ": "
          + (found.values().stream().allMatch(Optional::isEmpty) ? "no shard ran it" : "every shard's part of it "
          + "succeeded") + ".");
    }
    return resumeParts(parts, overrides, acknowledged, listeners);
  }

  private ClusterRun resumeParts(Map<Shard, RunRecord> parts, UnaryOperator<BackfillSettings> overrides,
      List<AcknowledgedDependent> acknowledged, Function<ShardRef, BackfillEvent.Listener> listeners) {
    ShareOfTotal.check(spec.cluster().orElseThrow().total(), shards.all().size());
    Map<ShardRef, ClearedPlan> cleared = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    Map<Shard, Optional<Preflighted>> checked = shards.each("resume", s -> {
      RunRecord run = parts.get(s);
      if (run == null || run.state() == RunState.SUCCEEDED) {
        return Optional.<Preflighted>empty();
      }
      Plan plan = s.engine().plans().planResume(spec, run.id(), t -> ShareOfTotal.of(overrides.apply(t),
          spec.cluster().orElseThrow().total(), shards.all().size()));
      return Optional.of(s.engine().plans().preflight(plan, acknowledged));
    });
    checked.forEach((s, p) -> p.ifPresent(f -> {
      f.cleared().ifPresent(c -> cleared.put(s.ref(), c));
      f.report().failures().forEach(c -> failures.add(s.name() + ": " + c.name() + ": " + c.finding()));
    }));
    if (!failures.isEmpty()) {
      throw new StepRefusedException("resume", "The resume is refused: the preflight failed: " + String.join("; ",
          failures) + ". No shard was written.", failures, Optional.empty());
    }
    return new ClusterRun(start(cleared, listeners));
  }

  /**
   * Starts the shards' parts at once, or none: one that fails cancels the rest. A fresh backfill's parts take one
   * run's id, each with its shard's number after it ({@link RunsOverShards#partId}).
   */
  private Map<ShardRef, RunHandle> start(Map<ShardRef, ClearedPlan> cleared,
      Function<ShardRef, BackfillEvent.Listener> listeners) {
    Map<ShardRef, RunHandle> runs = new LinkedHashMap<>();
    String id = Backfill.newRunId();
    try {
      for (Shard s : shards.all()) {
        ClearedPlan c = cleared.get(s.ref());
        if (c != null) {
          runs.put(s.ref(), s.engine().backfills().start(c, listeners.apply(s.ref()), RunsOverShards.partId(id,
              s.ref())));
        }
      }
    } catch (RuntimeException e) {
      runs.values().forEach(RunHandle::cancel);
      throw e;
    }
    return runs;
  }
}
