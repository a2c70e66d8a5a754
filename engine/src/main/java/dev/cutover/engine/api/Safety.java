package dev.cutover.engine.api;

/**
 * What each step of a repair guarantees, which failure it prevents, and what proves it, in one or
 * two sentences: the console shows them on its screens, the command line's help of each step
 * names them, and docs/PROCEDURE.md says the same at length. Constants, so that annotations can
 * use them.
 */
public final class Safety {

  private Safety() {}

  public static final String PLAN = "Planning writes nothing. The boundary B is the live edge minus the safety "
      + "margin until the repair's first backfill pins it; after that every plan uses the pinned B, so two writers "
      + "never share an hour.";

  public static final String PREFLIGHT = "Preflight refuses, before anything is written, a partition key that is "
      + "not the hour, a transform or rule that does not compile, a boundary that is not the repair's, dependents "
      + "that would replay effects (alerts sent again), and a transform that gives two answers for one hour.";

  public static final String SAMPLE = "A sample computes a few hours into a scratch table, never into v2, and diffs "
      + "them against v1 under the spec's rules, so a wrong fix shows before six months are recomputed.";

  public static final String BACKFILL = "The backfill writes v2, never v1 and never an hour at or after B: each hour "
      + "is recomputed into staging and replaced whole, so a rerun or resume overwrites instead of counting twice, "
      + "and the live job's offsets are never reset. The ledger records every hour with its checksum.";

  /** {@link #BACKFILL} in one line, where a screen shows the whole sentence only when asked. */
  public static final String BACKFILL_BRIEF = "Writes v2 only, below B, each hour replaced whole: never counted twice.";

  public static final String LIVE_WRITER = "The corrected live writer owns v2 from B on. Cutover observes where it "
      + "starts from the data and the ledger: an hour at or after B written by a backfill, or below B by anything "
      + "else, is two writers on one partition and keeps the gate closed.";

  /** {@link #LIVE_WRITER} in one line. */
  public static final String LIVE_WRITER_BRIEF = "Only it writes v2 from B; any other writer shuts the gate.";

  public static final String DEPLOY_LIVE = "A materialized view sees only the inserts made after it exists, so the "
      + "corrected view is created now with a boundary B in the future (the next whole hour after the newest event "
      + "plus the safety margin), which its deployment pins: it writes every hour from B, the backfill every hour "
      + "before B once B has closed, and no hour is written by both or by neither.";

  /** {@link #DEPLOY_LIVE} in one line. */
  public static final String DEPLOY_LIVE_BRIEF = "Made now, writing from a B still ahead: no hour written by both or by "
      + "neither.";

  public static final String DECLARE_LIVE = "Declaring the corrected live writer deployed writes one line to the audit "
      + "trail and nothing else: who deployed what, for which repair and boundary. It proves nothing; where the "
      + "writer starts and whether it keeps to B is still read from the data, and the gate opens on that alone.";

  /** {@link #DECLARE_LIVE} in one line. */
  public static final String DECLARE_LIVE_BRIEF = "One line in the audit trail; the gate still reads the writer from "
      + "the data.";

  public static final String RECONCILE = "The reconciliation compares v1 and v2 over the whole repair window, exactly "
      + "for integers and decimals, and proves every hour present once with no key counted twice. Only a verdict "
      + "over the whole repair, under the spec it was made with, can open the gate; narrower ones are for looking.";

  public static final String CUTOVER = "The cutover gate judges the data as it is now: hours changed since the "
      + "verdict are reconciled on the spot. The swap is one EXCHANGE TABLES, so consumers never read a half-rewritten "
      + "history, and only one process at a time may swap.";

  public static final String ROLLBACK = "Rollback is the same single EXCHANGE TABLES back to v1, possible while v1 is "
      + "kept; the rollback handle must read v1, and only one process at a time may swap.";

  public static final String DROP_V1 = "Dropping v1 ends the repair: there is no way back. It waits for the longest "
      + "consumer cache, the reconciliation window and a margin, or for a written reason.";

  public static final String ABANDON = "Abandoning a repair stops its boundary and ledger from counting, with a reason "
      + "in the audit trail; v2 stays as it is, and the next backfill starts a new repair with a boundary of its own.";
}
