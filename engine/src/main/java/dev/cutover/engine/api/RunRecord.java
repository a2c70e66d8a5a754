package dev.cutover.engine.api;

import java.time.Instant;

/**
 * One backfill run as recorded in the {@code cutover} database: its parameters, who started it,
 * where, with which spec and tool version, and its state. {@code heartbeat} is refreshed while the
 * run's process is alive.
 *
 * @param repairId the repair the run belongs to: its boundary is the repair's pinned one
 */
public record RunRecord(
    String id,
    String repairId,
    String specName,
    String specHash,
    String target,
    HourRange range,
    HourPartition boundary,
    String parameters,
    String osUser,
    String host,
    long pid,
    String toolVersion,
    Instant created,
    Instant heartbeat,
    RunState state,
    String message) {

  /**
   * Whether the run's process is gone while the run was active: its heartbeat is stale, or it ran
   * on this host and that process no longer exists, or it ran in this process and has ended here.
   */
  public boolean interrupted(Instant now, java.time.Duration staleAfter) {
    if (!state.active()) {
      return false;
    }
    if (heartbeat.plus(staleAfter).isBefore(now)) {
      return true;
    }
    boolean here = host.equals(dev.cutover.engine.ledger.Operator.host());
    if (here && pid == ProcessHandle.current().pid()) {
      // This process: the run has ended if it no longer executes here (its last state may not have been written).
      return !dev.cutover.engine.ledger.LiveRuns.running(id);
    }
    return here && pid > 0 && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
  }

  /**
   * The state to show: a run whose process is gone while it was running or paused is
   * "interrupted", never "running"; it resumes from its ledger.
   */
  public String shownState(Instant now) {
    return interrupted(now, dev.cutover.engine.ledger.StateStore.STALE_AFTER) ? "interrupted"
        : state.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The record with the throttle it runs with now, as {@code parameters}. */
  public RunRecord withParameters(String newParameters, Instant now) {
    return new RunRecord(id, repairId, specName, specHash, target, range, boundary, newParameters, osUser, host, pid,
        toolVersion, created, now, state, message);
  }

  public RunRecord with(RunState newState, String newMessage, Instant now) {
    return new RunRecord(id, repairId, specName, specHash, target, range, boundary, parameters, osUser, host, pid,
        toolVersion, created, now, newState, newMessage);
  }
}
