package dev.cutover.ui.dialogs;

import dev.cutover.engine.api.V1Reader;
import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.dialogs.DialogService.DropRequest;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * Confirms dropping v1, which ends the rollback for good: shows the exact statement, the retention
 * horizon and every table that still uses v1, and enables its OK button only once each such table is
 * ticked, the table's name is typed and, before the horizon, a reason is written.
 */
public final class DropDialog {

  private DropDialog() {}

  public static Dialog<String> create(DropRequest request) {
    Dialog<String> dialog = new Dialog<>();
    dialog.setTitle(request.early() ? "Drop v1 before its retention horizon" : "Drop v1");
    dialog.setHeaderText("Drop " + request.table() + ": consumers can no longer be switched back");

    TextArea statement = Statements.box("drop-statement", request.statement(), 1);

    Label horizon = sentence(request.horizon());
    horizon.setId("drop-horizon");
    if (request.early()) {
      horizon.getStyleClass().add("error-text");
    }
    TextArea reason = new TextArea();
    reason.setId("drop-reason");
    reason.setPrefRowCount(2);
    reason.setWrapText(true);
    Label reasonLabel = sentence(request.early()
        ? "Why can it not wait? The reason goes to the audit trail (required before the horizon)."
        : "Note for the audit trail (optional).");
    TextField typed = new TextField();
    typed.setId("drop-confirmation");
    typed.setPromptText(request.table());

    Label server = sentence("On " + request.server() + ".");
    server.setId("drop-server");
    VBox content = new VBox(10, server, Statements.caption(), statement, horizon);
    List<CheckBox> ticks = new ArrayList<>();
    if (!request.readers().isEmpty()) {
      Label readers = sentence((request.readers().size() == 1 ? "This table still uses " : "These tables still use ")
          + request.table() + " and " + (request.readers().size() == 1 ? "breaks" : "break") + " when it is dropped. "
          + "Repoint or drop them first, or tick each to acknowledge it; the audit trail names them.");
      readers.setId("drop-readers");
      readers.getStyleClass().add("error-text");
      content.getChildren().add(readers);
      for (V1Reader r : request.readers()) {
        CheckBox tick = new CheckBox(r.toString());
        tick.setMnemonicParsing(false);
        tick.getStyleClass().add("drop-reader");
        ticks.add(tick);
        content.getChildren().add(tick);
      }
    }
    content.getChildren().addAll(reasonLabel, reason, sentence("Type the table's name, " + request.table()
        + ", to confirm:"), typed);
    content.setPadding(new Insets(8, 4, 4, 4));
    content.setPrefWidth(620);
    dialog.getDialogPane().setContent(content);

    ButtonType ok = new ButtonType("Drop v1", ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
    Node okButton = dialog.getDialogPane().lookupButton(ok);
    okButton.setId("drop-ok");
    Widgets.danger(okButton);
    List<javafx.beans.Observable> inputs = new ArrayList<>(List.of(typed.textProperty(), reason.textProperty()));
    ticks.forEach(t -> inputs.add(t.selectedProperty()));
    okButton.disableProperty().bind(Bindings.createBooleanBinding(() -> !typed.getText().equals(request.table())
        || (request.early() && reason.getText().isBlank()) || ticks.stream().anyMatch(t -> !t.isSelected()),
        inputs.toArray(javafx.beans.Observable[]::new)));
    dialog.setResultConverter(b -> b == ok ? reason.getText().strip() : null);
    dialog.setOnShown(e -> (request.early() ? reason : typed).requestFocus());
    return dialog;
  }

  private static Label sentence(String text) {
    Label l = new Label(text);
    l.setWrapText(true);
    l.setMaxWidth(600);
    l.setMinHeight(Region.USE_PREF_SIZE);
    return l;
  }
}
