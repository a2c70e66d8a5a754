package dev.cutover.app.demo;

import java.time.Duration;

/**
 * What a seed did: built the world ({@code created}), or found it already seeded and left it alone.
 *
 * @param created whether this call built the world
 * @param state the world's state afterwards
 * @param trades trades in the world
 * @param v1Rows rows in {@code pnl_v1}
 * @param v1Hours hours of {@code pnl_v1} with rows (hours without trades have none)
 * @param elapsed how long the call took
 */
public record SeedResult(boolean created, DemoState state, long trades, long v1Rows, long v1Hours, Duration elapsed) {}
