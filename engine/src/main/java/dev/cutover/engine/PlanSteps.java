package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Repair;
import java.util.List;
import java.util.Optional;

/**
 * The planning of one repair, whether its table lies on one server or is sharded over a cluster: where the
 * sources begin and the live writer stands, the repair under way, the plan of a range and a boundary B, the
 * preflight that clears it, and giving the repair up. On a cluster every step runs on every shard and answers as
 * one: the live writer stands where its slowest shard does, B is one for every shard, and the preflight passes
 * only when every shard's does, each failed check naming its shards. {@link Plans#of} gives one server's;
 * {@link ClusterRepair#plans()} a cluster's. Nothing here writes data but {@link #abandon}.
 */
public interface PlanSteps {

  /** Where the steps run, for sentences: {@code the server}, {@code every shard of cluster c (3 shards)}. */
  String where();

  /** The oldest hour every source still holds (on every shard); empty when the sources hold no rows. */
  Optional<HourPartition> reprocessingStart();

  /**
   * Where the live writer stands now, read from the tables; on a cluster, its slowest shard's edge and newest
   * event, so that a B safe from it is safe on every shard.
   */
  LiveStatus live();

  /** The repair of the target under way, ended ones left out; on a cluster, the first shard's that has one. */
  Optional<Repair> openRepair();

  /**
   * Plans the backfill of {@code from}–{@code to} before {@code boundary}, with the spec's throttle (on a cluster,
   * each shard's share of the cluster's totals); a boundary the repair pinned is kept, and another refused with a
   * sentence. On a cluster the plan shown is every shard's as one: the same hours and B, the sources' rows summed
   * and the longest shard's duration. Reads only.
   */
  Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary);

  /**
   * As {@link #plan(Optional, Optional, Optional)}, recomputing only the {@code affected} hours when given (a
   * bounded repair; empty takes the spec's), with the spec's throttle changed by {@code overrides} (on a cluster,
   * then held within each shard's share of the cluster's totals). Reads only.
   */
  Plan plan(Optional<HourPartition> from, Optional<HourPartition> to, Optional<HourPartition> boundary,
      Optional<dev.cutover.engine.api.HourRange> affected,
      java.util.function.UnaryOperator<dev.cutover.engine.api.BackfillSettings> overrides);

  /**
   * Every preflight check of {@code plan} as it stands now, made again from its range and B (on every shard), with
   * the dependents the operator acknowledged; what a passing preflight clears is the only way to a backfill.
   */
  Preflighted preflight(Plan plan, List<AcknowledgedDependent> acknowledged, Progress progress);

  /**
   * The difference the fix makes in a few {@code hours}, computed in memory and compared with v1 (on every shard,
   * each key naming its shard): a look at what the backfill will change. Writes nothing.
   */
  Diff sample(List<HourPartition> hours, int keyLimit);

  /**
   * Gives the repair up (on every shard that has one open) once {@code confirmation} names the target, with the
   * operator's reason; the next backfill starts a new repair with a new B. Answers the repair abandoned (on a
   * cluster, the first shard's as the whole, and each shard's, empty where none was open); refused, nothing
   * written, when no repair is under way (on any shard).
   */
  dev.cutover.engine.api.NodeAnswers<Optional<Repair>> abandon(String confirmation, String reason);
}
