package dev.cutover.engine;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.Subscription;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Backfill;
import dev.cutover.engine.tables.TableNames;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Backfill runs: starting one from a cleared plan, reading what runs did, and following a run as it
 * goes, whichever process drives it.
 */
public final class Backfills {

  private final Ground ground;

  Backfills(Ground ground) {
    this.ground = ground;
  }

  /** Starts the cleared plan's backfill, or resumes the run it continues. */
  public RunHandle start(ClearedPlan cleared, BackfillEvent.Listener listener) {
    return new Backfill(ground.sql(), ground.store()).start(cleared.plan(), listener);
  }

  /** Runs against this spec's target, newest first. */
  public List<RunRecord> runs(TableSpec spec) {
    return ground.store().runs(TableNames.target(spec));
  }

  public Optional<RunRecord> run(String id) {
    return ground.store().run(id);
  }

  /** The run's ledger: one entry per hour it wrote, carried or failed, the latest attempt of each. */
  public TreeMap<HourPartition, LedgerEntry> ledger(String runId) {
    return ground.store().hours().ledger(runId);
  }

  /**
   * Follows run {@code runId} from its records, reading them every {@code every}: the listener hears
   * each hour the ledger gains, each change of state, and the progress after each read, whether this
   * process drives the run or another one does. The events come on a thread of the follower's own;
   * following ends when the run has ended and its last events were told, or on close.
   */
  public Subscription follow(String runId, Duration every, BackfillEvent.Listener listener) {
    return RunFollower.start(this, runId, every, listener);
  }
}
