package dev.cutover.ui.dialogs;

import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.dialogs.DialogService.AbandonRequest;
import dev.cutover.ui.dialogs.DialogService.Abandonment;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * Confirms giving up a repair: says what that does (its boundary and ledger stop counting, v2 stays,
 * the next backfill starts a new repair), and enables its OK button only once the target table's
 * name is typed and a reason is written for the audit trail.
 */
public final class AbandonDialog {

  private AbandonDialog() {}

  public static Dialog<Abandonment> create(AbandonRequest request) {
    Dialog<Abandonment> dialog = new Dialog<>();
    dialog.setTitle("Abandon repair");
    dialog.setHeaderText("Abandon repair " + request.repairId() + " of " + request.target() + " ("
        + request.phase() + request.boundary().map(b -> ", B = " + b + " UTC").orElse("") + ")");

    Label consequence = sentence(request.consequence());
    consequence.setId("abandon-consequence");
    TextArea reason = new TextArea();
    reason.setId("abandon-reason");
    reason.setPrefRowCount(2);
    reason.setWrapText(true);
    TextField typed = new TextField();
    typed.setId("abandon-confirmation");
    typed.setPromptText(request.table());

    Label server = sentence("On " + request.server() + ".");
    server.setId("abandon-server");
    VBox content = new VBox(10, server, consequence, sentence("Why is the repair given up? The reason goes to the audit "
        + "trail."), reason, sentence("Type the target table's name, " + request.table() + ", to confirm:"), typed);
    content.setPadding(new Insets(8, 4, 4, 4));
    content.setPrefWidth(600);
    dialog.getDialogPane().setContent(content);

    ButtonType ok = new ButtonType("Abandon repair", ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
    Node okButton = dialog.getDialogPane().lookupButton(ok);
    okButton.setId("abandon-ok");
    Widgets.danger(okButton);
    okButton.disableProperty().bind(Bindings.createBooleanBinding(() -> !typed.getText().equals(request.table())
        || reason.getText().isBlank(), typed.textProperty(), reason.textProperty()));
    dialog.setResultConverter(b -> b == ok ? new Abandonment(typed.getText(), reason.getText().strip()) : null);
    dialog.setOnShown(e -> reason.requestFocus());
    return dialog;
  }

  private static Label sentence(String text) {
    Label l = new Label(text);
    l.setWrapText(true);
    l.setMaxWidth(580);
    l.setMinHeight(Region.USE_PREF_SIZE);
    return l;
  }
}
