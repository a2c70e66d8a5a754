package dev.cutover.ui.history;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SideEffectAcknowledgement;
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
 * allowed to replay (read from the audit trail) and the audit trail, each
 * time it is shown, on Refresh, and every {@link ShownWatch#PERIOD} while it is shown (what another console or the
 * command line did appears without a click; a read that fails leaves the time of the last one shown).
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
    this.watch = new ShownWatch<>(workspace, activity, HistoryController::read, this::show);
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

  private record Snapshot(List<RunRecord> runs, List<ReportSummary> reconciliations,
      List<SideEffectAcknowledgement> sideEffects, List<AuditEntry> audit, Instant at) {}

  public void refresh() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    activity.run("read the history", p -> read(engine, spec), this::show);
  }

  private static Snapshot read(Engine engine, TableSpec spec) {
    return new Snapshot(engine.backfills().runs(spec), engine.reconciliations().stored(spec),
        engine.backfills().sideEffectAcknowledgements(spec), engine.repairs().audit(null, HistoryModel.AUDIT_LIMIT),
        Instant.now());
  }

  private void show(Snapshot s) {
    // A new verdict, or a run that appeared or changed state, may have moved the repair: the banner above reads
    // it again, so that it never says less than the lists under it.
    boolean newVerdict = !model.asOfProperty().get().isEmpty()
        && !ids(model.reconciliations()).equals(ids(s.reconciliations()));
    model.read(s.runs(), s.reconciliations(), s.sideEffects(), s.audit(), s.at());
    workspace.repair().runsSeen(s.runs());
    if (newVerdict) {
      workspace.repair().refresh();
    }
  }

  private static List<String> ids(List<ReportSummary> reports) {
    return reports.stream().map(ReportSummary::id).toList();
  }
}
