package dev.cutover.ui.history;

import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.OnNode;
import dev.cutover.engine.api.RepairHistory;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.ShownWatch;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenController;
import java.time.Instant;
import java.util.List;
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

  public HistoryController(HistoryModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
    this.watch = ShownWatch.ofRepair(workspace, activity, HistoryController::read, this::show);
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

  private record Snapshot(RepairHistory history, Instant at) {}

  public void refresh() {
    TableSpec spec = workspace.spec();
    TargetRepair repair = workspace.targetRepair();
    if (spec == null || repair == null) {
      return;
    }
    activity.run("read the history", p -> read(repair), this::show);
  }

  /** What the repair keeps over its nodes: one server's, or every shard's merged, newest first. */
  private static Snapshot read(TargetRepair repair) {
    Instant at = Instant.now();
    return new Snapshot(repair.history(HistoryModel.AUDIT_LIMIT), at);
  }

  private void show(Snapshot s) {
    // A new verdict, or a run that appeared or changed state, may have moved the repair: the banner above reads
    // it again, so that it never says less than the lists under it.
    boolean newVerdict = !model.asOfProperty().get().isEmpty()
        && !ids(model.reconciliations()).equals(ids(s.history().reconciliations()));
    RepairHistory h = s.history();
    model.read(h.runs(), h.reconciliations(), h.sideEffects(), h.audit(), s.at(), h.silent());
    if (h.silent().isEmpty() && h.runs().stream().allMatch(r -> r.shard().isEmpty())) {
      workspace.repair().runsSeen(h.runs().stream().map(OnNode::value).toList());
    }
    if (newVerdict) {
      workspace.repair().refresh();
    }
  }

  private static List<String> ids(List<OnNode<ReportSummary>> reports) {
    return reports.stream().map(r -> r.shardWords() + r.value().id()).toList();
  }
}
