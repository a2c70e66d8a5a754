package dev.cutover.app.demo;

import java.time.Instant;

/**
 * The corrected live writer is deployed from {@code boundary}: the live job writes {@code pnl_v2}
 * for every hour from it on, starting with the {@code hoursToCatchUp} hours that have already closed.
 *
 * @param boundary B, the first hour the live job writes to v2; it never writes an hour before it
 * @param newlyDeployed false when v2 was already deployed from the same boundary
 * @param watermark every hour before this one had closed at the time of deployment
 * @param hoursToCatchUp closed hours in {@code [boundary, watermark)} that the live job writes first
 */
public record V2Deployment(Instant boundary, boolean newlyDeployed, Instant watermark, long hoursToCatchUp) {}
