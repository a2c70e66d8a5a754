package dev.cutover.ui.history;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the history screen shows, on the FX thread: the runs of the target, its reconciliations, and
 * the audit trail of every action. {@link HistoryController} reads them and writes here.
 */
public final class HistoryModel {

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

  /** The history as read now, all three lists at once. */
  void read(List<RunRecord> runsRead, List<ReportSummary> reconciliationsRead, List<AuditEntry> auditRead) {
    runs.setAll(runsRead);
    reconciliations.setAll(reconciliationsRead);
    audit.setAll(auditRead);
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

  public Workspace workspace() {
    return workspace;
  }
}
