package dev.cutover.ui.history;

import static dev.cutover.ui.common.DiffTables.number;
import static dev.cutover.ui.common.DiffTables.text;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.SideEffectAcknowledgement;
import dev.cutover.engine.api.OnNode;
import dev.cutover.ui.common.DiffTables;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import java.util.Locale;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The history screen: runs, reconciliations, acknowledged side effects and the audit trail, each in a table;
 * over a sharded table, every shard's, with a column naming each line's shard.
 */
public final class HistoryView extends ScreenView {

  private final VBox root = new VBox(10);

  public HistoryView(HistoryModel model, HistoryController controller) {
    TableView<OnNode<RunRecord>> runs = new TableView<>();
    runs.setId("history-runs");
    shard(runs, model);
    runs.getColumns().add(text("Run", 200, r -> r.value().id()));
    runs.getColumns().add(text("State", 90, r -> r.value().shownState(java.time.Instant.now())));
    runs.getColumns().add(text("Range (UTC)", 300, r -> r.value().range().toString()));
    runs.getColumns().add(text("Boundary", 135, r -> r.value().boundary().toString()));
    runs.getColumns().add(text("Started", 190, r -> Formats.time(r.value().created())));
    runs.getColumns().add(text("By", 140, r -> r.value().osUser() + "@" + r.value().host()));
    // A run's message (a failure's whole reason among them) wraps in the width the other columns leave, at least 320
    // pixels: on one line, a long one ran past the table's edge, read only by scrolling.
    TableColumn<OnNode<RunRecord>, String> message = DiffTables.prose("Message", 420, r -> r.value().message());
    runs.getColumns().add(message);
    runs.setPlaceholder(Widgets.muted("No run yet."));
    binder.mirror(runs.getItems(), model.runs());
    dev.cutover.ui.common.ColumnFit.follow(runs);
    DiffTables.fillRest(runs, message, 320);

    TableView<OnNode<ReportSummary>> recs = new TableView<>();
    recs.setId("history-reconciliations");
    shard(recs, model);
    recs.getColumns().add(text("Reconciliation", 200, s -> s.value().id()));
    recs.getColumns().add(text("Verdict", 110, s -> s.value().verdict().name().toLowerCase(Locale.ROOT)));
    recs.getColumns().add(text("When", 190, s -> Formats.time(s.value().created())));
    recs.getColumns().add(text("Window (UTC)", 300, s -> s.value().window().toString()));
    // Each figure's column says what it counts: hours of the window, keys, and coverage problems (0 is none).
    recs.getColumns().add(number("Hours in window", 115, s -> (double) s.value().hours()));
    recs.getColumns().add(number("Hours differing", 115, s -> (double) s.value().differingHours()));
    recs.getColumns().add(number("Keys as expected", 125, s -> (double) s.value().expectedKeys()));
    recs.getColumns().add(number("Keys unexpected", 125, s -> (double) s.value().unexpectedKeys()));
    recs.getColumns().add(number("Acknowledged", 105, s -> (double) s.value().acknowledged()));
    recs.getColumns().add(number("Coverage problems", 135, s -> (double) s.value().coverageIssues()));
    recs.setPlaceholder(Widgets.muted("No reconciliation yet."));
    binder.mirror(recs.getItems(), model.reconciliations());
    dev.cutover.ui.common.ColumnFit.follow(recs);

    TableView<OnNode<SideEffectAcknowledgement>> sideEffects = new TableView<>();
    sideEffects.setId("history-side-effects");
    shard(sideEffects, model);
    sideEffects.getColumns().add(text("When", 190, a -> Formats.time(a.value().at())));
    sideEffects.getColumns().add(text("Who", 120, a -> a.value().actor() + "@" + a.value().host()));
    sideEffects.getColumns().add(text("Dependent", 240, a -> a.value().dependent() + " (reads " + a.value().reads() + ")"));
    sideEffects.getColumns().add(text("Run", 200, a -> a.value().runId()));
    sideEffects.getColumns().add(text("Reason", 640, a -> a.value().reason()));
    sideEffects.setPlaceholder(Widgets.muted("No run was allowed to replay history through a dependent."));
    binder.mirror(sideEffects.getItems(), model.sideEffects());
    dev.cutover.ui.common.ColumnFit.follow(sideEffects);

    TableView<OnNode<AuditEntry>> audit = new TableView<>();
    audit.setId("history-audit");
    wrappedShard(audit, model);
    audit.getColumns().add(text("When", 190, a -> Formats.time(a.value().at())));
    audit.getColumns().add(text("Who", 120, a -> a.value().actor() + "@" + a.value().host()));
    audit.getColumns().add(DiffTables.prose("Subject", 170, a -> a.value().subject()));
    audit.getColumns().add(text("Action", 110, a -> a.value().action()));
    TableColumn<OnNode<AuditEntry>, String> detail = DiffTables.prose("Detail", 480, a -> a.value().detail());
    audit.getColumns().add(detail);
    dev.cutover.ui.common.ColumnFit.follow(audit);
    // The detail takes the width the other columns leave (at least 240 pixels), and wraps in it.
    DiffTables.fillRest(audit, detail, 240);
    audit.setPlaceholder(Widgets.muted("The audit trail is empty."));
    binder.mirror(audit.getItems(), model.audit());

    Button refresh = Widgets.button("history-refresh", "Re_fresh");
    refresh.setOnAction(e -> controller.refresh());
    binder.bind(refresh.disableProperty(), model.activity().runningProperty());

    // Runs and reconciliations each keep a third of the height; the audit trail and the side effects share the
    // last third as tabs, since the side effects are most often empty: four tables in one split left each one row.
    Tab auditTab = new Tab("Audit trail (newest first, at most "
        + HistoryModel.AUDIT_LIMIT + ")", audit);
    Tab sideEffectsTab = new Tab("", sideEffects);
    binder.bind(sideEffectsTab.textProperty(), Bindings.size(sideEffects.getItems()).asString(
        "Side effects acknowledged (%d): dependents a run replayed history through, and why"));
    auditTab.setId("history-audit-tab");
    sideEffectsTab.setId("history-side-effects-tab");
    TabPane trails = new TabPane(auditTab, sideEffectsTab);
    trails.setId("history-trails");
    trails.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
    VBox trailsBox = new VBox(trails);
    trailsBox.getStyleClass().add("card");
    trailsBox.setPadding(new Insets(6, 14, 10, 14));
    VBox.setVgrow(trails, Priority.ALWAYS);
    SplitPane split = new SplitPane(section("Runs", runs), section("Reconciliations", recs), trailsBox);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.3, 0.6);
    VBox.setVgrow(split, Priority.ALWAYS);
    Label asOf = Widgets.label("history-as-of", "muted");
    binder.bind(asOf.textProperty(), model.asOfProperty());
    root.getChildren().addAll(Widgets.row(10, refresh, asOf, Widgets.activityBar("history-activity", binder,
        model.activity())), Widgets.errorLabel("history-error", binder, model.activity().errorProperty()), split);
  }

  /** The column that names each line's shard: shown only while the spec loaded names a cluster. */
  private <T> void shard(TableView<OnNode<T>> table, HistoryModel model) {
    TableColumn<OnNode<T>, String> shard = text("Shard", 200, OnNode::shardWords);
    binder.bind(shard.visibleProperty(), model.workspace().clusterSpec());
    table.getColumns().add(shard);
  }

  /** The audit trail's shard column, which wraps: on a cluster, the detail keeps its room at 1280 pixels. */
  private <T> void wrappedShard(TableView<OnNode<T>> table, HistoryModel model) {
    TableColumn<OnNode<T>, String> shard = DiffTables.prose("Shard", 140, OnNode::shardWords);
    binder.bind(shard.visibleProperty(), model.workspace().clusterSpec());
    table.getColumns().add(shard);
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
