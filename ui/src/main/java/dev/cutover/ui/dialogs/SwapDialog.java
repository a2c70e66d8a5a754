package dev.cutover.ui.dialogs;

import dev.cutover.engine.api.Gate;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.dialogs.DialogService.Confirmed;
import dev.cutover.ui.dialogs.DialogService.SwapRequest;
import java.time.Instant;
import java.util.Optional;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * Confirms a cutover or a rollback: shows the exact statement, the consumer view and which version
 * it reads before and after, and the step's gate judged again as the dialog opens ("Checking the
 * gate…" meanwhile). Its OK button is enabled only once that fresh gate is open and the view's name
 * is typed (and, for a rollback, a reason written, which goes to the audit trail): the gate on the screen
 * behind may be minutes old, or from before a lost server. The swap judges the gate once more itself.
 */
public final class SwapDialog {

  private SwapDialog() {}

  public static Dialog<Confirmed> create(SwapRequest request) {
    Dialog<Confirmed> dialog = new Dialog<>();
    boolean cutover = request.action().equals("cutover");
    dialog.setTitle(cutover ? "Confirm cutover" : "Confirm rollback");
    dialog.setHeaderText(cutover
        ? "Switch every consumer of " + request.consumerView() + " to the corrected version in one step"
        : "Switch every consumer of " + request.consumerView() + " back to the previous version in one step");

    TextArea statement = Statements.box("swap-statement", request.statement(), 2);

    GridPane facts = new GridPane();
    facts.setHgap(12);
    facts.setVgap(6);
    // The names keep their width: a fact the operator confirms on is never cut to "Consu…".
    javafx.scene.layout.ColumnConstraints names = new javafx.scene.layout.ColumnConstraints();
    names.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
    facts.getColumnConstraints().addAll(names, new javafx.scene.layout.ColumnConstraints());
    Label server = Widgets.wrap(new Label(request.server()));
    server.setId("swap-server");
    facts.addRow(0, Widgets.muted("Server"), server);
    facts.addRow(1, Widgets.muted("Consumer view"), new Label(request.consumerView()));
    facts.addRow(2, Widgets.muted("Reads now"), new Label(request.before() + " (" + request.readsBefore() + ")"));
    Label after = new Label(request.after() + " (" + request.readsAfter() + ")");
    after.setId("swap-after");
    facts.addRow(3, Widgets.muted("Reads after"), after);

    Label prompt = new Label("Type the view's name, " + request.consumerView() + ", to confirm:");
    TextField typed = new TextField();
    typed.setId("swap-confirmation");
    typed.setPromptText(request.consumerView());

    ProgressIndicator checking = new ProgressIndicator();
    checking.setPrefSize(16, 16);
    Label gate = Widgets.wrap(new Label("Checking the gate…"));
    gate.setId("swap-gate");
    gate.setMaxWidth(Double.MAX_VALUE);
    HBox gateRow = new HBox(8, checking, gate);
    gateRow.setAlignment(Pos.CENTER_LEFT);
    BooleanProperty open = new SimpleBooleanProperty();
    request.gate().judge((judged, at) -> {
      checking.setVisible(false);
      checking.setManaged(false);
      boolean mine = judged.step().equals(request.action());
      open.set(mine && judged.open());
      gate.setText(words(request, judged, at));
      gate.getStyleClass().add(open.get() ? "good" : "error-text");
    }, failure -> {
      checking.setVisible(false);
      checking.setManaged(false);
      gate.setText("The gate could not be judged now, so the " + request.action() + " cannot be confirmed: " + failure);
      gate.getStyleClass().add("error-text");
    });

    // A rollback takes back a fix consumers were reading: whoever reads the audit trail later needs to know why.
    Label reasonPrompt = new Label("Why do consumers go back to v1? (one line, kept in the audit trail)");
    TextField reason = new TextField();
    reason.setId("swap-reason");
    reason.setPromptText("for example: desk 7's totals moved; the fix is being checked");
    VBox content = new VBox(10, Statements.caption(), statement, facts, gateRow, prompt, typed);
    if (!cutover) {
      content.getChildren().addAll(reasonPrompt, reason);
    }
    content.setPadding(new Insets(8, 4, 4, 4));
    content.setPrefWidth(620);
    dialog.getDialogPane().setContent(content);

    ButtonType ok = new ButtonType(cutover ? "Cut over" : "Roll back", ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
    Node okButton = dialog.getDialogPane().lookupButton(ok);
    okButton.setId("swap-ok");
    Widgets.danger(okButton);
    okButton.disableProperty().bind(typed.textProperty().isNotEqualTo(request.consumerView()).or(open.not())
        .or(javafx.beans.binding.Bindings.createBooleanBinding(() -> !cutover && reason.getText().isBlank(),
            reason.textProperty())));
    dialog.setResultConverter(b -> b != ok ? null : new Confirmed(typed.getText(), cutover ? Optional.empty()
        : Optional.of(reason.getText().strip())));
    dialog.setOnShown(e -> typed.requestFocus());
    return dialog;
  }

  /** The fresh gate in words: open, closed with its refusal, or another step's gate (consumers switched meanwhile). */
  static String words(SwapRequest request, Gate gate, Instant at) {
    String when = "judged just now (" + Formats.clock(at) + ")";
    if (!gate.step().equals(request.action())) {
      return "Consumers of " + request.consumerView() + " no longer read " + request.before() + " (" + when + "): "
          + "there is nothing to " + (request.action().equals(Gate.CUTOVER) ? "cut over" : "roll back")
          + ". Close this dialog and look at the Cutover screen.";
    }
    String name = request.action().equals(Gate.CUTOVER) ? "Cutover gate" : "Rollback gate";
    return gate.open() ? name + " open, " + when + ": every condition is met."
        : name + " closed, " + when + ". " + gate.refusal();
  }
}
