package dev.cutover.engine.api;

import java.time.Instant;
import java.util.Optional;

/**
 * The corrected live writer deployed as a materialized view: the view, the boundary B it writes
 * from, the exact statement that creates it, and whether it exists.
 *
 * @param newestEvent the newest event in the sources when this was read: B is the next whole hour
 *     after it plus the spec's safety margin
 * @param exists whether the view exists now (deployed by this step or before it)
 * @param repairId the repair that records the view, once one does
 * @param warning what the operator must know before the view runs: a transform that removes duplicates
 *     does so within one insert block only
 */
public record LiveDeployment(Identifier view, HourPartition boundary, String statement, Instant newestEvent,
    boolean exists, Optional<String> repairId, Optional<String> warning) {}
