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

  /**
   * What the engine that read a run's record found of the process that runs it, from the most certain to the least;
   * each kind is taken for interrupted after its own silence ({@link #interrupted}).
   */
  public enum Process {
    /**
     * The reading process runs the run now: it is alive whatever its heartbeat says (a loaded machine delays a beat,
     * and taking the run for dead would let a resume write its hours while it still writes them).
     */
    HERE,
    /**
     * Another process of the reading host, the one that started the run (or resumed it), is there. It may have let
     * go of the run without a word (its server away when the run ended), so a heartbeat older than {@link
     * #STALE_ON_THIS_HOST} counts as interrupted; a younger one never does.
     */
    THERE,
    /** On another host: its heartbeat alone says, stale after {@link #STALE_AFTER}. */
    UNSEEN,
    /**
     * Gone: the run ended in the reading process, or its process id of this host no longer exists or now names a
     * process started after the run's last beat.
     */
    GONE
  }

  /**
   * How old a heartbeat may be before its run counts as interrupted: several missed beats, so that a
   * busy server delays a beat without a live run being taken for dead.
   */
  public static final java.time.Duration STALE_AFTER = java.time.Duration.ofSeconds(45);

  /**
   * How old the heartbeat of a run whose process is there on the reading host ({@link Process#THERE}) may be before
   * the run counts as interrupted: far longer than any beat a loaded machine delayed (one was 45 s late), so that only
   * a process that let go of its run without a word is taken to have.
   */
  public static final java.time.Duration STALE_ON_THIS_HOST = java.time.Duration.ofMinutes(10);

  /** A record as a run writes it, or as no engine has judged yet: its heartbeat alone says whether it is alive. */
  public RunRecord(String id, String repairId, String specName, String specHash, String target, HourRange range,
      HourPartition boundary, String parameters, String osUser, String host, long pid, String toolVersion,
      Instant created, Instant heartbeat, RunState state, String message) {
    this(id, repairId, specName, specHash, target, range, boundary, parameters, osUser, host, pid, toolVersion,
        created, heartbeat, state, message, Process.UNSEEN);
  }

  /**
   * Whether the run's process is gone while the run was active: found gone when the record was read, or silent for
   * longer than its kind allows ({@code staleAfter} for a process of another host, {@link #STALE_ON_THIS_HOST} for one
   * there on this host; never for a run this process runs).
   */
  public boolean interrupted(Instant now, java.time.Duration staleAfter) {
    return state.active() && switch (process) {
      case HERE -> false;
      case THERE -> heartbeat.plus(STALE_ON_THIS_HOST).isBefore(now);
      case UNSEEN -> heartbeat.plus(staleAfter).isBefore(now);
      case GONE -> true;
    };
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
