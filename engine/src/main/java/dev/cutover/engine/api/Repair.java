package dev.cutover.engine.api;

import java.time.Instant;
import java.util.Optional;

/**
 * One repair of one target, as its latest state record says: which phase it is in, the boundary it
 * pinned, the first hour of its window, the transform it recomputes history with, and the operation
 * a process is carrying out on it, if any. Every change is a new record with the next {@code version},
 * written by compare-and-set: two processes that read the same version cannot both write the next.
 *
 * @param id stays the same for the life of the repair; a new repair of the same target gets a new one
 * @param target the versioned table, as {@code database.table}
 * @param version the position of this record in the target's sequence of state records
 * @param boundary B, pinned when the first backfill starts; empty before that
 * @param firstHour the first hour of the repair window: the earliest hour any of its backfills covers
 * @param transformSha256 the hash of the transform and its bindings that every backfill of the repair uses
 * @param liveViews the corrected materialized views that {@code deploy-live} created {@code TO} v2 from B (the
 *     transform as one view, or one per source), which a rollback or an abandon drops; empty when the corrected
 *     live writer is a job outside the database
 * @param operation a cutover, rollback or drop of v1 under way, and who carries it out
 * @param by who wrote this record
 * @param note what happened, in words
 */
public record Repair(String id, String target, long version, RepairPhase phase, Optional<HourPartition> boundary,
    Optional<HourPartition> firstHour, String specName, String transformSha256, java.util.List<Identifier> liveViews,
    Optional<Operation> operation, Instant at, Actor by, String note) {

  /** Times are kept to the millisecond, as the stored record keeps them. */
  public Repair {
    liveViews = java.util.List.copyOf(liveViews);
    at = at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
  }

  /**
   * An operation under way on a repair: a backfill run, a cutover, a rollback, a drop of v1. Nobody
   * else may change the repair until its holder ends it, or until its holder's process is found gone.
   *
   * @param runId the backfill run, for a backfill; empty otherwise
   */
  public record Operation(String action, Actor holder, Instant since, String runId) {
    public Operation {
      since = since.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    public static final String BACKFILL = "backfill";
    public static final String CUTOVER = "cutover";
    public static final String ROLLBACK = "rollback";
    public static final String DROP_V1 = "drop of v1";

    public String describe() {
      return action + (runId.isEmpty() ? "" : " run " + runId) + " by " + holder + " since " + Figures.time(since);
    }
  }

  /** A process acting on a repair: the OS user, the host and the process id. */
  public record Actor(String user, String host, long pid) {
    @Override
    public String toString() {
      return user + "@" + host + " (pid " + pid + ")";
    }
  }

  /**
   * The corrected views the repair deployed, named for a sentence ({@code pnl_v2_mv}, or {@code pnl_v2_trades_mv and
   * pnl_v2_fees_mv}); empty when its live writer is a job outside the database.
   */
  public Optional<String> correctedViews() {
    return Identifier.named(liveViews);
  }

  /** The window of the repair's backfilled history, {@code [firstHour, B)}, once both are known. */
  public Optional<HourRange> history() {
    return firstHour.flatMap(f -> boundary.filter(f::isBefore).map(b -> new HourRange(f, b)));
  }

  /** The next record of this repair: the next version, written now by {@code by}. */
  public Repair next(RepairPhase newPhase, Optional<Operation> newOperation, Actor actor, String newNote) {
    return new Repair(id, target, version + 1, newPhase, boundary, firstHour, specName, transformSha256, liveViews,
        newOperation, Instant.now(), actor, newNote);
  }

  public Repair withFirstHour(HourPartition hour) {
    return new Repair(id, target, version, phase, boundary, Optional.of(hour), specName, transformSha256, liveViews,
        operation, at, by, note);
  }

  public Repair withBoundary(HourPartition hour) {
    return new Repair(id, target, version, phase, Optional.of(hour), firstHour, specName, transformSha256, liveViews,
        operation, at, by, note);
  }
}
