package dev.cutover.engine.api;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a target's repair stands, at a glance: its phase and boundary, where the corrected live
 * writer was seen to start, which window the current verdict covers, and the exact next step.
 * Everything in it was read when it was made ({@link #at}); the console says how old it is.
 *
 * @param repair the newest repair record of the target, ended or not; empty before its first backfill
 * @param liveWriter what the data say of the corrected live writer, once the repair has a boundary
 * @param declaredWriter the newest declaration that the open repair's live writer, a job outside the
 *     database, was deployed; the operator's word, never proof
 * @param verdict the newest reconciliation over the whole repair, if any
 * @param correctedViewExists whether the corrected view the repair names exists now; false when it names
 *     none, and after a rollback or an abandonment, which drop it
 */
public record RepairStatus(String target, Instant at, Optional<Repair> repair, LiveStatus live,
    Optional<LiveWriter> liveWriter, Optional<LiveWriterNote> declaredWriter, Optional<Verdict> verdict,
    boolean correctedViewExists, NextStep next) {

  /** The phase, or empty before the first backfill. */
  public Optional<RepairPhase> phase() {
    return repair.map(Repair::phase);
  }

  /**
   * The verdict over the whole repair that the gate would start from.
   *
   * @param underThisSpec whether it was made under the spec loaded now; only then can it count
   * @param coversRepair whether its window starts at the repair's first hour, with its boundary
   */
  public record Verdict(String id, Instant created, HourRange window, Reconciliation.Verdict verdict,
      long unexpectedKeys, long acknowledged, long coverageIssues, boolean underThisSpec, boolean coversRepair) {

    public boolean counts() {
      return underThisSpec && coversRepair;
    }
  }

  /**
   * What to do next: its kind and a sentence that says why. Each interface words the step itself:
   * the command line as a command, the console as its screen and button.
   *
   * @param runId the run the step is about (the run to resume); empty for the other kinds
   * @param from where a backfill step must start when the default start would leave hours out (v1's hours
   *     older than the repair); empty for the other kinds
   */
  public record NextStep(Kind kind, String sentence, String runId, Optional<HourPartition> from) {

    public NextStep(Kind kind, String sentence) {
      this(kind, sentence, "");
    }

    public NextStep(Kind kind, String sentence, String runId) {
      this(kind, sentence, runId, Optional.empty());
    }
  }

  /** The kinds of next step. */
  public enum Kind {
    BACKFILL,
    WAIT_FOR_RUN,
    RESUME,
    DEPLOY_LIVE_WRITER,
    /** Deploy the spec's corrected materialized view, which pins a future boundary. */
    DEPLOY_VIEW,
    /** Give the repair up: nothing can finish it any more (its corrected view is gone). */
    ABANDON,
    FIX_LIVE_WRITER,
    WAIT_FOR_OVERLAP,
    WAIT_FOR_LIVE_WRITER,
    RECONCILE,
    REVIEW_DIFFERENCES,
    CUTOVER,
    WATCH_CONSUMERS,
    FINISHED,
    START_OVER,
    SETTLE
  }
}
