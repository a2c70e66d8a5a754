package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.ClusterAbandon;
import dev.cutover.engine.cluster.OverShards;
import dev.cutover.engine.cluster.ShareOfTotal;
import dev.cutover.engine.cluster.Shards;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The planning of a sharded repair over every shard, as one: the live writer where its slowest shard stands, one
 * plan of one range and one B on every shard (shown as one), every shard's preflight read as one, and giving the
 * repair up everywhere. {@link ClusterRepair#plans()}.
 */
final class ClusterPlans implements PlanSteps {

  private final Shards shards;
  private final TableSpec spec;
  private final ClusterBackfills backfills;

  ClusterPlans(Shards shards, TableSpec spec, ClusterBackfills backfills) {
    this.shards = shards;
    this.spec = spec;
    this.backfills = backfills;
  }

  @Override
  public String where() {
    return "every shard of cluster " + spec.cluster().orElseThrow().name() + " (" + shards.all().size() + " shards)";
  }

  @Override
  public Optional<HourPartition> reprocessingStart() {
    // The oldest hour every shard's sources still hold: the latest of the shards' starts.
    Collection<Optional<HourPartition>> each = shards.each("reprocessing window",
        s -> s.engine().plans().reprocessingStart(spec)).values();
    return each.stream().anyMatch(Optional::isEmpty) ? Optional.empty()
        : each.stream().map(Optional::orElseThrow).max(Comparator.naturalOrder());
  }

  @Override
  public LiveStatus live() {
    return asOne(shards.each("live edge", s -> s.engine().plans().live(spec)).values());
  }

  /** The shards' live writers as one: where the slowest shard stands, with the largest lag. */
  static LiveStatus asOne(Collection<LiveStatus> each) {
    return new LiveStatus(earliest(each.stream().map(LiveStatus::liveEdge).toList()),
        earliest(each.stream().map(LiveStatus::targetEdge).toList()),
        each.stream().map(LiveStatus::newestEvent).anyMatch(Optional::isEmpty) ? Optional.empty()
            : each.stream().map(l -> l.newestEvent().orElseThrow()).min(Comparator.naturalOrder()),
        each.stream().map(LiveStatus::lag).max(Comparator.naturalOrder()).orElse(Duration.ZERO));
  }

  /** The earliest of the shards' hours, empty when a shard has none: where the slowest shard stands. */
  private static Optional<HourPartition> earliest(List<Optional<HourPartition>> each) {
    return each.stream().anyMatch(Optional::isEmpty) ? Optional.empty()
        : each.stream().map(Optional::orElseThrow).min(Comparator.naturalOrder());
  }

  @Override
  public Optional<Repair> openRepair() {
    return shards.each("repair", s -> s.engine().repairs().current(spec).filter(r -> !r.phase().ended())).values()
        .stream().flatMap(Optional::stream).findFirst();
  }

  @Override
  public Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary) {
    return whole(backfills.plan(from, to, boundary, Optional.empty(), UnaryOperator.identity()));
  }

  @Override
  public Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      Optional<dev.cutover.engine.api.HourRange> affected,
      UnaryOperator<dev.cutover.engine.api.BackfillSettings> overrides) {
    return whole(backfills.plan(from, to, boundary, affected, overrides));
  }

  /** Every shard's plan as one: the first shard's hours and statements, the sources summed, the longest duration. */
  static Plan whole(ClusterPlan cluster) {
    Collection<Plan> each = cluster.plans().values();
    Plan first = each.iterator().next();
    Plan.Estimates estimates = new Plan.Estimates(each.stream().mapToLong(p -> p.estimates().sourceRows()).sum(),
        each.stream().mapToLong(p -> p.estimates().sourceBytes()).sum(),
        each.stream().map(p -> p.estimates().sampleHour()).max(Comparator.naturalOrder()).orElseThrow(),
        each.stream().map(p -> p.estimates().duration()).max(Comparator.naturalOrder()).orElseThrow());
    HourPartition edge = each.stream().map(Plan::liveEdge).min(Comparator.naturalOrder()).orElseThrow();
    return new Plan(first.spec(), cluster.range(), cluster.boundary(), edge, first.hours(),
        edge.isBefore(cluster.boundary()) ? Optional.empty()
            : Optional.of(new dev.cutover.engine.api.HourRange(cluster.boundary(), edge.plusHours(1))),
        estimates, first.statements(), first.settings(), each.stream().allMatch(Plan::pinned), first.resumes(),
        first.affected());
  }

  @Override
  public Preflighted preflight(Plan plan, List<AcknowledgedDependent> acknowledged, Progress progress) {
    // Each shard's preflight makes its plan again from the range, B, affected window and throttle shown, as one
    // server's does, and clears only that: what it is handed here is that request alone. Planning every shard here
    // first would ask each of them every question of a plan once more (the sources' spans and edges, both versions'
    // columns and newest hours). The throttle shown is the first shard's share of the cluster's totals; applying the
    // share again keeps it. Of the estimates a preflight reads only the duration: the slowest shard's, shown.
    BackfillSettings share = ShareOfTotal.of(plan.settings(), spec.cluster().orElseThrow().total(),
        shards.all().size());
    Plan request = new Plan(plan.spec(), plan.range(), plan.boundary(), plan.liveEdge(), plan.hours(), plan.overlap(),
        plan.estimates(), plan.statements(), share, plan.pinned(), plan.resumes(), plan.affected());
    Map<dev.cutover.engine.api.ShardRef, Plan> each = new java.util.LinkedHashMap<>();
    shards.all().forEach(s -> each.put(s.ref(), request));
    return backfills.preflight(new ClusterPlan(plan.range(), plan.boundary(), each), acknowledged, progress);
  }

  @Override
  public Diff sample(List<HourPartition> hours, int keyLimit) {
    return OverShards.diff(ClusterRepair.byRef(shards.each("sample", s -> s.engine().plans().sample(spec, hours,
        keyLimit))));
  }

  @Override
  public dev.cutover.engine.api.NodeAnswers<Optional<Repair>> abandon(String confirmation, String reason) {
    Map<dev.cutover.engine.api.ShardRef, Optional<Repair>> done = ClusterRepair.byRef(new ClusterAbandon(shards, spec)
        .abandon(confirmation, reason));
    Optional<Repair> first = done.values().stream().flatMap(Optional::stream).findFirst();
    if (first.isEmpty()) { // nothing was written: no shard had one open
      throw new dev.cutover.engine.api.PhaseRefusedException("abandon", Optional.empty(), "a repair under way",
          "There is no repair of " + spec.database() + "." + spec.targetTable() + " under way on any shard of "
          + "cluster " + spec.cluster().orElseThrow().name() + " to abandon.", "");
    }
    return new dev.cutover.engine.api.NodeAnswers<>(first, done);
  }
}
