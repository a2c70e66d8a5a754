package dev.cutover.ui.plan;

import dev.cutover.engine.api.Diff;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.DiffTables;
import dev.cutover.ui.common.Widgets;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The sample tab: the hours to try, their totals in v1 and in the corrected output, and each differing key. */
final class SamplePane {

  private final VBox root;

  SamplePane(SampleModel model, SampleController controller, Binder binder) {
    TextField hours = new TextField();
    hours.setId("sample-hours");
    hours.setPromptText("2026-11-27 10:00, 2026-11-28 03:00");
    binder.bindBidirectional(hours.textProperty(), model.hoursProperty());
    hours.setOnAction(e -> controller.run());
    HBox.setHgrow(hours, Priority.ALWAYS);
    Label l = new Label("Hours to sa_mple (UTC)");
    l.setMnemonicParsing(true);
    l.setLabelFor(hours);
    Button run = Widgets.button("sample-run", "_Validate sample");
    run.setOnAction(e -> controller.run());
    binder.bind(run.disableProperty(), model.activity().runningProperty());
    Label summary = Widgets.label("sample-summary", "summary-text");
    Widgets.wrap(summary);
    binder.bind(summary.textProperty(), model.summaryProperty());

    TableView<Diff.HourDiff> hourTable = DiffTables.hours("sample-hour-table", model.spec());
    binder.mirror(hourTable.getItems(), model.hourRows());
    TableView<Diff.KeyDiff> keyTable = DiffTables.keys("sample-key-table", model.spec(), k -> false);
    binder.mirror(keyTable.getItems(), model.keyRows());
    VBox hoursBox = new VBox(6, Widgets.muted("Per hour: v1 against the corrected transform"), hourTable);
    VBox.setVgrow(hourTable, Priority.ALWAYS);
    VBox keysBox = new VBox(6, Widgets.muted("Per key, in the hours that differ"), keyTable);
    VBox.setVgrow(keyTable, Priority.ALWAYS);
    SplitPane split = new SplitPane(hoursBox, keysBox);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.38);
    VBox.setVgrow(split, Priority.ALWAYS);

    HBox input = Widgets.row(8, l, hours, run);
    VBox card = Widgets.card("Sample validation", Widgets.safety("sample-safety", dev.cutover.engine.api.Safety.SAMPLE),
        input,
        Widgets.activityBar("sample-activity", binder, model.activity()),
        Widgets.errorLabel("sample-error", binder, model.activity().errorProperty()), summary, split);
    VBox.setVgrow(card, Priority.ALWAYS);
    root = new VBox(card);
    root.getStyleClass().add("tab-body");
  }

  Node root() {
    return root;
  }
}
