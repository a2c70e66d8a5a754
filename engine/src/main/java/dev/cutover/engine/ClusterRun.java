package dev.cutover.engine;

import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.ShardRef;
import java.util.Map;

/** The parts of one backfill, one run per shard: what {@link ClusterRuns} follows as one run. */
record ClusterRun(Map<ShardRef, RunHandle> runs) {}
