package dev.cutover.ui.connection;

import dev.cutover.ui.connection.ConnectionModel.State;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** Shows where the console is connected: state, server version, address, database, data directory. */
public final class ConnectionView {

  private final VBox root = new VBox(16);

  public ConnectionView(ConnectionModel model) {
    root.getStyleClass().add("card");
    root.setPadding(new Insets(24));
    root.setMaxWidth(760);
    root.setMaxHeight(Region.USE_PREF_SIZE);

    Label title = new Label("Connection");
    title.getStyleClass().add("card-title");

    Region dot = new Region();
    dot.getStyleClass().add("state-dot");
    Label state = new Label();
    state.setId("connection-state");
    state.getStyleClass().add("state-label");
    state.textProperty().bind(Bindings.createStringBinding(() -> model.stateProperty().get().label(), model.stateProperty()));
    model.stateProperty().addListener((o, old, now) -> applyState(dot, now));
    applyState(dot, model.stateProperty().get());
    ProgressIndicator spinner = new ProgressIndicator();
    spinner.setPrefSize(18, 18);
    spinner.visibleProperty().bind(model.stateProperty().isEqualTo(State.CONNECTING));
    spinner.managedProperty().bind(spinner.visibleProperty());
    HBox stateRow = new HBox(10, dot, state, spinner);
    stateRow.setAlignment(javafx.geometry.Pos.CENTER_LEFT);

    Label step = new Label();
    step.setId("connection-step");
    step.getStyleClass().add("muted");
    step.textProperty().bind(model.stepProperty());
    step.setWrapText(true);
    step.visibleProperty().bind(model.stepProperty().isNotEmpty());
    step.managedProperty().bind(step.visibleProperty());

    GridPane facts = new GridPane();
    facts.setHgap(16);
    facts.setVgap(8);
    ColumnConstraints keys = new ColumnConstraints(150);
    ColumnConstraints values = new ColumnConstraints();
    values.setHgrow(Priority.ALWAYS);
    facts.getColumnConstraints().addAll(keys, values);
    row(facts, 0, "Target", fixed(model.target()), "connection-target");
    row(facts, 1, "Server", bound(model.versionProperty()), "connection-version");
    row(facts, 2, "Address", bound(model.addressProperty()), "connection-address");
    row(facts, 3, "Database", bound(model.databaseProperty()), "connection-database");
    row(facts, 4, "Mode", bound(model.modeProperty()), "connection-mode");
    row(facts, 5, "Data directory", bound(model.dataDirectoryProperty()), "connection-data-directory");

    Label error = new Label();
    error.setId("connection-error");
    error.getStyleClass().add("error-text");
    error.setWrapText(true);
    error.textProperty().bind(model.errorProperty());
    error.visibleProperty().bind(model.errorProperty().isNotEmpty());
    error.managedProperty().bind(error.visibleProperty());

    Button retry = new Button("_Retry");
    retry.setId("connection-retry");
    retry.setMnemonicParsing(true);
    retry.visibleProperty().bind(model.stateProperty().isEqualTo(State.FAILED));
    retry.managedProperty().bind(retry.visibleProperty());
    retry.setOnAction(e -> model.connect());

    root.getChildren().addAll(title, stateRow, step, facts, error, retry);
  }

  private static void applyState(Region dot, State state) {
    dot.getStyleClass().removeAll("connecting", "connected", "failed");
    dot.getStyleClass().add(state.name().toLowerCase(java.util.Locale.ROOT));
  }

  private static Label fixed(String text) {
    return new Label(text);
  }

  private static Label bound(javafx.beans.value.ObservableStringValue value) {
    Label label = new Label();
    label.textProperty().bind(value);
    return label;
  }

  private static void row(GridPane grid, int row, String key, Label value, String id) {
    Label k = new Label(key);
    k.getStyleClass().add("muted");
    value.setId(id);
    value.setWrapText(true);
    grid.addRow(row, k, value);
  }

  public Node root() {
    return root;
  }
}
