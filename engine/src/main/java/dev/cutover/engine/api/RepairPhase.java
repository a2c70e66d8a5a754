package dev.cutover.engine.api;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where a repair stands. A repair moves forward through these phases, each recorded once by
 * compare-and-set in ClickHouse; {@code CUT_OVER} and {@code ROLLED_BACK} alternate while v1 is
 * kept; {@code ABANDONED} and {@code V1_DROPPED} end it, and the target's next backfill starts a
 * new repair with a boundary of its own.
 *
 * <p>The middle phases (backfilled, live from B, overlap, reconciled) are milestones observed in
 * the data and the ledger: one observation may pass several of them at once. The gates never trust
 * a phase alone; they judge the data as it is when they are asked.
 */
public enum RepairPhase {
  /** Created by its first backfill, with the boundary it is about to pin. */
  PLANNED("planned"),
  /** A backfill run writes the hours below B; B is pinned. */
  BACKFILLING("backfilling"),
  /** Every hour of the repair window below B is in the ledger, written or emptied. */
  BACKFILLED("backfilled"),
  /** The corrected live writer has written v2 from B on, and nothing below it. */
  LIVE_FROM_B("live from B"),
  /** Both versions have been written live for at least the spec's minimum overlap since B. */
  OVERLAP("overlap"),
  /** A reconciliation of the whole repair window found only expected or acknowledged differences. */
  RECONCILED("reconciled"),
  /** Consumers read v2. */
  CUT_OVER("cut over"),
  /** Consumers read v1 again after a cutover. */
  ROLLED_BACK("rolled back"),
  /** v1 was dropped after the cutover: there is no way back, and the repair is over. */
  V1_DROPPED("v1 dropped"),
  /** Given up by an operator, with a reason; its boundary and ledger no longer count. */
  ABANDONED("abandoned");

  /**
   * Where a repair's record note gives the operator's reason for the step that moved it there (a rollback's): last,
   * after this marker.
   */
  public static final String REASON = "; reason: ";

  private final String words;

  RepairPhase(String words) {
    this.words = words;
  }

  /** The phase as the console and the command line say it, e.g. "live from B". */
  public String words() {
    return words;
  }

  private Set<RepairPhase> next() {
    return switch (this) {
      case PLANNED -> EnumSet.of(BACKFILLING, ABANDONED);
      case BACKFILLING -> EnumSet.of(BACKFILLED, LIVE_FROM_B, OVERLAP, ABANDONED);
      case BACKFILLED -> EnumSet.of(LIVE_FROM_B, OVERLAP, RECONCILED, BACKFILLING, ABANDONED);
      case LIVE_FROM_B -> EnumSet.of(OVERLAP, RECONCILED, BACKFILLING, ABANDONED);
      case OVERLAP -> EnumSet.of(RECONCILED, BACKFILLING, ABANDONED);
      case RECONCILED -> EnumSet.of(OVERLAP, CUT_OVER, BACKFILLING, ABANDONED);
      case CUT_OVER -> EnumSet.of(ROLLED_BACK, V1_DROPPED);
      case ROLLED_BACK -> EnumSet.of(CUT_OVER, BACKFILLING, ABANDONED);
      case V1_DROPPED, ABANDONED -> EnumSet.noneOf(RepairPhase.class);
    };
  }

  /** Whether a repair in this phase may move to {@code target}. */
  public boolean canBecome(RepairPhase target) {
    return next().contains(target);
  }

  /** Whether the repair is over: the target's next backfill starts a new one. */
  public boolean ended() {
    return this == V1_DROPPED || this == ABANDONED;
  }

  /** Whether the repair's backfilled history may still be written: consumers read v1. */
  public boolean backfillAllowed() {
    return canBecome(BACKFILLING) || this == BACKFILLING;
  }

  /**
   * Whether a cutover may be attempted from this phase: the history is backfilled and consumers read
   * v1. The gate then decides from the data, and an open gate records the milestones it saw (live
   * from B, overlap, reconciled) before consumers switch.
   */
  public boolean cutoverAllowed() {
    return this == BACKFILLED || this == LIVE_FROM_B || this == OVERLAP || this == RECONCILED || this == ROLLED_BACK;
  }
}
