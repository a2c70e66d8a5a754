package dev.cutover.ui.repair;

import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Widgets;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The strip above every screen past the connection: the repair's phase, its boundary, where the
 * corrected live writer was seen to start, the window of the verdict and whether it counts, and the
 * next step in the console's words, with the time it was read. A screen that needs the height (the
 * reconcile screen's charts and keys) shows it compact: one line with the phase and the next step's
 * button, the rest a click away ("More").
 */
public final class RepairBanner {

  private final Binder binder = new Binder();
  private final VBox root = new VBox(4);
  private final BooleanProperty compact = new SimpleBooleanProperty();
  private final ToggleButton more = new ToggleButton("More");
  private final RepairWatch watch;

  /**
   * A banner over {@code watch}'s repair; its next-step buttons take the operator to the step's screen through
   * {@code go} (a screen's id).
   */
  public RepairBanner(RepairWatch watch, java.util.function.Consumer<String> go) {
    this.watch = watch;
    Label phase = Widgets.label("repair-phase", "phase-pill");
    phase.setMinWidth(Region.USE_PREF_SIZE);
    binder.bind(phase.textProperty(), watch.panels().phaseProperty());
    binder.watch(watch.panels().toneProperty(), tone -> {
      phase.getStyleClass().removeIf(c -> c.startsWith("phase-") && !c.equals("phase-pill"));
      phase.getStyleClass().add("phase-" + tone);
    });
    Label repair = Widgets.wrap(Widgets.label("repair-summary"));
    repair.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(repair, Priority.ALWAYS);
    // Compact and folded, the short summary; else the whole one. Either wraps rather than being cut.
    binder.bind(repair.textProperty(), javafx.beans.binding.Bindings.when(compact.and(more.selectedProperty().not()))
        .then(watch.panels().repairShortProperty()).otherwise(watch.panels().repairProperty()));
    Label problem = Widgets.errorLabel("repair-problem", binder, watch.panels().problemProperty());
    // A switch across nodes left unfinished by a process that died, and what reading the repair did about it.
    Label swap = Widgets.wrap(Widgets.label("repair-swap", "warn"));
    swap.setMaxWidth(Double.MAX_VALUE);
    binder.bind(swap.textProperty(), watch.swapProperty());
    binder.bind(swap.visibleProperty(), watch.swapProperty().isNotEmpty());
    binder.bind(swap.managedProperty(), swap.visibleProperty());
    Label asOf = Widgets.label("repair-as-of", "muted");
    asOf.setMinWidth(Region.USE_PREF_SIZE);
    binder.bind(asOf.textProperty(), watch.panels().asOfProperty());
    Button refresh = new Button("Refresh");
    refresh.setId("repair-refresh");
    refresh.setMnemonicParsing(false);
    refresh.setMinWidth(Region.USE_PREF_SIZE);
    refresh.getStyleClass().add("small-button");
    refresh.setOnAction(e -> watch.refresh());
    binder.bind(refresh.disableProperty(), watch.readingProperty());
    // In the compact banner the next step's button stays in view, on the first line.
    Button nextShort = nextButton("repair-next-short", go);
    binder.bind(nextShort.textProperty(), watch.panels().nextButtonProperty().map(b -> b.isEmpty() ? "" : "Next: " + b));
    more.setId("repair-more");
    more.setMnemonicParsing(false);
    more.setMinWidth(Region.USE_PREF_SIZE);
    more.getStyleClass().add("small-button");
    more.setTooltip(new Tooltip("Show the live writer, the verdict and the next step in full"));
    HBox top = new HBox(10, phase, repair, nextShort, asOf, more, refresh);
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
    binder.bind(liveWriter.textProperty(), watch.panels().liveWriterProperty());
    Label verdict = Widgets.wrap(Widgets.label("repair-verdict"));
    binder.bind(verdict.textProperty(), watch.panels().verdictProperty());
    Tooltip source = new Tooltip();
    binder.bind(source.textProperty(), watch.panels().verdictSourceProperty());
    verdict.setTooltip(source);
    Button nextButton = nextButton("repair-next-button", go);
    binder.bind(nextButton.textProperty(), watch.panels().nextButtonProperty());
    binder.bind(nextButton.visibleProperty(), watch.panels().nextButtonProperty().isNotEmpty());
    binder.bind(nextButton.managedProperty(), nextButton.visibleProperty());
    Label next = Widgets.wrap(Widgets.label("repair-next"));
    next.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(next, Priority.ALWAYS);
    binder.bind(next.textProperty(), watch.panels().nextSentenceProperty());
    Tooltip command = new Tooltip();
    binder.bind(command.textProperty(), watch.panels().nextCommandProperty());
    next.setTooltip(command);
    HBox nextRow = new HBox(10, nextButton, next);
    nextRow.setAlignment(Pos.TOP_LEFT);
    row(details, "Live writer", liveWriter);
    row(details, "Verdict", verdict);
    row(details, "Next step", nextRow);
    binder.bind(details.visibleProperty(), watch.statusProperty().isNotNull().and(compact.not().or(
        more.selectedProperty())));
    binder.bind(details.managedProperty(), details.visibleProperty());
    binder.bind(nextShort.visibleProperty(), compact.and(more.selectedProperty().not())
        .and(watch.panels().nextButtonProperty().isNotEmpty()));
    binder.bind(nextShort.managedProperty(), nextShort.visibleProperty());
    binder.bind(more.visibleProperty(), compact);
    binder.bind(more.managedProperty(), compact);
    binder.bind(more.textProperty(), more.selectedProperty().map(s -> s ? "Less" : "More"));
    repair.setMinHeight(Region.USE_PREF_SIZE);

    root.getChildren().addAll(top, problem, swap, details);
    root.setId("repair-banner");
    root.getStyleClass().add("repair-banner");
    root.setPadding(new Insets(6, 22, 6, 22));
  }

  /** The repair this banner shows. */
  public RepairWatch watch() {
    return watch;
  }

  /** A button that takes the operator to the next step's screen, where its own button is; it takes no step itself. */
  private Button nextButton(String id, java.util.function.Consumer<String> go) {
    Button b = new Button();
    b.setId(id);
    b.setMnemonicParsing(false);
    b.setMinWidth(Region.USE_PREF_SIZE);
    b.getStyleClass().addAll("small-button", "next-step");
    Tooltip where = new Tooltip();
    binder.bind(where.textProperty(), watch.panels().nextScreenProperty().map(s -> s.isEmpty() ? "" : "Go to the "
        + Character.toUpperCase(s.charAt(0)) + s.substring(1) + " screen, where this step is taken"));
    b.setTooltip(where);
    b.setOnAction(e -> {
      String screen = watch.panels().nextScreenProperty().get();
      if (!screen.isEmpty()) {
        go.accept(screen);
        // On the step's screen, the control that takes the step has the focus: Enter or Space takes it from there.
        String control = watch.panels().nextControlProperty().get();
        javafx.application.Platform.runLater(() -> focus(b.getScene(), control));
      }
    });
    return b;
  }

  /**
   * Focuses the control {@code id} of the screen shown, once it is enabled (a step's button waits for its screen's
   * first read); a control in a tab not shown, or gone, is left alone.
   */
  private static void focus(javafx.scene.Scene scene, String id) {
    Node target = id.isEmpty() || scene == null ? null : scene.lookup("#" + id);
    for (Node n = target; n != null; n = n.getParent()) {
      if (!n.isVisible()) {
        return;
      }
    }
    if (target == null) {
      return;
    }
    if (!target.isDisabled()) {
      target.requestFocus();
      return;
    }
    javafx.beans.value.ChangeListener<Boolean> once = new javafx.beans.value.ChangeListener<>() {
      @Override
      public void changed(javafx.beans.value.ObservableValue<? extends Boolean> o, Boolean was, Boolean is) {
        if (!is) {
          target.disabledProperty().removeListener(this);
          if (target.getScene() == scene) {
            target.requestFocus();
          }
        }
      }
    };
    target.disabledProperty().addListener(once);
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

  /**
   * Shows the banner on one line (true) or whole; set by the console for each screen, which also folds
   * away what the operator unfolded with "More" on the screen before.
   */
  public void compact(boolean value) {
    more.setSelected(false);
    compact.set(value);
  }

  public boolean compact() {
    return compact.get();
  }

  /** Releases the banner's bindings to the watch; when the console closes. */
  public void dispose() {
    binder.dispose();
  }
}
