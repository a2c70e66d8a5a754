package dev.cutover.ui.history;

import dev.cutover.engine.api.OnNode;
import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.ShardRef;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.common.Activity;
import dev.cutover.ui.common.Formats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the history screen shows, on the FX thread: the runs of the target, its reconciliations, the side
 * effects its runs were allowed to replay, and the audit trail of every action; over a sharded table, every
 * shard's, newest first, each line naming its shard. {@link HistoryController} reads them and writes here.
 */
public final class HistoryModel {

  /** Audit entries shown at most, newest first. */
  static final int AUDIT_LIMIT = 500;

  private final Workspace workspace;
  private final Activity activity;
  private final ObservableList<OnNode<RunRecord>> runs = FXCollections.observableArrayList();
  private final ObservableList<OnNode<ReportSummary>> reconciliations = FXCollections.observableArrayList();
  private final ObservableList<OnNode<SideEffectAcknowledgement>> sideEffects = FXCollections.observableArrayList();
  private final ObservableList<OnNode<AuditEntry>> audit = FXCollections.observableArrayList();
  private final StringProperty asOf = new SimpleStringProperty("");

  public HistoryModel(Workspace workspace) {
    this.workspace = workspace;
    this.activity = new Activity(workspace.executor());
  }

  /**
   * The history as read at {@code at}, all four lists at once; a list that did not change is left as it
   * is, so that a read every few seconds keeps the operator's selection and scroll (but for runs under
   * way, which are drawn again). {@code silent} names the shards that could not be read, with why.
   */
  void read(List<OnNode<RunRecord>> runsRead, List<OnNode<ReportSummary>> reconciliationsRead,
      List<OnNode<SideEffectAcknowledgement>> sideEffectsRead, List<OnNode<AuditEntry>> auditRead, Instant at,
      Map<ShardRef, String> silent) {
    // A run still marked active is drawn again at every read even if its record did not change: whether it
    // shows as running or interrupted depends on how old its heartbeat is now.
    if (!runs.equals(runsRead) || runsRead.stream().anyMatch(r -> r.value().state().active())) {
      runs.setAll(runsRead);
    }
    if (!reconciliations.equals(reconciliationsRead)) {
      reconciliations.setAll(reconciliationsRead);
    }
    if (!sideEffects.equals(sideEffectsRead)) {
      sideEffects.setAll(sideEffectsRead);
    }
    if (!audit.equals(auditRead)) {
      audit.setAll(auditRead);
    }
    asOf.set("as of " + Formats.clock(at) + (silent.isEmpty() ? "" : "; not answering, left out: " + String.join("; ",
        silent.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList())));
  }

  /** When the lists shown were read, in words; empty before the first read. */
  public ReadOnlyStringProperty asOfProperty() {
    return asOf;
  }

  public Activity activity() {
    return activity;
  }

  public ObservableList<OnNode<RunRecord>> runs() {
    return runs;
  }

  public ObservableList<OnNode<ReportSummary>> reconciliations() {
    return reconciliations;
  }

  /**
   * The dependents the target's runs were allowed to replay history through, newest first: who acknowledged
   * each, when, for which run, and why.
   */
  public ObservableList<OnNode<SideEffectAcknowledgement>> sideEffects() {
    return sideEffects;
  }

  public ObservableList<OnNode<AuditEntry>> audit() {
    return audit;
  }

  public Workspace workspace() {
    return workspace;
  }
}
