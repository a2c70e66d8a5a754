package dev.cutover.ui.connection;

import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.connection.ConnectionModel.State;
import java.util.Locale;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableStringValue;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * Where the console is connected (state, server version, address, database, data directory) and
 * which spec it works on.
 */
public final class ConnectionView extends ScreenView {

  private final VBox root = new VBox(16);

  private final ConnectionController controller;

  public ConnectionView(ConnectionModel model, ConnectionController controller) {
    this.controller = controller;
    root.setMaxWidth(860);
    root.getChildren().addAll(connectionCard(model), specCard(model));
  }

  private VBox targetRow(ConnectionModel model) {
    ComboBox<Target> chooser = new ComboBox<>(model.targets());
    chooser.setId("connection-target-choice");
    chooser.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(chooser, Priority.ALWAYS);
    binder.bindBidirectional(chooser.valueProperty(), model.selectedProperty());
    Label label = Widgets.labelFor("Connect t_o", chooser);
    Button connect = Widgets.button("connection-connect", "Conn_ect");
    connect.setOnAction(e -> controller.connect());
    binder.bind(connect.disableProperty(), model.stateProperty().isEqualTo(State.CONNECTING));
    Button create = Widgets.button("profile-new", "_New profile…");
    create.setOnAction(e -> controller.newProfile());
    Button edit = Widgets.button("profile-edit", "Ed_it…");
    edit.setOnAction(e -> controller.editProfile());
    Button delete = Widgets.button("profile-delete", "Delete…");
    delete.setOnAction(e -> controller.deleteProfile());
    var launchChosen = Bindings.createBooleanBinding(() -> !(model.selectedProperty().get() instanceof Target.Saved),
        model.selectedProperty());
    binder.bind(edit.disableProperty(), launchChosen.or(model.profiles().activity().runningProperty()));
    binder.bind(delete.disableProperty(), launchChosen.or(model.profiles().activity().runningProperty()));
    binder.bind(create.disableProperty(), model.profiles().activity().runningProperty());
    // The target has a line of its own: a profile's URL or the embedded server's data directory is read whole.
    HBox target = new HBox(10, label, chooser);
    target.setAlignment(Pos.CENTER_LEFT);
    HBox actions = new HBox(10, connect, create, edit, delete);
    actions.setAlignment(Pos.CENTER_LEFT);
    return new VBox(8, target, actions);
  }

  private VBox connectionCard(ConnectionModel model) {
    Region dot = new Region();
    dot.getStyleClass().add("state-dot");
    Label state = new Label();
    state.setId("connection-state");
    state.getStyleClass().add("state-label");
    binder.bind(state.textProperty(), Bindings.createStringBinding(() -> model.stateProperty().get().label(),
        model.stateProperty()));
    binder.watch(model.stateProperty(), now -> {
      dot.getStyleClass().removeAll("connecting", "connected", "lost", "reconnecting", "failed");
      dot.getStyleClass().add(now.name().toLowerCase(Locale.ROOT));
    });
    ProgressIndicator spinner = new ProgressIndicator();
    spinner.setPrefSize(18, 18);
    binder.bind(spinner.visibleProperty(), model.stateProperty().isEqualTo(State.CONNECTING)
        .or(model.stateProperty().isEqualTo(State.RECONNECTING)));
    binder.bind(spinner.managedProperty(), spinner.visibleProperty());
    HBox stateRow = new HBox(10, dot, state, spinner);
    stateRow.setAlignment(Pos.CENTER_LEFT);

    Label step = Widgets.label("connection-step", "muted");
    Widgets.wrap(step);
    binder.bind(step.textProperty(), model.stepProperty());
    binder.bind(step.visibleProperty(), model.stepProperty().isNotEmpty());
    binder.bind(step.managedProperty(), step.visibleProperty());

    GridPane facts = Widgets.facts(150);
    Label target = new Label();
    target.setId("connection-target");
    binder.bind(target.textProperty(), Bindings.createStringBinding(() -> model.connectedToProperty().get() == null
        ? "—" : model.connectedToProperty().get().label(), model.connectedToProperty()));
    Widgets.fact(facts, "Target", target);
    Widgets.fact(facts, "Server", bound(model.facts().versionProperty(), "connection-version"));
    Widgets.fact(facts, "Address", bound(model.facts().addressProperty(), "connection-address"));
    Widgets.fact(facts, "Database", bound(model.facts().databaseProperty(), "connection-database"));
    Widgets.fact(facts, "Mode", bound(model.facts().modeProperty(), "connection-mode"));
    Widgets.fact(facts, "Data directory", bound(model.facts().dataDirectoryProperty(), "connection-data-directory"));

    // What was read when the session opened is greyed, as every other screen's data, while the server is lost.
    binder.bind(facts.disableProperty(), model.stateProperty().isEqualTo(State.LOST)
        .or(model.stateProperty().isEqualTo(State.RECONNECTING)));
    binder.watch(facts.disableProperty(), lost -> {
      facts.getStyleClass().remove("stale-screen");
      if (lost) {
        facts.getStyleClass().add("stale-screen");
      }
    });
    binder.watch(model.stateProperty(), now -> {
      step.getStyleClass().remove("error-text");
      if (now == State.LOST || now == State.RECONNECTING) {
        step.getStyleClass().add("error-text");
      }
    });

    Label error = Widgets.errorLabel("connection-error", binder, model.errorProperty());

    Button retry = Widgets.button("connection-retry", "Retr_y");
    binder.bind(retry.visibleProperty(), model.stateProperty().isEqualTo(State.FAILED));
    binder.bind(retry.managedProperty(), retry.visibleProperty());
    retry.setOnAction(e -> controller.connect());

    Label where = Widgets.muted("The embedded server, or a saved profile. Profiles are kept in "
        + model.profiles().file() + " without passwords: each says where its password comes from.");
    Widgets.wrap(where);
    return Widgets.card("Connection", targetRow(model), where,
        Widgets.activityBar("profile-activity", binder, model.profiles().activity()),
        Widgets.errorLabel("profile-store-error", binder, model.profiles().activity().errorProperty()),
        stateRow, step, facts, error, retry);
  }

  private VBox specCard(ConnectionModel model) {
    TextField file = new TextField();
    file.setId("spec-file");
    file.setPromptText("/path/to/table.yaml");
    binder.bindBidirectional(file.textProperty(), model.specFileProperty());
    file.setOnAction(e -> controller.loadSpec());
    HBox.setHgrow(file, Priority.ALWAYS);
    Label fileLabel = Widgets.labelFor("_Spec file", file);

    Button browse = Widgets.button("spec-browse", "Bro_wse…");
    browse.setOnAction(e -> controller.chooseSpec());
    Button load = Widgets.button("spec-load", "_Load");
    load.setOnAction(e -> controller.loadSpec());
    var connected = model.stateProperty().isEqualTo(State.CONNECTED);
    binder.bind(load.disableProperty(), connected.not().or(model.specLoading().runningProperty()));
    HBox fileRow = new HBox(10, fileLabel, file, browse, load);
    fileRow.setAlignment(Pos.CENTER_LEFT);

    Label summary = Widgets.label("spec-summary");
    Widgets.wrap(summary);
    binder.bind(summary.textProperty(), model.specSummaryProperty());

    Label hint = Widgets.muted("A spec names the live table (v1), the corrected target (v2), the consumer view, the "
        + "sources and the corrected transform. Once it is loaded, the other screens open.");
    Widgets.wrap(hint);

    return Widgets.card("Spec", hint, fileRow, Widgets.activityBar("spec-activity", binder, model.specLoading()),
        summary, Widgets.errorLabel("spec-error", binder, model.specLoading().errorProperty()));
  }

  private Label bound(ObservableStringValue value, String id) {
    Label label = new Label();
    label.setId(id);
    binder.bind(label.textProperty(), value);
    return label;
  }

  @Override
  public Node root() {
    return root;
  }

}
