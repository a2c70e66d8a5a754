package dev.cutover.ui.shards;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.ui.backfill.HourGrid;
import dev.cutover.ui.backfill.HoursCard;
import dev.cutover.ui.common.DiffTables;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.shards.ShardsModel.ShardRow;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Shards screen: the repair of a sharded table on every shard at once. A line per shard (its
 * repair, boundary, latest run, hours written and the version its consumers read, with when it was
 * read or why it was not), the steps of the procedure for every shard at once, the hours of one shard
 * or of all merged, and tabs for the preflight, the verdict and coverage of each shard, each node's
 * gate and each node's swap.
 */
public final class ShardsView extends ScreenView {

  private final VBox root = new VBox(10);
  private final HourGrid grid;

  public ShardsView(ShardsModel model, ShardsController controller) {
    Label title = Widgets.wrap(new Label());
    binder.watch(model.workspace().specProperty(), spec -> title.setText(spec == null || spec.cluster().isEmpty() ? ""
        : spec.name() + ": " + spec.database() + "." + spec.liveTable() + " (v1) repaired into " + spec.targetTable()
        + " (v2) on every shard of cluster " + spec.cluster().get().name() + "; consumers read " + spec.consumerView()
        + " on each node, through " + spec.consumerLive() + " before the cutover and " + spec.consumerTarget()
        + " after it."));
    title.setId("shards-title");
    Label readAt = Widgets.wrap(Widgets.label("shards-read-at", "muted"));
    binder.bind(readAt.textProperty(), model.readAtProperty());

    TableView<ShardRow> shards = new TableView<>();
    shards.setId("shards-table");
    shards.getColumns().add(DiffTables.text("Shard (node)", 190, ShardRow::node));
    shards.getColumns().add(DiffTables.text("Repair", 85, ShardRow::phase));
    shards.getColumns().add(DiffTables.text("Boundary B", 130, ShardRow::boundary));
    shards.getColumns().add(DiffTables.text("Latest run", 290, ShardRow::run));
    shards.getColumns().add(DiffTables.text("Hours written", 112, ShardRow::hours));
    shards.getColumns().add(DiffTables.text("Reads", 55, ShardRow::reads));
    shards.getColumns().add(DiffTables.text("Read", 330, ShardRow::read));
    shards.setPlaceholder(Widgets.muted("No shard read yet."));
    shards.setFixedCellSize(26);
    shards.setPrefHeight(26 * 5 + 14);
    shards.setMinHeight(26 * 5 + 14);
    binder.mirror(shards.getItems(), model.rows());

    BooleanBinding busy = model.activity().runningProperty().or(model.runningProperty());
    Button deploy = action("shards-deploy-view", "Deploy corrected _view…", controller::deployView, busy);
    // A view-fed table's writer is the corrected view the console deploys; any other's is the operator's own job.
    Button declare = action("shards-declare-live-writer", "Declare _writer deployed…", controller::declareLiveWriter,
        busy);
    binder.watch(model.workspace().specProperty(), spec -> {
      boolean viewFed = spec != null && spec.liveView().isPresent();
      deploy.setVisible(viewFed);
      deploy.setManaged(viewFed);
      declare.setVisible(!viewFed);
      declare.setManaged(!viewFed);
    });
    Button preflight = action("shards-preflight", "Plan and pre_flight", controller::preflight, busy);
    Button backfill = action("shards-backfill", "St_art backfill…", controller::backfill, busy.or(Bindings
        .createBooleanBinding(() -> model.preflightProperty().get() == null || !model.preflightProperty().get()
        .passed(), model.preflightProperty())));
    Button resume = action("shards-resume", "Res_ume", controller::resume, busy);
    Button cancel = action("shards-cancel", "Cancel runs", controller::cancel, model.runningProperty().not());
    Button reconcile = action("shards-reconcile", "Reco_ncile", controller::reconcile, busy);
    Button abandon = Widgets.danger(action("shards-abandon", "Abandon repa_ir…", controller::abandon, busy));
    Label runLine = Widgets.wrap(Widgets.label("shards-run"));
    binder.bind(runLine.textProperty(), model.runLineProperty());

    ComboBox<String> which = new ComboBox<>();
    which.setId("shards-grid-shard");
    binder.mirror(which.getItems(), model.shardChoices());
    binder.watch(model.shownProperty(), n -> which.getSelectionModel().select(n.intValue()));
    which.getSelectionModel().selectedIndexProperty().addListener((o, was, is) -> {
      if (is.intValue() >= 0) {
        model.shownProperty().set(is.intValue());
      }
    });
    binder.watchList(model.shardChoices(), () -> which.getSelectionModel().select(model.shownProperty().get()));
    Label caption = Widgets.wrap(Widgets.label("shards-grid-caption", "muted"));
    binder.bind(caption.textProperty(), model.gridCaptionProperty());
    grid = new HourGrid(model.hours());
    VBox hours = HoursCard.of("Hours (a column per day, UTC)", grid, model.hours(),
        binder, model.workspace().paletteProperty(), Widgets.row(10, Widgets.muted("Show"), which), caption);

    TabPane tabs = new TabPane(new Tab("Preflight", preflightTab(model, controller)), new Tab("Verdict and coverage",
        verdictTab(model, controller)));
    tabs.setId("shards-tabs");
    tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
    SplitPane split = new SplitPane(hours, tabs);
    split.setOrientation(Orientation.HORIZONTAL);
    split.setDividerPositions(0.52);
    VBox.setVgrow(split, Priority.ALWAYS);

    // Every node's gate, the cutover and the rollback are the Cutover screen's, as on one server.
    Label swapsThere = Widgets.muted("Cut over and roll back every node on the Cutover screen.");
    swapsThere.setId("shards-swaps-there");
    FlowPane actions = new FlowPane(8, 8, deploy, preflight, backfill, resume, cancel, declare, reconcile, abandon,
        swapsThere);
    // The hour grid below never moves while a step starts, reports and ends: each move would repaint it whole.
    VBox head = new VBox(10, title, readAt, shards, actions, runLine, Widgets.activityRow("shards-activity", binder,
        model.activity()), Widgets.errorLabel("shards-error", binder, model.activity().errorProperty()),
        Widgets.errorLabel("shards-read-error", binder, model.reading().errorProperty()));
    Widgets.keepTallest(head);
    root.getChildren().addAll(head, split);
  }

  /** A dependent's name as part of a node's id: its dots as dashes, which a lookup would read as a style class. */
  private static String id(String dependent) {
    return dependent.replaceAll("[^A-Za-z0-9_-]", "-");
  }

  private Node preflightTab(ShardsModel model, ShardsController controller) {
    ListView<String> lines = sentences("shards-preflight-lines", model.preflightLines(),
        "Plan and preflight every shard: one range and one boundary B for all.");
    VBox ticks = new VBox(6);
    ticks.setId("shards-dependents");
    Runnable fill = () -> {
      ticks.getChildren().clear();
      for (String name : model.dependents()) {
        Label dependent = new Label(name + ", which reads v1");
        dependent.setMnemonicParsing(false); // a table's name is data, not a mnemonic
        String reason = model.reasons().get(name);
        if (reason == null) {
          Button acknowledge = Widgets.button("shards-ack-" + id(name), "Acknowledge…");
          acknowledge.setOnAction(e -> controller.acknowledgeDependent(name));
          ticks.getChildren().add(Widgets.row(10, dependent, acknowledge));
        } else {
          Label because = Widgets.wrap(new Label("acknowledged: " + reason));
          because.setMnemonicParsing(false);
          because.setId("shards-ack-reason-" + id(name));
          Button takeBack = Widgets.button("shards-ack-take-back-" + id(name), "Take back");
          takeBack.setOnAction(e -> controller.takeBack(name));
          ticks.getChildren().add(Widgets.row(10, dependent, because, takeBack));
        }
      }
    };
    binder.watchList(model.dependents(), fill);
    binder.watchMap(model.reasons(), fill);
    Label hint = Widgets.wrap(Widgets.muted("A table that reads v1 on some shard (an alert, a materialized view) may "
        + "react to every replaced hour again: acknowledge it with the reason that is safe, then plan and preflight "
        + "again. Each shard's backfill writes the reason to its audit trail, with your name, before any hour."));
    VBox box = new VBox(8, lines, ticks, hint);
    VBox.setVgrow(lines, Priority.ALWAYS);
    return box;
  }

  private Node verdictTab(ShardsModel model, ShardsController controller) {
    Label verdict = Widgets.wrap(Widgets.label("shards-verdict"));
    binder.bind(verdict.textProperty(), model.verdictProperty());
    ListView<String> lines = sentences("shards-verdict-lines", model.verdictLines(), "Reconcile to see each shard's verdict "
        + "and coverage.");
    ComboBox<HourPartition> hour = new ComboBox<>();
    hour.setId("shards-ack-hour");
    binder.mirror(hour.getItems(), model.unexpectedHours());
    binder.watchList(model.unexpectedHours(), () -> hour.getSelectionModel().selectFirst());
    Button ack = Widgets.button("shards-ack", "Ac_knowledge hour…");
    ack.setOnAction(e -> {
      HourPartition h = hour.getValue();
      if (h != null) {
        controller.acknowledge(h);
      }
    });
    binder.bind(ack.disableProperty(), hour.valueProperty().isNull().or(model.activity().runningProperty()));
    VBox box = new VBox(8, verdict, lines, Widgets.row(8, Widgets.muted("Unexpected on some shard"), hour, ack));
    VBox.setVgrow(lines, Priority.ALWAYS);
    return box;
  }

  /** A button of one step, off while {@code off} holds. */
  private Button action(String id, String text, Runnable step, javafx.beans.value.ObservableValue<Boolean> off) {
    Button b = Widgets.button(id, text);
    b.setOnAction(e -> step.run());
    binder.bind(b.disableProperty(), off);
    return b;
  }

  public HourGrid grid() {
    return grid;
  }

  @Override
  public Node root() {
    return root;
  }

  @Override
  public boolean compactBanner() {
    return true;
  }
}
