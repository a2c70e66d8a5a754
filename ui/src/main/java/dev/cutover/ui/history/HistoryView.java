package dev.cutover.ui.history;

import static dev.cutover.ui.common.DiffTables.number;
import static dev.cutover.ui.common.DiffTables.text;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import java.util.Locale;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The history screen: runs, reconciliations, acknowledged side effects and the audit trail, each in a table. */
public final class HistoryView extends ScreenView {

  private final VBox root = new VBox(10);

  public HistoryView(HistoryModel model, HistoryController controller) {
    TableView<RunRecord> runs = new TableView<>();
    runs.setId("history-runs");
    runs.getColumns().add(text("Run", 200, RunRecord::id));
    runs.getColumns().add(text("State", 90, r -> r.shownState(java.time.Instant.now())));
    runs.getColumns().add(text("Range (UTC)", 300, r -> r.range().toString()));
    runs.getColumns().add(text("Boundary", 135, r -> r.boundary().toString()));
    runs.getColumns().add(text("Started", 190, r -> Formats.time(r.created())));
    runs.getColumns().add(text("By", 140, r -> r.osUser() + "@" + r.host()));
    runs.getColumns().add(text("Message", 420, RunRecord::message));
    runs.setPlaceholder(Widgets.muted("No run yet."));
    binder.mirror(runs.getItems(), model.runs());

    TableView<ReportSummary> recs = new TableView<>();
    recs.setId("history-reconciliations");
    recs.getColumns().add(text("Reconciliation", 200, ReportSummary::id));
    recs.getColumns().add(text("Verdict", 110, s -> s.verdict().name().toLowerCase(Locale.ROOT)));
    recs.getColumns().add(text("When", 190, s -> Formats.time(s.created())));
    recs.getColumns().add(text("Window (UTC)", 300, s -> s.window().toString()));
    recs.getColumns().add(number("Hours", 70, s -> (double) s.hours()));
    recs.getColumns().add(number("Differ", 70, s -> (double) s.differingHours()));
    recs.getColumns().add(number("Expected", 80, s -> (double) s.expectedKeys()));
    recs.getColumns().add(number("Unexpected", 90, s -> (double) s.unexpectedKeys()));
    recs.getColumns().add(number("Acknowledged", 100, s -> (double) s.acknowledged()));
    recs.getColumns().add(number("Coverage", 80, s -> (double) s.coverageIssues()));
    recs.setPlaceholder(Widgets.muted("No reconciliation yet."));
    binder.mirror(recs.getItems(), model.reconciliations());

    TableView<SideEffectAcknowledgement> sideEffects = new TableView<>();
    sideEffects.setId("history-side-effects");
    sideEffects.getColumns().add(text("When", 190, a -> Formats.time(a.at())));
    sideEffects.getColumns().add(text("Who", 120, a -> a.actor() + "@" + a.host()));
    sideEffects.getColumns().add(text("Dependent", 240, a -> a.dependent() + " (reads " + a.reads() + ")"));
    sideEffects.getColumns().add(text("Run", 200, SideEffectAcknowledgement::runId));
    sideEffects.getColumns().add(text("Reason", 640, SideEffectAcknowledgement::reason));
    sideEffects.setPlaceholder(Widgets.muted("No run was allowed to replay history through a dependent."));
    binder.mirror(sideEffects.getItems(), model.sideEffects());

    TableView<AuditEntry> audit = new TableView<>();
    audit.setId("history-audit");
    audit.getColumns().add(text("When", 190, a -> Formats.time(a.at())));
    audit.getColumns().add(text("Who", 120, a -> a.actor() + "@" + a.host()));
    audit.getColumns().add(text("Subject", 280, AuditEntry::subject));
    audit.getColumns().add(text("Action", 110, AuditEntry::action));
    audit.getColumns().add(text("Detail", 900, AuditEntry::detail));
    audit.setPlaceholder(Widgets.muted("The audit trail is empty."));
    binder.mirror(audit.getItems(), model.audit());

    Button refresh = Widgets.button("history-refresh", "Re_fresh");
    refresh.setOnAction(e -> controller.refresh());
    binder.bind(refresh.disableProperty(), model.activity().runningProperty());

    SplitPane split = new SplitPane(section("Runs", runs), section("Reconciliations", recs),
        section("Side effects acknowledged (dependents a run replayed history through, and why)", sideEffects),
        section("Audit trail (newest first, at most " + HistoryModel.AUDIT_LIMIT + ")", audit));
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.22, 0.44, 0.6);
    VBox.setVgrow(split, Priority.ALWAYS);
    Label asOf = Widgets.label("history-as-of", "muted");
    binder.bind(asOf.textProperty(), model.asOfProperty());
    root.getChildren().addAll(Widgets.row(10, refresh, asOf, Widgets.activityBar("history-activity", binder,
        model.activity())), Widgets.errorLabel("history-error", binder, model.activity().errorProperty()), split);
  }

  private static VBox section(String title, TableView<?> table) {
    VBox box = Widgets.card(title, table);
    box.setPadding(new Insets(10, 14, 10, 14));
    VBox.setVgrow(table, Priority.ALWAYS);
    return box;
  }

  @Override
  public Node root() {
    return root;
  }
}
