package dev.cutover.engine.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long v1 must be kept after the cutover: the longest cache lifetime of a downstream consumer,
 * plus the reconciliation window, plus a safety margin.
 *
 * @param cutoverAt when consumers switched to v2, if they have
 * @param keepUntil the earliest time v1 may be dropped, if the cutover happened
 * @param droppedAt when v1 was dropped, if it was: from then on there is no rollback
 */
public record Retention(Optional<Instant> cutoverAt, Duration longestCache, String longestCacheConsumer,
    Duration reconciliationWindow, Duration margin, Optional<Instant> keepUntil, Optional<Instant> droppedAt) {

  public Duration total() {
    return longestCache.plus(reconciliationWindow).plus(margin);
  }
}
