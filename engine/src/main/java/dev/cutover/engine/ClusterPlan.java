package dev.cutover.engine;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.ShardRef;
import java.util.Map;

/** Every shard's plan of one backfill, over one range and one boundary: the parts {@link ClusterPlans} shows as one. */
record ClusterPlan(HourRange range, HourPartition boundary, Map<ShardRef, Plan> plans) {

  /** The hours every shard recomputes from its own sources: a bounded repair's affected window, else the range. */
  HourRange recomputedRange() {
    return plans.values().stream().findFirst().map(Plan::recomputedRange).orElse(range);
  }
}
