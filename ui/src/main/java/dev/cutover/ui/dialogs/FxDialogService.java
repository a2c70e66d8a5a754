package dev.cutover.ui.dialogs;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.common.Formats;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputControl;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/** The real dialogs, modal over the console window and styled with its theme. */
public final class FxDialogService implements DialogService {

  private final Supplier<Scene> owner;

  public FxDialogService(Supplier<Scene> owner) {
    this.owner = owner;
  }

  private Window window() {
    Scene s = owner.get();
    return s == null ? null : s.getWindow();
  }

  private <T> Optional<T> show(Dialog<T> dialog) {
    Window w = window();
    if (w != null) {
      dialog.initOwner(w);
      dialog.getDialogPane().getStylesheets().setAll(owner.get().getStylesheets());
    }
    return dialog.showAndWait();
  }

  @Override
  public Optional<Path> chooseSpecFile(Optional<Path> current) {
    FileChooser chooser = new FileChooser();
    chooser.setTitle("Choose a spec");
    chooser.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Spec (YAML)", "*.yaml", "*.yml"),
        new FileChooser.ExtensionFilter("All files", "*"));
    current.map(Path::toAbsolutePath).map(Path::getParent).filter(p -> p.toFile().isDirectory())
        .ifPresent(dir -> chooser.setInitialDirectory(dir.toFile()));
    return Optional.ofNullable(chooser.showOpenDialog(window())).map(java.io.File::toPath);
  }

  @Override
  public Optional<Path> chooseExportFile(String title, String suggestedName, String extension) {
    FileChooser chooser = new FileChooser();
    chooser.setTitle(title);
    chooser.setInitialFileName(suggestedName);
    chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(extension.toUpperCase(), "*." + extension));
    return Optional.ofNullable(chooser.showSaveDialog(window())).map(java.io.File::toPath);
  }

  @Override
  public boolean confirmBackfill(BackfillRequest r) {
    return confirm("Start backfill", "Recompute " + Formats.count(r.hours()) + " hours into " + r.target(),
        "Range " + r.range() + "\nBoundary " + r.boundary() + " UTC: the live writer owns every hour from there on; "
            + "the backfill never writes it.\n" + r.settings() + "\n\nEach hour replaces its partition of "
            + r.target() + " atomically. Consumers keep reading v1 until the cutover.", "Start backfill");
  }

  @Override
  public boolean confirmCancelRun(String runId, long hoursDone, long hoursTotal) {
    return confirm("Cancel run", "Cancel run " + runId + "?", Formats.count(hoursDone) + " of "
        + Formats.count(hoursTotal) + " hours are done. "
        + "Batches under way finish; every hour already written stays written and recorded. The run can be resumed "
        + "later.", "Cancel run");
  }

  @Override
  public boolean confirmCloseWhileRunning(String runId, long hoursDone, long hoursTotal) {
    return confirm("Close while a backfill runs", "This console drives run " + runId + " ("
        + Formats.count(hoursDone) + " of " + Formats.count(hoursTotal) + " hours done).", "Closing cancels it after "
        + "the batches under way; every hour already written stays written and recorded. Resume it later from the "
        + "Backfill screen.", "Cancel run and close");
  }

  @Override
  public boolean confirmDeployView(dev.cutover.engine.api.LiveDeployment d, String target) {
    return confirm("Deploy corrected view", "Create " + d.named() + " TO " + target + ", writing every hour from B = "
        + d.boundary() + " UTC", dev.cutover.engine.api.Safety.DEPLOY_LIVE + " The newest event is " + d.newestEvent()
        + "." + d.warning().map(w -> "\n\nWarning: " + w).orElse("") + "\n\n" + d.statement(),
        "Deploy view and pin B");
  }

  @Override
  public boolean confirmDeployLiveWriter(HourPartition from, String description) {
    return confirm("Deploy corrected live writer", "Start the corrected live writer from " + from + " UTC",
        description + "\n\nIt writes v2 for every hour from the boundary on; the backfill owns the hours before it.",
        "Deploy");
  }

  @Override
  public Optional<String> declareLiveWriter(HourPartition from, String target) {
    return show(declareLiveWriterDialog(from, target));
  }

  /** The question of {@link #declareLiveWriter}, not shown yet. */
  public static Dialog<String> declareLiveWriterDialog(HourPartition from, String target) {
    TextField writer = new TextField();
    writer.setId("declare-live-writer-text");
    writer.setPromptText("pnl-job 2.4.1");
    Label what = new Label("Which writer did you deploy? Its name and version go to the audit trail, with your name "
        + "and the time.\n\n" + dev.cutover.engine.api.Safety.DECLARE_LIVE);
    what.setWrapText(true);
    return textDialog("Declare the corrected live writer", "Your corrected live writer writes " + target + " from B = "
        + from + " UTC", writer, "Declare deployed", "declare-live-writer-ok", what);
  }

  @Override
  public Optional<String> acknowledgeSideEffect(SideEffectRequest r) {
    return show(acknowledgeSideEffectDialog(r));
  }

  /** The question of {@link #acknowledgeSideEffect}, not shown yet. */
  public static Dialog<String> acknowledgeSideEffectDialog(SideEffectRequest r) {
    TextField reason = new TextField();
    reason.setId("side-effect-reason");
    reason.setPromptText("its alerts for replayed hours are suppressed downstream");
    Label what = new Label(r.dependent() + " reads " + r.reads() + ". The backfill rewrites the history of " + r.target()
        + " hour by hour; whatever reacts to those tables must not send its effects again for replayed hours (an "
        + "alert paged twice, a message emitted again).\n\nWhy is replaying history through it safe? Your reason "
        + "goes to the audit trail, with your name and the time, when the backfill starts.");
    what.setWrapText(true);
    return textDialog("Acknowledge side effect", "Let " + r.dependent() + " see the replayed history", reason,
        "Acknowledge", "side-effect-ok", what);
  }

  @Override
  public Optional<String> acknowledgeDifference(AckRequest r) {
    TextArea reason = new TextArea();
    reason.setId("ack-reason");
    reason.setPrefRowCount(3);
    reason.setWrapText(true);
    Label summary = new Label(r.summary());
    summary.setWrapText(true);
    Label accepted = new Label("You accept exactly this: " + r.differences() + ". Once these differences change, the "
        + "acknowledgement accepts nothing and the verdict turns red.");
    accepted.setId("ack-differences");
    accepted.setWrapText(true);
    return show(textDialog("Acknowledge difference", "Accept the difference at " + r.hour() + " UTC" + (r.key().isEmpty()
        ? " (whole hour)" : ", key " + String.join(" / ", r.key())), reason, "Acknowledge", "ack-ok", summary,
        accepted, new Label("Why is it right? The reason goes to the audit trail and the verdict.")));
  }

  @Override
  public Optional<String> withdrawAcknowledgement(WithdrawRequest r) {
    TextArea reason = new TextArea();
    reason.setId("withdraw-reason");
    reason.setPrefRowCount(3);
    reason.setWrapText(true);
    Label what = new Label("Acknowledged by " + r.by() + ": " + r.reason() + "\nIt accepted " + r.accepted() + ".\n\n"
        + "Withdrawn, it accepts nothing: the next verdict counts these differences as unexpected again.");
    what.setWrapText(true);
    return show(textDialog("Withdraw acknowledgement", "Take back the acknowledgement of " + r.hour() + " UTC"
        + (r.key().isEmpty() ? " (whole hour)" : ", key " + String.join(" / ", r.key())), reason, "Withdraw",
        "withdraw-ok", what, new Label("Why is it taken back? The reason goes to the audit trail.")));
  }

  /**
   * A question answered in words: {@code above} explains it, {@code input} takes the answer, and the OK button
   * stays disabled while the answer is blank. Its result is the answer stripped; null when the operator cancels.
   */
  private static Dialog<String> textDialog(String title, String header, TextInputControl input, String okText,
      String okId, Node... above) {
    Dialog<String> dialog = new Dialog<>();
    dialog.setTitle(title);
    dialog.setHeaderText(header);
    VBox box = new VBox(8, above);
    box.getChildren().add(input);
    box.setPadding(new Insets(8, 4, 4, 4));
    box.setPrefWidth(560);
    dialog.getDialogPane().setContent(box);
    ButtonType ok = new ButtonType(okText, ButtonBar.ButtonData.OK_DONE);
    dialog.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
    Node okButton = dialog.getDialogPane().lookupButton(ok);
    okButton.setId(okId);
    okButton.disableProperty().bind(input.textProperty().map(String::isBlank));
    dialog.setResultConverter(b -> b == ok ? input.getText().strip() : null);
    dialog.setOnShown(e -> input.requestFocus());
    return dialog;
  }

  @Override
  public Optional<String> confirmCutover(SwapRequest request) {
    return show(SwapDialog.create(request)).map(Confirmed::typed);
  }

  @Override
  public Optional<Arming> confirmArm(ArmRequest request) {
    return show(ArmDialog.create(request));
  }

  @Override
  public Optional<Confirmed> confirmRollback(SwapRequest request) {
    return show(SwapDialog.create(request));
  }

  @Override
  public boolean confirmCleanup(String target) {
    return confirm("Clean up", "Drop the staging and sample tables of " + target + "?",
        "Run records, the ledger and the audit trail stay. No table that consumers read is touched.", "Clean up");
  }

  @Override
  public Optional<String> confirmDropV1(DropRequest request) {
    return show(DropDialog.create(request));
  }

  @Override
  public Optional<Abandonment> confirmAbandon(AbandonRequest request) {
    return show(AbandonDialog.create(request));
  }

  @Override
  public Optional<SavedProfile> editProfile(Optional<SavedProfile> existing) {
    return show(ProfileDialog.create(existing));
  }

  @Override
  public Optional<char[]> askPassword(SavedProfile profile) {
    return show(ProfileDialog.password(profile));
  }

  @Override
  public boolean confirmDeleteProfile(SavedProfile profile) {
    return confirm("Delete profile", "Delete the profile " + profile.name() + "?", profile.describe() + ". Only the "
        + "saved profile goes; nothing on the server changes.", "Delete");
  }

  private boolean confirm(String title, String header, String body, String okText) {
    Alert alert = new Alert(Alert.AlertType.CONFIRMATION);
    alert.setTitle(title);
    alert.setHeaderText(header);
    Label text = new Label(body);
    text.setWrapText(true);
    text.setMaxWidth(560);
    alert.getDialogPane().setContent(text);
    // The header wraps at the body's width rather than widening the dialog past the screen.
    alert.getDialogPane().setPrefWidth(600);
    ButtonType ok = new ButtonType(okText, ButtonBar.ButtonData.OK_DONE);
    alert.getButtonTypes().setAll(ok, ButtonType.CANCEL);
    return show(alert).filter(b -> b == ok).isPresent();
  }
}
