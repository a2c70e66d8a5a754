package dev.cutover.engine.api;

import java.time.Instant;

/**
 * One backfill run as recorded in the {@code cutover} database: its parameters, who started it,
 * where, with which spec and tool version, and its state. {@code heartbeat} is refreshed while the
 * run's process is alive.
 *
 * @param repairId the repair the run belongs to: its boundary is the repair's pinned one
 * @param process what the engine found of the run's process when it read this record ({@link Process}). The
 *     engine decides this where it reads runs, so that the record stays a plain value.
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
    Process process) {

  /** What the engine that read a run's record found of the process that runs it. */
  public enum Process {
    /**
     * On the reading host, and there: the reading process runs the run, or the process that started it still
     * exists. Such a run is not interrupted however late its heartbeat (a loaded machine delays a beat); taking
     * it for dead would let a resume write its hours while it still writes them.
     */
    ALIVE,
    /**
     * On the reading host, and gone: the run ended in the reading process, or its process id no longer exists or
     * now names a process started after the run.
     */
    GONE,
    /** On another host, or not to be told apart from another process: its heartbeat alone says. */
    UNSEEN
  }

  /**
   * How old a heartbeat may be before its run counts as interrupted: several missed beats, so that a
   * busy server delays a beat without a live run being taken for dead.
   */
  public static final java.time.Duration STALE_AFTER = java.time.Duration.ofSeconds(45);


  /** A record as a run writes it, or as no engine has judged yet: its heartbeat alone says whether it is alive. */
  public RunRecord(String id, String repairId, String specName, String specHash, String target, HourRange range,
      HourPartition boundary, String parameters, String osUser, String host, long pid, String toolVersion,
      Instant created, Instant heartbeat, RunState state, String message) {
    this(id, repairId, specName, specHash, target, range, boundary, parameters, osUser, host, pid, toolVersion,
        created, heartbeat, state, message, Process.UNSEEN);
  }

  /**
   * Whether the run's process is gone while the run was active: the engine found it gone when it read the record,
   * or, for a process it cannot see ({@link Process#UNSEEN}), the heartbeat is stale.
   */
  public boolean interrupted(Instant now, java.time.Duration staleAfter) {
    return state.active() && (process == Process.GONE
        || process == Process.UNSEEN && heartbeat.plus(staleAfter).isBefore(now));
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
        toolVersion, created, now, state, message, process);
  }

  public RunRecord with(RunState newState, String newMessage, Instant now) {
    return new RunRecord(id, repairId, specName, specHash, target, range, boundary, parameters, osUser, host, pid,
        toolVersion, created, now, newState, newMessage, process);
  }
}
