package dev.cutover.engine.api;

import java.time.Duration;
import java.time.Instant;

/**
 * What a cutover or rollback did: the statement, which version consumers read before and after,
 * and the check that the view now returns that version's rows, hour by hour, over the window the
 * gate judged.
 *
 * @param verifiedWindow the hours compared after the swap
 * @param verified whether the view returned exactly the expected version's rows in every one of them
 */
public record SwapResult(String action, String statement, Gate.Version before, Gate.Version after, Instant at,
    Duration took, HourRange verifiedWindow, boolean verified, String verification) {}
