package dev.cutover.ui.shards;

import dev.cutover.ui.backfill.HourGrid;
import dev.cutover.ui.backfill.HoursCard;
import dev.cutover.ui.common.DiffTables;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.shards.ShardsModel.ShardRow;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Shards screen: the repair of a sharded table on every shard at once. A line per shard (its
 * repair, boundary, latest run, hours written and the version its consumers read, with when it was
 * read or why it was not), the backfill and the corrected live writer on every shard at once, and the hours
 * of one shard or of all merged.
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
    var preflight = model.workspace().preflightProperty();
    Button backfill = action("shards-backfill", "St_art backfill…", controller::backfill, busy.or(Bindings
        .createBooleanBinding(() -> preflight.get() == null || !preflight.get().passed() || preflight.get().nodes()
        .isEmpty(), preflight)));
    Button resume = action("shards-resume", "Res_ume", controller::resume, busy);
    Button cancel = action("shards-cancel", "Cancel runs", controller::cancel, model.runningProperty().not());
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

    VBox.setVgrow(hours, Priority.ALWAYS);

    // The other steps are the screens one server's repair has, each over every shard.
    Label elsewhere = Widgets.wrap(Widgets.muted("Plan, preflight and abandon on the Plan screen; reconcile on the "
        + "Reconcile screen; cut over and roll back every node on the Cutover screen."));
    elsewhere.setId("shards-swaps-there");
    FlowPane actions = new FlowPane(8, 8, deploy, backfill, resume, cancel, declare, elsewhere);
    // The hour grid below never moves while a step starts, reports and ends: each move would repaint it whole.
    VBox head = new VBox(10, title, readAt, shards, actions, runLine, Widgets.activityRow("shards-activity", binder,
        model.activity()), Widgets.errorLabel("shards-error", binder, model.activity().errorProperty()),
        Widgets.errorLabel("shards-read-error", binder, model.reading().errorProperty()));
    Widgets.keepTallest(head);
    root.getChildren().addAll(head, hours);
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
