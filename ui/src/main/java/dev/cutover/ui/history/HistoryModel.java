package dev.cutover.ui.history;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.ScreenController;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The history screen: the runs of the target, its reconciliations, and the audit trail of every action. */
public final class HistoryModel implements ScreenController {

  /** Audit entries shown at most, newest first. */
  static final int AUDIT_LIMIT = 500;

  private final Workspace workspace;
  private final Activity activity;
  private final ObservableList<RunRecord> runs = FXCollections.observableArrayList();
  private final ObservableList<ReportSummary> reconciliations = FXCollections.observableArrayList();
  private final ObservableList<AuditEntry> audit = FXCollections.observableArrayList();

  public HistoryModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
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
  public javafx.beans.value.ObservableBooleanValue reading() {
    return activity.runningProperty();
  }

  private record Snapshot(List<RunRecord> runs, List<ReportSummary> reconciliations, List<AuditEntry> audit) {}

  public void refresh() {
    TableSpec spec = workspace.spec();
    Engine engine = workspace.engine();
    activity.run("read the history", p -> new Snapshot(engine.backfills().runs(spec), engine.reconciliations().stored(spec),
        engine.repairs().audit(null, AUDIT_LIMIT)), s -> {
          runs.setAll(s.runs());
          reconciliations.setAll(s.reconciliations());
          audit.setAll(s.audit());
        });
  }

  public Activity activity() {
    return activity;
  }

  public ObservableList<RunRecord> runs() {
    return runs;
  }

  public ObservableList<ReportSummary> reconciliations() {
    return reconciliations;
  }

  public ObservableList<AuditEntry> audit() {
    return audit;
  }
}
