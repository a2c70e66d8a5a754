package dev.cutover.ui.repair;

import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Widgets;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The strip above every screen past the connection: the repair's phase, its boundary, where the
 * corrected live writer was seen to start, the window of the verdict and whether it counts, and the
 * next step in the console's words, with the time it was read.
 */
public final class RepairBanner {

  private final Binder binder = new Binder();
  private final VBox root = new VBox(4);

  public RepairBanner(RepairWatch watch) {
    Label phase = Widgets.label("repair-phase", "phase-pill");
    phase.setMinWidth(Region.USE_PREF_SIZE);
    binder.bind(phase.textProperty(), watch.phaseProperty());
    binder.watch(watch.toneProperty(), tone -> {
      phase.getStyleClass().removeIf(c -> c.startsWith("phase-") && !c.equals("phase-pill"));
      phase.getStyleClass().add("phase-" + tone);
    });
    Label repair = Widgets.wrap(Widgets.label("repair-summary"));
    repair.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(repair, Priority.ALWAYS);
    binder.bind(repair.textProperty(), watch.repairProperty());
    Label problem = Widgets.errorLabel("repair-problem", binder, watch.problemProperty());
    Label asOf = Widgets.label("repair-as-of", "muted");
    asOf.setMinWidth(Region.USE_PREF_SIZE);
    binder.bind(asOf.textProperty(), watch.asOfProperty());
    Button refresh = new Button("Refresh");
    refresh.setId("repair-refresh");
    refresh.setMnemonicParsing(false);
    refresh.setMinWidth(Region.USE_PREF_SIZE);
    refresh.getStyleClass().add("small-button");
    refresh.setOnAction(e -> watch.refresh());
    binder.bind(refresh.disableProperty(), watch.readingProperty());
    HBox top = new HBox(10, phase, repair, asOf, refresh);
    top.setAlignment(Pos.CENTER_LEFT);

    GridPane details = new GridPane();
    details.setId("repair-details");
    details.setHgap(12);
    details.setVgap(1);
    ColumnConstraints key = new ColumnConstraints(80);
    ColumnConstraints value = new ColumnConstraints();
    value.setHgrow(Priority.ALWAYS);
    details.getColumnConstraints().addAll(key, value);
    Label liveWriter = Widgets.wrap(Widgets.label("repair-live-writer"));
    binder.bind(liveWriter.textProperty(), watch.liveWriterProperty());
    Label verdict = Widgets.wrap(Widgets.label("repair-verdict"));
    binder.bind(verdict.textProperty(), watch.verdictProperty());
    Tooltip source = new Tooltip();
    binder.bind(source.textProperty(), watch.verdictSourceProperty());
    verdict.setTooltip(source);
    Label nextButton = Widgets.label("repair-next-button", "next-step");
    nextButton.setMinWidth(Region.USE_PREF_SIZE);
    binder.bind(nextButton.textProperty(), watch.nextButtonProperty());
    binder.bind(nextButton.visibleProperty(), watch.nextButtonProperty().isNotEmpty());
    binder.bind(nextButton.managedProperty(), nextButton.visibleProperty());
    Label next = Widgets.wrap(Widgets.label("repair-next"));
    next.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(next, Priority.ALWAYS);
    binder.bind(next.textProperty(), watch.nextSentenceProperty());
    Tooltip command = new Tooltip();
    binder.bind(command.textProperty(), watch.nextCommandProperty());
    next.setTooltip(command);
    HBox nextRow = new HBox(10, nextButton, next);
    nextRow.setAlignment(Pos.TOP_LEFT);
    row(details, "Live writer", liveWriter);
    row(details, "Verdict", verdict);
    row(details, "Next step", nextRow);
    binder.bind(details.visibleProperty(), watch.statusProperty().isNotNull());
    binder.bind(details.managedProperty(), details.visibleProperty());

    root.getChildren().addAll(top, problem, details);
    root.setId("repair-banner");
    root.getStyleClass().add("repair-banner");
    root.setPadding(new Insets(6, 22, 6, 22));
  }

  private static void row(GridPane grid, String key, Node value) {
    Label k = Widgets.muted(key);
    k.setMinWidth(Region.USE_PREF_SIZE);
    GridPane.setValignment(k, VPos.TOP);
    grid.addRow(grid.getRowCount(), k, value);
  }

  public Node root() {
    return root;
  }

  /** Releases the banner's bindings to the watch; when the console closes. */
  public void dispose() {
    binder.dispose();
  }
}
