package dev.cutover.engine.cluster;

import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.TableSpec;
import java.util.List;

/** The checks a sharded repair adds to every shard's preflight: one node's sharding, and the shards together. */
public final class ClusterChecks {

  private ClusterChecks() {}

  /** On one shard: whether its own sources still hold the hours of the range its v1 holds (see {@link OwnHistory}). */
  public static Check ownHistory(Shards.Shard shard, TableSpec spec, dev.cutover.engine.api.HourRange range) {
    return OwnHistory.check(shard, spec, range);
  }

  /** On one node: whether a shard's hours are complete from its own sources (see {@link ShardingCheck}). */
  public static Check sharding(Shards.Shard shard, TableSpec spec) {
    return new ShardingCheck(shard.database().sql(), spec).check();
  }

  /**
   * Across shards: the copied sources, the server version and the tables' columns are the same
   * everywhere; and whether the cluster could run distributed DDL, which Cutover does not use.
   */
  public static List<Check> acrossShards(Shards shards, TableSpec spec, HourRange range) {
    List<Check> out = new java.util.ArrayList<>(new CopiedSources(shards, spec).check(range));
    out.add(new SameEverywhere(shards, spec).check());
    out.add(DistributedDdl.check(shards.all().getFirst().database().sql(), spec.cluster().orElseThrow().name()));
    return out;
  }
}
