package dev.cutover.ui.dialogs;

import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.dialogs.DialogService.ArmRequest;
import dev.cutover.ui.dialogs.DialogService.Arming;
import java.time.Duration;
import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * Arming the cutover: the server, the consumer view and what it will read, the statement, and a window; the
 * operator types the view's name as for a cutover now. Unlike that one it is offered while the gate is closed: the
 * switch waits for the gate, which is judged again at each turn and once more by the swap itself.
 */
public final class ArmDialog {

  /** The windows offered, the shortest first; two hours is chosen. */
  static final List<Duration> WINDOWS = List.of(Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(2),
      Duration.ofHours(4), Duration.ofHours(8), Duration.ofHours(24));

  private ArmDialog() {}

  public static Dialog<Arming> create(ArmRequest request) {
    Dialog<Arming> dialog = new Dialog<>();
    dialog.setTitle("Arm the cutover");
    dialog.setHeaderText("Switch every consumer of " + request.consumerView() + " to the corrected version by itself, "
        + "the first time the cutover gate opens within the window");

    GridPane facts = new GridPane();
    facts.setHgap(12);
    facts.setVgap(6);
    Label server = Widgets.wrap(new Label(request.server()));
    server.setId("arm-server");
    ChoiceBox<Duration> window = new ChoiceBox<>();
    window.setId("arm-window");
    window.getItems().setAll(WINDOWS);
    window.setValue(Duration.ofHours(2));
    window.setConverter(new StringConverter<>() {
      @Override
      public String toString(Duration d) {
        return d == null ? "" : d.toHours() == 0 ? d.toMinutes() + " minutes" : d.toHours() + (d.toHours() == 1
            ? " hour" : " hours");
      }

      @Override
      public Duration fromString(String s) {
        return null;
      }
    });
    facts.addRow(0, Widgets.muted("Server"), server);
    facts.addRow(1, Widgets.muted("Consumer view"), new Label(request.consumerView()));
    facts.addRow(2, Widgets.muted("Reads after"), new Label("v2 (" + request.readsAfter() + ")"));
    facts.addRow(3, Widgets.muted("Window from now"), window);

    Label how = Widgets.wrap(Widgets.muted("While this console (or the command that armed it) runs, the gate is judged "
        + "every 10 seconds; the first time it is open, the cutover runs as if you clicked Cut over, and the arm is "
        + "gone. Past the window it is removed without switching. Disarm it at any time."));
    Label prompt = new Label("Type the view's name, " + request.consumerView() + ", to confirm:");
    TextField typed = new TextField();
    typed.setId("arm-confirmation");
    typed.setPromptText(request.consumerView());
    VBox content = new VBox(10, Statements.caption(), Statements.box("arm-statement", request.statement(), 2), facts,
        how, prompt, typed);
    content.setPadding(new Insets(8, 4, 4, 4));
    content.setPrefWidth(620);
    dialog.getDialogPane().setContent(content);

    ButtonType ok = new ButtonType("Arm cutover", ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
    Node okButton = dialog.getDialogPane().lookupButton(ok);
    okButton.setId("arm-ok");
    Widgets.danger(okButton);
    okButton.disableProperty().bind(typed.textProperty().isNotEqualTo(request.consumerView())
        .or(window.valueProperty().isNull()));
    dialog.setResultConverter(b -> b != ok ? null : new Arming(typed.getText(), window.getValue()));
    dialog.setOnShown(e -> typed.requestFocus());
    return dialog;
  }
}
