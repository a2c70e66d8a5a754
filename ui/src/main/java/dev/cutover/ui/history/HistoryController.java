package dev.cutover.ui.history;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenController;
import java.util.List;
import javafx.beans.value.ObservableBooleanValue;

/** The history screen's reads: the runs of the target, its reconciliations and the audit trail, each time it is shown. */
public final class HistoryController implements ScreenController {

  private final HistoryModel model;
  private final Workspace workspace;
  private final Activity activity;

  public HistoryController(HistoryModel model) {
    this.model = model;
    this.workspace = model.workspace();
    this.activity = model.activity();
  }

  @Override
  public void shown() {
    refresh();
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

  private record Snapshot(List<RunRecord> runs, List<ReportSummary> reconciliations, List<AuditEntry> audit) {}

  public void refresh() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    activity.run("read the history", p -> new Snapshot(engine.backfills().runs(spec), engine.reconciliations().stored(spec),
        engine.repairs().audit(null, HistoryModel.AUDIT_LIMIT)), s -> model.read(s.runs(), s.reconciliations(), s.audit()));
  }
}
