package dev.cutover.engine.cluster;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards.Shard;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A view-fed table's corrected view on every shard of a cluster, from one future B: the latest that every
 * shard's newest event and safety margin allow, or the one the shards' repairs pinned. All or nothing: B is
 * checked on every shard before any is written, and when a shard fails the deployments this step made are
 * abandoned and their views dropped, so that no shard writes v2 from a B the others do not share.
 */
public final class ClusterDeployment {

  private final Shards shards;
  private final TableSpec spec;

  public ClusterDeployment(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /** What {@link #deploy} would do now, or did: every shard's deployment from one B. Reads only. */
  public Map<Shard, LiveDeployment> plan() {
    requireLiveView();
    Map<Shard, LiveDeployment> own = shards.each("deployment", s -> s.engine().repairs().liveDeployment(spec));
    HourPartition b = oneBoundary(own);
    return shards.each("deployment", s -> own.get(s).boundary().equals(b) ? own.get(s)
        : s.engine().repairs().liveDeployment(spec, b));
  }

  /**
   * Deploys the view on every shard from one B, refused unless B is still {@code confirmed} when given:
   * the B the operator read in the confirmation (the newest event may have moved it since).
   */
  public Map<Shard, LiveDeployment> deploy(Optional<HourPartition> confirmed) {
    requireLiveView();
    Map<Shard, LiveDeployment> own = shards.each("deployment", s -> s.engine().repairs().liveDeployment(spec));
    HourPartition b = oneBoundary(own);
    if (confirmed.isPresent() && !confirmed.get().equals(b)) {
      throw new StepRefusedException("deploy-live", "B is now " + b + ", not " + confirmed.get() + " as confirmed: "
          + "events arrived meanwhile. Nothing was deployed; confirm the new B.", List.of("boundary"), Optional.empty());
    }
    // Every shard without its view must take B before any shard is written: a B too early for a shard, or one its
    // sources already reached, refuses the step here, with nothing changed.
    Map<Shard, LiveDeployment> at = shards.each("deployment", s -> own.get(s).exists() ? own.get(s)
        : s.engine().repairs().liveDeployment(spec, b));
    List<String> reached = new ArrayList<>();
    at.forEach((s, d) -> {
      if (!d.exists() && !d.newestEvent().isBefore(b.start())) {
        reached.add(s.name() + " (newest event " + d.newestEvent() + ")");
      }
    });
    if (!reached.isEmpty()) {
      throw new StepRefusedException("deploy-live", "The sources already hold events at or after B = " + b + " on "
          + String.join(", ", reached) + ": a view created now would miss them. Nothing was deployed. "
          + (own.values().stream().anyMatch(d -> d.repairId().isPresent()) ? "B is pinned by the shards' repairs; abandon "
          + "the repair on every shard and deploy again." : "Deploy again: B is chosen "
          + "after the newest event."), reached, Optional.empty());
    }
    Map<Shard, LiveDeployment> done = new LinkedHashMap<>();
    List<Shard> deployedHere = new ArrayList<>();
    for (Shard s : shards.all()) {
      if (own.get(s).exists()) {
        done.put(s, own.get(s));
        continue;
      }
      try {
        LiveDeployment d = s.engine().repairs().deployLive(spec, b);
        deployedHere.add(s);
        if (!d.boundary().equals(b)) {
          throw new StepRefusedException("deploy-live", s.name() + " deployed from B = " + d.boundary() + ", not " + b);
        }
        done.put(s, d);
      } catch (RuntimeException e) {
        // The failing shard may have recorded its repair before its view failed: undone too, when this step made it.
        if (!deployedHere.contains(s) && own.get(s).repairId().isEmpty()
            && s.engine().repairs().current(spec).filter(r -> !r.phase().ended()).isPresent()) {
          deployedHere.add(s);
        }
        List<String> undone = new ArrayList<>();
        for (Shard d : deployedHere) {
          try {
            d.engine().repairs().abandon(spec, spec.targetTable().name(), "the corrected view could not be deployed "
                + "on " + s.name() + " from the same B = " + b);
            undone.add(d.name());
          } catch (RuntimeException again) {
            undone.add(d.name() + " NOT abandoned (" + again.getMessage() + ")");
          }
        }
        throw new StepRefusedException("deploy-live", "The corrected view could not be deployed on " + s.name() + ": "
            + e.getMessage() + (undone.isEmpty() ? " No shard was changed by this step." : " The deployments this "
            + "step made on " + String.join(", ", undone) + " were abandoned and their views dropped; deploy again "
            + "on every shard."), List.of(s.name()), Optional.empty());
      }
    }
    return done;
  }

  private void requireLiveView() {
    if (!spec.correctedWriter().byViews()) {
      throw new InvalidInputException("spec.tables.live_view", "The spec " + spec.name() + " names no corrected view "
          + "to deploy; add 'live_view: NAME' under tables (the materialized view Cutover creates TO "
          + spec.targetTable() + " on every shard), or point your own live writer at " + spec.targetTable()
          + " on every shard instead.");
    }
  }

  /** The B every shard deploys from: the one their deployments pinned, or the latest any shard allows. */
  private static HourPartition oneBoundary(Map<Shard, LiveDeployment> own) {
    Map<Shard, HourPartition> pinned = new LinkedHashMap<>();
    own.forEach((s, d) -> d.repairId().ifPresent(id -> pinned.put(s, d.boundary())));
    return PinnedBoundary.agreed("deploy-live", pinned, "deploy again").orElseGet(() -> own.values().stream()
        .map(LiveDeployment::boundary).max(Comparator.naturalOrder()).orElseThrow());
  }
}
