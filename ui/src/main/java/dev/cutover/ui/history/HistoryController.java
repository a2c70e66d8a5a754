package dev.cutover.ui.history;

import dev.cutover.engine.Engine;
import dev.cutover.engine.ShardedRepair;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.RepairRecords;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.ShownWatch;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenController;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import javafx.beans.value.ObservableBooleanValue;

/**
 * The history screen's reads: the runs of the target, its reconciliations, the side effects its runs were
 * allowed to replay (read from the audit trail) and the audit trail, each time it is shown, on Refresh, and
 * every {@link ShownWatch#PERIOD} while it is shown (what another console or the command line did appears
 * without a click; a read that fails leaves the time of the last one shown). Over a sharded table every shard
 * is read at once and its lines merged, newest first, each naming its shard; a shard that does not answer is
 * left out and named.
 */
public final class HistoryController implements ScreenController {

  private final HistoryModel model;
  private final Workspace workspace;
  private final Activity activity;
  private final ShownWatch<Snapshot> watch;
  /** The sharded table's repair while the spec loaded names a cluster, for the watch's reads off the FX thread. */
  private volatile ShardedRepair sharded;

  public HistoryController(HistoryModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.watch = new ShownWatch<>(workspace, activity, (engine, spec) -> read(engine, spec, sharded), this::show);
    this.sharded = workspace.shardedProperty().get();
    workspace.shardedProperty().addListener((o, was, is) -> sharded = is);
  }

  @Override
  public void shown() {
    refresh();
    watch.start();
  }

  @Override
  public void hidden() {
    watch.stop();
  }

  @Override
  public void reread() {
    if (workspace.spec() != null && workspace.engine() != null) {
      refresh();
    }
  }

  @Override
  public ObservableBooleanValue reading() {
    return activity.runningProperty();
  }

  private record Snapshot(List<OnNode<RunRecord>> runs, List<OnNode<ReportSummary>> reconciliations,
      List<OnNode<SideEffectAcknowledgement>> sideEffects, List<OnNode<AuditEntry>> audit, Instant at,
      Map<ShardRef, String> silent) {}

  public void refresh() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    ShardedRepair repair = workspace.shardedProperty().get();
    if (spec == null || engine == null) {
      return;
    }
    activity.run("read the history", p -> read(engine, spec, repair), this::show);
  }

  /** One server's history, or, for a sharded table, every shard's merged, newest first. */
  private static Snapshot read(Engine engine, TableSpec spec, ShardedRepair repair) {
    Instant at = Instant.now();
    if (spec.cluster().isEmpty()) {
      RepairRecords r = engine.records(spec, HistoryModel.AUDIT_LIMIT);
      return new Snapshot(here(r.runs()), here(r.reconciliations()), here(r.sideEffects()), here(r.audit()), at,
          Map.of());
    }
    if (repair == null || !repair.spec().equals(spec)) {
      throw new IllegalStateException("The repair of the sharded table is not open on every node yet; the history "
          + "is read once it is.");
    }
    ShardedRepair.ClusterRecords all = repair.records(HistoryModel.AUDIT_LIMIT);
    return new Snapshot(merged(all, RepairRecords::runs, RunRecord::created, Integer.MAX_VALUE),
        merged(all, RepairRecords::reconciliations, ReportSummary::created, Integer.MAX_VALUE),
        merged(all, RepairRecords::sideEffects, SideEffectAcknowledgement::at, Integer.MAX_VALUE),
        merged(all, RepairRecords::audit, AuditEntry::at, HistoryModel.AUDIT_LIMIT), at, all.silent());
  }

  private static <T> List<OnNode<T>> here(List<T> values) {
    return values.stream().map(OnNode::here).toList();
  }

  private static <T> List<OnNode<T>> merged(ShardedRepair.ClusterRecords all, Function<RepairRecords, List<T>> list,
      Function<T, Instant> when, int limit) {
    List<OnNode<T>> out = new ArrayList<>();
    all.shards().forEach((ref, r) -> list.apply(r).forEach(v -> out.add(new OnNode<>(Optional.of(ref), v))));
    out.sort(Comparator.comparing((OnNode<T> n) -> when.apply(n.value())).reversed());
    return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
  }

  private void show(Snapshot s) {
    // A new verdict, or a run that appeared or changed state, may have moved the repair: the banner above reads
    // it again, so that it never says less than the lists under it.
    boolean newVerdict = !model.asOfProperty().get().isEmpty()
        && !ids(model.reconciliations()).equals(ids(s.reconciliations()));
    model.read(s.runs(), s.reconciliations(), s.sideEffects(), s.audit(), s.at(), s.silent());
    if (s.silent().isEmpty() && s.runs().stream().allMatch(r -> r.shard().isEmpty())) {
      workspace.repair().runsSeen(s.runs().stream().map(OnNode::value).toList());
    }
    if (newVerdict) {
      workspace.repair().refresh();
    }
  }

  private static List<String> ids(List<OnNode<ReportSummary>> reports) {
    return reports.stream().map(r -> r.shardWords() + r.value().id()).toList();
  }
}
