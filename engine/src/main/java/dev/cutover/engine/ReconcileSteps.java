package dev.cutover.engine;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The reconciliation of one repair, whether its table lies on one server or is sharded over a cluster:
 * compare v1 and v2, look into an hour's keys, accept a difference with a reason or take it back, read the
 * newest stored verdict, and write the report. On a cluster every step runs on every shard at once and
 * answers as one over the whole table ({@code cluster.OverShards}): each key names its shard, and the
 * verdict is green only when every shard's is. {@link Reconciliations#of} gives one server's;
 * {@link ClusterRepair#reconciliations()} a cluster's.
 */
public interface ReconcileSteps {

  /** Between the ids of the shards' reconciliations (and repairs) in the id of the one over every shard. */
  String ID_SEPARATOR = "+";

  /** The newest stored reconciliation: its summary, and the report read back whole when it could be. */
  record Stored(ReportSummary summary, Optional<Reconciliation> report) {}

  /** Where the steps run, for sentences: {@code the server}, {@code every shard of cluster c (3 shards)}. */
  String where();

  /**
   * Reconciles v1 and v2 over {@code scope} (and {@code range} for {@link Reconciliation.Scope#RANGE}), stores
   * the report (each shard its own) and returns it; cancelled, it stops before its next statement.
   */
  Reconciliation reconcile(Reconciliation.Scope scope, Optional<HourRange> range, int keyLimit, Progress progress);

  /** The keys of one hour that differ between v1 and v2 now, unexpected first, each with its rule. */
  List<Diff.KeyDiff> hourKeys(HourPartition hour, int limit);

  /** The id of the newest stored reconciliation, to tell that another process stored a newer one. */
  Optional<String> newestId();

  /** The newest stored reconciliation, empty when none was stored. */
  Optional<Stored> newest();

  /** The unexpected differences an acknowledgement of {@code hour} (or one key of it) would accept now. */
  Reconciliation.Fingerprint differences(HourPartition hour, List<String> key);

  /**
   * Accepts those differences with a written reason, bound to what they are; refused, nothing written, when
   * they are no longer {@code seen}, the ones the operator was shown.
   */
  Reconciliation.Fingerprint acknowledge(HourPartition hour, List<String> key, String reason,
      Reconciliation.Fingerprint seen);

  /** Takes back the acknowledgement in force of an hour (or key), with a reason for the audit trail. */
  Reconciliation.Acknowledgement withdraw(HourPartition hour, List<String> key, String reason);

  /**
   * The measures the spec's corrected views deduplicate within one insert block only, which the verdict names:
   * from B a difference in them may be a retried insert rather than the fix. Empty when the live writer is not a
   * view, or no view removes duplicates. Reads the server's parse of the views' queries.
   */
  Optional<dev.cutover.engine.api.BlockBound> blockBound();

  /** Writes the report as an HTML page with the CSV of its keys beside it. */
  ExportedReport exportHtml(Reconciliation r, Path file);

  /** Writes the report as CSV. */
  Path exportCsv(Reconciliation r, Path file);
}
