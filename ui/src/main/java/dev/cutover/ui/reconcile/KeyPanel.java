package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The lower part of the reconcile screen: the chosen hour in words, the filter and the
 * acknowledgements beside the table of its keys, so that the table has the height for its rows.
 */
final class KeyPanel {

  private final HBox root;

  KeyPanel(Binder binder, ReconcileModel model, ReconcileController controller, TableView<Diff.KeyDiff> keys) {
    Label hour = Widgets.wrap(Widgets.label("reconcile-hour"));
    binder.bind(hour.textProperty(), Bindings.createStringBinding(() -> Verdicts.hour(model.reportProperty().get(),
        model.selectedHourProperty().get()), model.reportProperty(), model.selectedHourProperty()));
    TextField filter = new TextField();
    filter.setId("reconcile-filter");
    filter.setPromptText("key, kind or rule");
    binder.bindBidirectional(filter.textProperty(), model.filterProperty());
    Label fl = Widgets.labelFor("_Filter", filter);
    HBox.setHgrow(filter, Priority.ALWAYS);
    Button ackKey = Widgets.button("ack-key", "Acknowledge _key…");
    ackKey.setOnAction(e -> controller.acknowledgeKey(keys.getSelectionModel().getSelectedItem()));
    binder.bind(ackKey.disableProperty(), Bindings.createBooleanBinding(() -> {
      Diff.KeyDiff k = keys.getSelectionModel().getSelectedItem();
      return k == null || k.expected() || model.acknowledged(k);
    }, keys.getSelectionModel().selectedItemProperty(), model.reportProperty()).or(model.activity().runningProperty()));
    Button ackHour = Widgets.button("ack-hour", "Acknowledge _whole hour…");
    ackHour.setOnAction(e -> controller.acknowledgeHour());
    binder.bind(ackHour.disableProperty(), Bindings.createBooleanBinding(() -> model.shownKeys().stream()
        .noneMatch(k -> !k.expected() && !model.acknowledged(k)), model.shownKeys(), model.reportProperty())
        .or(model.activity().runningProperty()));
    Button withdraw = Widgets.button("ack-withdraw", "Wit_hdraw acknowledgement…");
    withdraw.setOnAction(e -> controller.withdraw(keys.getSelectionModel().getSelectedItem()));
    binder.bind(withdraw.disableProperty(), Bindings.createBooleanBinding(() -> model.acknowledgementToWithdraw(
        keys.getSelectionModel().getSelectedItem()).isEmpty(), keys.getSelectionModel().selectedItemProperty(),
        model.selectedHourProperty(), model.reportProperty()).or(model.activity().runningProperty()));
    for (Button b : new Button[] {ackKey, ackHour, withdraw}) {
      b.setMaxWidth(Double.MAX_VALUE);
    }
    Label count = Widgets.label("reconcile-key-count", "muted");
    binder.watchList(model.shownKeys(), () -> count.setText(model.shownKeys().size() + " key(s) shown"));
    // How to move about the charts, where there is room for it: below the buttons of the hour.
    Label gestures = Widgets.wrap(Widgets.label("reconcile-gestures", "muted", "gestures"));
    gestures.setText(ChartPanel.GESTURES + ".");
    VBox side = new VBox(8, hour, Widgets.row(8, fl, filter), count, ackKey, ackHour, withdraw, Widgets.spacer(),
        gestures);
    side.getStyleClass().add("key-panel");
    // The hint shows whole or not at all: where the card is too short for it below the buttons, it would be cut.
    side.heightProperty().addListener((o, was, now) -> showIfRoom(side, gestures));
    side.widthProperty().addListener((o, was, now) -> showIfRoom(side, gestures));
    side.setPrefWidth(280);
    side.setMinWidth(240);
    side.setMaxWidth(320);

    binder.mirror(keys.getItems(), model.shownKeys());
    Label none = Widgets.muted("");
    binder.bind(none.textProperty(), model.reportProperty().map(r -> "No differing keys in this hour.")
        .orElse("The keys of an hour show here once a reconciliation has run in this console."));
    keys.setPlaceholder(none);
    HBox.setHgrow(keys, Priority.ALWAYS);
    keys.setMinHeight(KeyTable.CHROME + 3 * KeyTable.ROW);
    root = new HBox(14, side, keys);
    root.getStyleClass().add("card");
    root.setPadding(new Insets(6, 12, 6, 12));
    root.setMinHeight(120);
  }

  /** Shows {@code hint}, the last of {@code side}'s children, only while it fits whole below the others. */
  private static void showIfRoom(VBox side, Label hint) {
    double width = side.getWidth() - side.snappedLeftInset() - side.snappedRightInset();
    double used = side.snappedTopInset() + side.snappedBottomInset();
    for (javafx.scene.Node n : side.getChildren()) {
      if (n != hint) {
        used += n.prefHeight(width) + side.getSpacing();
      }
    }
    boolean fits = side.getHeight() - used >= hint.prefHeight(width);
    if (hint.isManaged() != fits) {
      hint.setManaged(fits);
      hint.setVisible(fits);
    }
  }

  HBox root() {
    return root;
  }
}
