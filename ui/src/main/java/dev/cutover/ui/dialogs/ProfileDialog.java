package dev.cutover.ui.dialogs;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.api.SavedProfile.Password;
import dev.cutover.ui.common.Widgets;
import java.util.Optional;
import javafx.event.ActionEvent;
import javafx.geometry.Insets;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * Creates or edits a saved connection profile. The fields are checked with the engine's own
 * validation when OK is pressed, and the dialog stays open with the sentence until they pass. There
 * is no password field: the profile says where the password comes from.
 */
public final class ProfileDialog {

  private ProfileDialog() {}

  public static Dialog<SavedProfile> create(Optional<SavedProfile> existing) {
    Dialog<SavedProfile> dialog = new Dialog<>();
    dialog.setTitle(existing.isPresent() ? "Edit connection profile" : "New connection profile");
    dialog.setHeaderText(existing.map(p -> "Edit " + p.name()).orElse("Save a ClickHouse server to connect to"));

    TextField name = field("profile-name", existing.map(SavedProfile::name), "prod-eu");
    TextField url = field("profile-url", existing.map(SavedProfile::jdbcUrl), "jdbc:clickhouse:https://host:8443");
    TextField user = field("profile-user", existing.map(SavedProfile::user), "default");
    TextField database = field("profile-database", existing.map(SavedProfile::database), "analytics");
    ChoiceBox<Password> password = new ChoiceBox<>();
    password.setId("profile-password");
    password.getItems().setAll(Password.values());
    password.setConverter(new StringConverter<>() {
      @Override
      public String toString(Password p) {
        return p == null ? "" : capital(p.label());
      }

      @Override
      public Password fromString(String s) {
        return null;
      }
    });
    password.setValue(existing.map(SavedProfile::password).orElse(Password.ASK));
    TextField reference = field("profile-password-ref", existing.map(SavedProfile::passwordReference), "");
    Label referenceLabel = Widgets.labelFor("", reference);
    password.valueProperty().subscribe(p -> {
      boolean needed = p == Password.ENVIRONMENT || p == Password.FILE;
      referenceLabel.setText(p == Password.FILE ? "Password _file" : "_Variable");
      reference.setPromptText(p == Password.FILE ? "/home/you/.clickhouse-password" : "CUTOVER_PASSWORD");
      reference.setDisable(!needed);
      if (!needed) {
        reference.clear();
      }
    });

    GridPane form = new GridPane();
    form.setHgap(12);
    form.setVgap(8);
    form.addRow(0, Widgets.labelFor("_Name", name), name);
    form.addRow(1, Widgets.labelFor("JDBC _URL", url), url);
    form.addRow(2, Widgets.labelFor("U_ser", user), user);
    form.addRow(3, Widgets.labelFor("_Database", database), database);
    form.addRow(4, Widgets.labelFor("_Password", password), password);
    form.addRow(5, referenceLabel, reference);
    GridPane.setHgrow(url, Priority.ALWAYS);

    // A profile's hooks are kept as they are in the profiles file: the dialog names them, and saving keeps them.
    java.util.List<dev.cutover.engine.api.Hook> hooks = existing.map(SavedProfile::hooks).orElse(java.util.List.of());
    Label note = new Label("The password is never saved. It is asked for at connect, read from an environment "
        + "variable, or read from a file that only you can read." + (hooks.isEmpty() ? "" : " This server runs "
        + hooks.size() + " hook(s) of its own at every repair (" + String.join(", ", hooks.stream().map(h -> h.on()
        .key()).distinct().toList()) + "), kept as they are; edit them in the profiles file."));
    note.setWrapText(true);
    note.getStyleClass().add("muted");
    note.setMaxWidth(600);
    note.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
    Label error = new Label();
    error.setMaxWidth(600);
    error.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
    error.setId("profile-error");
    error.setWrapText(true);
    error.getStyleClass().add("error-text");
    error.managedProperty().bind(error.textProperty().isNotEmpty());
    error.visibleProperty().bind(error.managedProperty());

    VBox content = new VBox(12, form, note, error);
    content.setPadding(new Insets(8, 4, 4, 4));
    content.setPrefWidth(620);
    dialog.getDialogPane().setContent(content);
    ButtonType save = new ButtonType("Save", ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(save, ButtonType.CANCEL);
    SavedProfile[] checked = new SavedProfile[1];
    dialog.getDialogPane().lookupButton(save).setId("profile-save");
    dialog.getDialogPane().lookupButton(save).addEventFilter(ActionEvent.ACTION, e -> {
      try {
        checked[0] = SavedProfile.of(name.getText(), url.getText(), user.getText(), database.getText(),
            password.getValue(), reference.getText()).withHooks(hooks);
        error.setText("");
      } catch (InvalidInputException invalid) {
        error.setText(invalid.getMessage());
        e.consume();
        // The sentence adds lines: the window grows to show it and keeps its buttons in view.
        javafx.application.Platform.runLater(() -> dialog.getDialogPane().getScene().getWindow().sizeToScene());
      }
    });
    dialog.setResultConverter(b -> b == save ? checked[0] : null);
    dialog.setOnShown(e -> name.requestFocus());
    return dialog;
  }

  /** Asks for the password of a profile that asks at connect. The characters stay in memory only. */
  public static Dialog<char[]> password(SavedProfile profile) {
    Dialog<char[]> dialog = new Dialog<>();
    dialog.setTitle("Password");
    dialog.setHeaderText("Password of " + profile.user() + " for " + profile.name());
    PasswordField field = new PasswordField();
    field.setId("password-field");
    Label where = new Label(profile.describe());
    where.getStyleClass().add("muted");
    Label note = new Label("Kept in memory while the console is connected; never written anywhere.");
    note.getStyleClass().add("muted");
    VBox content = new VBox(10, where, field, note);
    content.setPadding(new Insets(8, 4, 4, 4));
    content.setPrefWidth(460);
    dialog.getDialogPane().setContent(content);
    ButtonType connect = new ButtonType("Connect", ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(connect, ButtonType.CANCEL);
    dialog.setResultConverter(b -> {
      char[] typed = b == connect ? field.getText().toCharArray() : null;
      field.clear();
      return typed;
    });
    dialog.setOnShown(e -> field.requestFocus());
    return dialog;
  }

  private static TextField field(String id, Optional<String> value, String prompt) {
    TextField f = new TextField(value.orElse(""));
    f.setId(id);
    f.setPromptText(prompt);
    f.setPrefColumnCount(32);
    return f;
  }

  private static String capital(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
