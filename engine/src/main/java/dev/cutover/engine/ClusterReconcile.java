package dev.cutover.engine;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.OverShards;
import dev.cutover.engine.cluster.Shards;
import dev.cutover.engine.cluster.Shards.Shard;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reconciliation of a sharded table's repair: every step on every shard at once, on the shard's own v1
 * and v2, answered as one over the whole table ({@link OverShards}). An acknowledgement lands on each shard
 * where the hour (or key) differs unexpectedly, bound to that shard's differences; the rows of one key lie
 * on one shard, and a whole hour's acknowledgement is one per shard.
 */
final class ClusterReconcile implements ReconcileSteps {

  private final Shards shards;
  private final TableSpec spec;

  ClusterReconcile(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /** The same views on every shard: one shard's server parses their queries. */
  @Override
  public Optional<dev.cutover.engine.api.BlockBound> blockBound() {
    return dev.cutover.engine.tables.TransformSources.blockBoundMeasures(shards.shard(1).database().sql(), spec,
        spec.correctedWriter().views());
  }

  @Override
  public String where() {
    return "every shard of cluster " + spec.cluster().map(c -> c.name()).orElse("?") + " (" + shards.all().size()
        + " shards)";
  }

  /** Every shard's reconciliation, at once, each stored on its shard. */
  Map<ShardRef, Reconciliation> each(Reconciliation.Scope scope, Optional<HourRange> range, int keyLimit,
      Progress progress) {
    int n = shards.all().size();
    AtomicInteger done = new AtomicInteger();
    progress.update("reconcile v1 and v2 on each of " + n + " shards", 0);
    Progress perShard = new Progress() {
      @Override
      public void update(String step, double fraction) {}

      @Override
      public boolean cancelled() {
        return progress.cancelled();
      }
    };
    return ClusterRepair.byRef(shards.each("reconciliation", s -> {
      Reconciliation r = s.engine().reconciliations().reconcile(spec, scope, range, keyLimit, perShard);
      int now = done.incrementAndGet();
      progress.update("reconciled " + now + " of " + n + " shards (" + s.ref() + ": " + r.verdict().name()
          .toLowerCase(java.util.Locale.ROOT) + ")", (double) now / n);
      return r;
    }));
  }

  @Override
  public Reconciliation reconcile(Reconciliation.Scope scope, Optional<HourRange> range, int keyLimit,
      Progress progress) {
    return RepairHooks.verdict(RepairHooks.onShards(shards, spec), OverShards.of(each(scope, range, keyLimit,
        progress)));
  }

  @Override
  public List<Diff.KeyDiff> hourKeys(HourPartition hour, int limit) {
    return ClusterRepair.byRef(shards.each("keys of " + hour, s -> s.engine().reconciliations().hourKeys(spec, hour,
        limit))).entrySet().stream().flatMap(e -> e.getValue().stream().map(k -> k.on(e.getKey())))
        .sorted(Comparator.comparing((Diff.KeyDiff k) -> k.expected())).toList();
  }

  @Override
  public Optional<String> newestId() {
    Map<ShardRef, Optional<String>> ids = ClusterRepair.byRef(shards.each("newest reconciliation",
        s -> s.engine().reconciliations().newestId(spec)));
    return ids.values().stream().allMatch(Optional::isPresent)
        ? Optional.of(String.join(OverShards.ID_SEPARATOR, ids.values().stream().map(Optional::get).toList()))
        : Optional.empty();
  }

  /**
   * The newest stored reconciliation of every shard, read as one; empty until every shard has one. When a
   * shard's report cannot be read back whole, only the summary stands.
   */
  @Override
  public Optional<Stored> newest() {
    Map<ShardRef, Optional<Stored>> each = ClusterRepair.byRef(shards.each("newest reconciliation",
        s -> s.engine().reconciliations().of(spec).newest()));
    if (!each.values().stream().allMatch(Optional::isPresent)) {
      return Optional.empty();
    }
    Map<ShardRef, Stored> stored = new java.util.LinkedHashMap<>();
    each.forEach((ref, s) -> stored.put(ref, s.get()));
    if (stored.values().stream().allMatch(s -> s.report().isPresent())) {
      Map<ShardRef, Reconciliation> reports = new java.util.LinkedHashMap<>();
      stored.forEach((ref, s) -> reports.put(ref, s.report().get()));
      Reconciliation over = OverShards.of(reports);
      return Optional.of(new Stored(OverShards.summary(over), Optional.of(over)));
    }
    Map<ShardRef, ReportSummary> summaries = new java.util.LinkedHashMap<>();
    stored.forEach((ref, s) -> summaries.put(ref, s.summary()));
    return Optional.of(new Stored(OverShards.summary(summaries), Optional.empty()));
  }

  /** Each shard's unexpected differences at {@code hour} (or of one key of it) now. */
  Map<ShardRef, Reconciliation.Fingerprint> differencesEach(HourPartition hour, List<String> key) {
    return ClusterRepair.byRef(shards.each("unexpected differences", s -> s.engine().reconciliations()
        .differences(spec, hour, key)));
  }

  @Override
  public Reconciliation.Fingerprint differences(HourPartition hour, List<String> key) {
    return OverShards.fingerprint(differencesEach(hour, key));
  }

  /**
   * Accepts the unexpected differences on every shard where the hour (or key) has some, each bound to its
   * differences there. Every shard checks the hour and key first; nothing is written while one refuses them,
   * when no shard has a difference to accept, or when the differences over all shards are no longer
   * {@code seen}. Returns what each shard accepted.
   */
  Map<ShardRef, Reconciliation.Fingerprint> acknowledgeEach(HourPartition hour, List<String> key, String reason,
      Optional<Reconciliation.Fingerprint> seen) {
    Map<ShardRef, Reconciliation.Fingerprint> now = differencesEach(hour, key);
    if (now.values().stream().allMatch(Reconciliation.Fingerprint::none)) {
      throw new InvalidInputException(key.isEmpty() ? "hour" : "key", (key.isEmpty()
          ? "The hour " + hour : "Key " + key + " at " + hour) + " has no unexpected difference on any shard now: "
          + "there is nothing to acknowledge.");
    }
    if (seen.isPresent() && !seen.get().equals(OverShards.fingerprint(now))) {
      throw new InvalidInputException("seen", "The differences " + (key.isEmpty() ? "of " + hour : "of key " + key
          + " at " + hour) + " changed on the shards since you were shown them (" + seen.get().describe() + "; now "
          + OverShards.fingerprint(now).describe() + "). Nothing was acknowledged: look again, then acknowledge what "
          + "is there now.");
    }
    return ClusterRepair.byRef(shards.each("acknowledgement", s -> now.get(s.ref()).none()
        ? Reconciliation.Fingerprint.NONE : s.engine().reconciliations().acknowledge(spec, hour, key, reason,
        Optional.of(now.get(s.ref())))));
  }

  @Override
  public Reconciliation.Fingerprint acknowledge(HourPartition hour, List<String> key, String reason,
      Reconciliation.Fingerprint seen) {
    return OverShards.fingerprint(acknowledgeEach(hour, key, reason, Optional.of(seen)));
  }

  /**
   * Takes back the acknowledgement in force of this hour (or key) on every shard that holds one, with the reason
   * in each shard's audit trail. Refused, nothing written, when no shard holds it. Returns what each shard took
   * back (absent on the shards that held none).
   */
  Map<ShardRef, Optional<Reconciliation.Acknowledgement>> withdrawEach(HourPartition hour, List<String> key,
      String reason) {
    Map<ShardRef, Boolean> holds = ClusterRepair.byRef(shards.each("acknowledgements", s -> s.engine()
        .reconciliations().acknowledgements(spec).stream().anyMatch(a -> a.hour().equals(hour) && a.key().equals(key))));
    if (!holds.containsValue(true)) {
      throw new InvalidInputException(key.isEmpty() ? "hour" : "key", "No shard holds an acknowledgement of "
          + hour + (key.isEmpty() ? " (whole hour)" : " key " + key) + " in force: there is nothing to withdraw. "
          + "./cutover reconcile lists each shard's.");
    }
    return ClusterRepair.byRef(shards.each("withdrawal", s -> holds.get(s.ref())
        ? Optional.of(s.engine().reconciliations().withdraw(spec, hour, key, reason)) : Optional.empty()));
  }

  @Override
  public Reconciliation.Acknowledgement withdraw(HourPartition hour, List<String> key, String reason) {
    return withdrawEach(hour, key, reason).values().stream().flatMap(Optional::stream).findFirst().orElseThrow();
  }

  /** The report over every shard, written with the column types of the first shard's tables (every shard's are alike). */
  @Override
  public ExportedReport exportHtml(Reconciliation r, Path file) {
    return first().engine().reconciliations().exportHtml(r, spec, file);
  }

  @Override
  public Path exportCsv(Reconciliation r, Path file) {
    return first().engine().reconciliations().exportCsv(r, spec, file);
  }

  private Shard first() {
    return shards.all().getFirst();
  }
}
