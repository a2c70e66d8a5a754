package dev.cutover.engine;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.UnaryOperator;

/**
 * The backfill of one repair, whether its table lies on one server or is sharded over a cluster: its runs and
 * their ledgers, following a run, starting the backfill a preflight cleared, resuming a run, and the corrected live
 * writer that takes over from B. On a cluster every shard runs its own part of one backfill under one run id, and
 * each answer is every shard's as one: a run is active while any shard's part is, succeeded once every shard's did;
 * an hour is written once every shard wrote it (their rows added) and failed when any shard failed it, naming the
 * shard. {@link Backfills#of} gives one server's; {@link ClusterRepair#backfills()} a cluster's.
 */
public interface BackfillSteps {

  /** Where the steps run, for sentences: {@code the server}, {@code every shard of cluster c (3 shards)}. */
  String where();

  /** The target's runs, newest first; on a cluster each run read as one over the shards that ran it. */
  List<RunRecord> runs();

  /**
   * The throttle a run was started or last changed with, as its record says; what the record does not say, the
   * spec's (on a cluster, one shard's share, as each part ran with its own).
   */
  BackfillSettings settings(RunRecord run);

  /** The run's ledger: one entry per hour it wrote, carried or failed (on a cluster, every shard's as one). */
  SortedMap<HourPartition, LedgerEntry> ledger(String runId);

  /** A feed of run {@code runId}, read on the caller's schedule: what changed since the last read, as events. */
  RunFeed feed(String runId);

  /** The shards whose part of a run can be followed alone ({@link #feed(String, ShardRef)}); none on one server. */
  default List<ShardRef> shards() {
    return List.of();
  }

  /**
   * A feed of {@code shard}'s part of run {@code runId} alone: the part's own record (its id the run's with the
   * shard's number after it) and its own ledger, not merged with the other shards'. On one server, the run's feed.
   */
  default RunFeed feed(String runId, ShardRef shard) {
    return feed(runId);
  }

  /**
   * Starts the backfill {@code checked} cleared (on every shard at once, or on none); refused, nothing written,
   * unless its preflight passed (on every shard).
   */
  RunHandle start(Preflighted checked, BackfillEvent.Listener listener);

  /**
   * Continues run {@code runId} from its ledger (on every shard where its part did not succeed), with the
   * throttle it ran with changed by {@code throttle}, once its preflight, made again with the {@code acknowledged}
   * dependents, passes; refused with the failed checks, nothing written, when it does not.
   */
  RunHandle resume(String runId, UnaryOperator<BackfillSettings> throttle, List<AcknowledgedDependent> acknowledged,
      Progress progress, BackfillEvent.Listener listener);

  /**
   * What deploying the corrected view would do now, or did: the view and the B it writes from (on a cluster, one B
   * for every shard; it exists only when it exists on every shard). Reads only.
   */
  LiveDeployment liveDeployment();

  /**
   * Deploys the spec's corrected view from a future B (on every shard, all or none), refused unless B is still
   * {@code confirmed} when given: the B the operator read in the confirmation.
   */
  LiveDeployment deployLive(Optional<HourPartition> confirmed);

  /**
   * Declares the corrected live writer, a job outside the database, deployed from the open repair's B (on every
   * shard, or on none); answers the declaration that stands (on a cluster, the first shard's as the whole, written
   * when any shard's was, and each shard's).
   */
  dev.cutover.engine.api.NodeAnswers<dev.cutover.engine.api.LiveWriterNote.Declared> declareLiveWriter(
      String writer);
}
