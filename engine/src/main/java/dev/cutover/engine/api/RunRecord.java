package dev.cutover.engine.api;

import java.time.Instant;

/**
 * One backfill run as recorded in the {@code cutover} database: its parameters, who started it,
 * where, with which spec and tool version, and its state. {@code heartbeat} is refreshed while the
 * run's process is alive.
 *
 * @param repairId the repair the run belongs to: its boundary is the repair's pinned one
 * @param processGone the engine found the run's process gone when it read this record: the run
 *     executed in the reading process and has ended there, or it ran on the reading host under a
 *     process id that no longer exists. The engine decides this where it reads runs, so that the
 *     record stays a plain value.
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
    String message,
    boolean processGone) {

  /**
   * How old a heartbeat may be before its run counts as interrupted: several missed beats, so that a
   * busy server delays a beat without a live run being taken for dead.
   */
  public static final java.time.Duration STALE_AFTER = java.time.Duration.ofSeconds(45);


  /** A record as a run writes it: its own process is the one that writes, so it is not gone. */
  public RunRecord(String id, String repairId, String specName, String specHash, String target, HourRange range,
      HourPartition boundary, String parameters, String osUser, String host, long pid, String toolVersion,
      Instant created, Instant heartbeat, RunState state, String message) {
    this(id, repairId, specName, specHash, target, range, boundary, parameters, osUser, host, pid, toolVersion,
        created, heartbeat, state, message, false);
  }

  /**
   * Whether the run's process is gone while the run was active: its heartbeat is stale, or the
   * engine found its process gone when it read the record ({@link #processGone()}).
   */
  public boolean interrupted(Instant now, java.time.Duration staleAfter) {
    return state.active() && (processGone || heartbeat.plus(staleAfter).isBefore(now));
  }

  /**
   * The state to show: a run whose process is gone while it was running or paused is
   * "interrupted", never "running"; it resumes from its ledger.
   */
  public String shownState(Instant now) {
    return interrupted(now, STALE_AFTER) ? "interrupted"
        : state.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The record with the throttle it runs with now, as {@code parameters}. */
  public RunRecord withParameters(String newParameters, Instant now) {
    return new RunRecord(id, repairId, specName, specHash, target, range, boundary, newParameters, osUser, host, pid,
        toolVersion, created, now, state, message, processGone);
  }

  public RunRecord with(RunState newState, String newMessage, Instant now) {
    return new RunRecord(id, repairId, specName, specHash, target, range, boundary, parameters, osUser, host, pid,
        toolVersion, created, now, newState, newMessage, processGone);
  }
}
