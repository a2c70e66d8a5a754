package dev.cutover.ui.dialogs;

import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.dialogs.DialogService.SwapRequest;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/**
 * Confirms a cutover or a rollback: shows the exact statement, the consumer view and which version
 * it reads before and after, and enables its OK button only once the view's name is typed.
 */
public final class SwapDialog {

  private SwapDialog() {}

  public static Dialog<String> create(SwapRequest request) {
    Dialog<String> dialog = new Dialog<>();
    boolean cutover = request.action().equals("cutover");
    dialog.setTitle(cutover ? "Confirm cutover" : "Confirm rollback");
    dialog.setHeaderText(cutover
        ? "Switch every consumer of " + request.consumerView() + " to the corrected version in one step"
        : "Switch every consumer of " + request.consumerView() + " back to the previous version in one step");

    TextArea statement = Statements.box("swap-statement", request.statement(), 2);

    GridPane facts = new GridPane();
    facts.setHgap(12);
    facts.setVgap(6);
    facts.addRow(0, Widgets.muted("Consumer view"), new Label(request.consumerView()));
    facts.addRow(1, Widgets.muted("Reads now"), new Label(request.before() + " (" + request.readsBefore() + ")"));
    Label after = new Label(request.after() + " (" + request.readsAfter() + ")");
    after.setId("swap-after");
    facts.addRow(2, Widgets.muted("Reads after"), after);

    Label prompt = new Label("Type the view's name, " + request.consumerView() + ", to confirm:");
    TextField typed = new TextField();
    typed.setId("swap-confirmation");
    typed.setPromptText(request.consumerView());

    VBox content = new VBox(10, Statements.caption(), statement, facts, prompt, typed);
    content.setPadding(new Insets(8, 4, 4, 4));
    content.setPrefWidth(620);
    dialog.getDialogPane().setContent(content);

    ButtonType ok = new ButtonType(cutover ? "Cut over" : "Roll back", ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
    Node okButton = dialog.getDialogPane().lookupButton(ok);
    okButton.setId("swap-ok");
    okButton.disableProperty().bind(typed.textProperty().isNotEqualTo(request.consumerView()));
    dialog.setResultConverter(b -> b == ok ? typed.getText() : null);
    dialog.setOnShown(e -> typed.requestFocus());
    return dialog;
  }

}
