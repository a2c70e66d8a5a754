package dev.cutover.engine.api;

import java.time.Duration;
import java.time.Instant;

/**
 * What a cutover or rollback did: the statement, which version consumers read before and after,
 * and the check that the view now returns that version's data for a recent hour.
 */
public record SwapResult(String action, String statement, Gate.Version before, Gate.Version after, Instant at,
    Duration took, HourPartition verifiedHour, String verification) {}
