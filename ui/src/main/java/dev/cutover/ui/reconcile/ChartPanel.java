package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Binder;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.Widgets;
import dev.cutover.ui.reconcile.ChartWindow.Choice;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The charts card of the reconcile screen: the measure, the window of hours in view (chosen, zoomed
 * and panned), the legend, and the three charts over those hours.
 */
final class ChartPanel {

  static final String GESTURES = "Wheel or + − zooms · drag or Shift+← → pans · Shift+drag picks a range · "
      + "Home shows the whole window · ← → moves the hour";

  private final VBox root;

  ChartPanel(Binder binder, ReconcileModel model, TableSpec spec, TotalsChart totals, DeltaChart delta,
      CoverageStrip coverage) {
    ChartWindow window = model.window();
    // A ChoiceBox, not a ComboBox: a ComboBox whose value changes makes the next pulse repaint the whole
    // scene (JavaFX 25, seen with its pulse logger), a second software frame of the whole screen after
    // every switch of the measure; a ChoiceBox repaints only itself (runs of 2026-12-02, in docs/BENCHMARKS.md's history).
    ChoiceBox<Identifier> measure = new ChoiceBox<>();
    measure.setId("reconcile-measure");
    measure.getItems().setAll(spec.measures());
    measure.setMinWidth(Region.USE_PREF_SIZE);
    binder.watch(model.measureProperty(), measure::setValue);
    measure.setOnAction(e -> model.chooseMeasure(measure.getValue()));
    Label ml = Widgets.labelFor("M_easure", measure);

    // Toggle buttons, not a ComboBox: a ComboBox whose value changes costs a second frame of the whole screen
    // (above), and zooming or panning moves the view between a named window and one of the operator's own.
    // A view of the operator's own (zoomed, panned, picked on the chart) selects none of them.
    ToggleGroup windows = new ToggleGroup();
    Map<Choice, ToggleButton> named = new EnumMap<>(Choice.class);
    HBox picker = new HBox();
    picker.getStyleClass().add("window-picker");
    Runnable showChoice = () -> windows.selectToggle(named.get(window.choiceProperty().get()));
    for (Choice c : List.of(Choice.WHOLE, Choice.OVERLAP, Choice.AROUND_B)) {
      ToggleButton b = new ToggleButton(c.words());
      b.setId("reconcile-window-" + c.name().toLowerCase(Locale.ROOT).replace('_', '-'));
      b.setMnemonicParsing(false);
      b.setMinWidth(Region.USE_PREF_SIZE);
      b.setToggleGroup(windows);
      // A click on the chosen window shows it again (its hours, as the preset has them) and keeps it chosen.
      b.setOnAction(e -> {
        window.choose(c);
        showChoice.run();
      });
      named.put(c, b);
      picker.getChildren().add(b);
    }
    // Modena's pills: three buttons drawn as one control.
    picker.getChildren().getFirst().getStyleClass().add("left-pill");
    picker.getChildren().get(1).getStyleClass().add("center-pill");
    picker.getChildren().getLast().getStyleClass().add("right-pill");
    binder.watch(window.choiceProperty(), c -> showChoice.run());
    ToggleButton overlap = named.get(Choice.OVERLAP);
    Tooltip.install(overlap, new Tooltip("The hours from B on, which both live writers wrote; "
        + "a report without them leaves this off"));
    Runnable overlapState = () -> overlap.setDisable(!window.hasOverlap());
    binder.watch(window.spanProperty(), s -> overlapState.run());
    binder.onChange(model.reportProperty(), r -> overlapState.run());
    Label wl = Widgets.labelFor("Wind_ow", named.get(Choice.WHOLE));
    Button zoomIn = zoomButton("zoom-in", "+", "Show fewer hours, wider (+ on a chart, or the wheel)");
    zoomIn.setOnAction(e -> window.zoom(2 / 3.0));
    Button zoomOut = zoomButton("zoom-out", "−", "Show more hours, narrower (− on a chart, or the wheel)");
    zoomOut.setOnAction(e -> window.zoom(1.5));
    var noReport = model.reportProperty().isNull();
    for (Node n : new Node[] {named.get(Choice.WHOLE), named.get(Choice.AROUND_B), zoomIn, zoomOut}) {
      binder.bind(n.disableProperty(), noReport);
    }
    Label range = Widgets.label("reconcile-window-range", "muted");
    range.setMinWidth(120);
    range.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(range, Priority.ALWAYS);
    Label outside = Widgets.label("reconcile-window-outside", "warn", "chart-legend-row");
    binder.bind(outside.managedProperty(), outside.textProperty().isNotEmpty());
    Runnable words = () -> {
      range.setText(inView(window));
      outside.setText(outside(window, model.reportProperty().get()));
    };
    binder.watch(window.spanProperty(), s -> words.run());
    binder.onChange(model.reportProperty(), r -> words.run());
    HBox controls = Widgets.row(8, ml, measure, gap(), wl, picker, zoomOut, zoomIn, range);

    FlowPane legend = new FlowPane(9, 2, swatch("v1", "legend-v1"), swatch("v2", "legend-v2"),
        Widgets.muted("· v2 − v1:"), swatch("expected", "legend-expected"), swatch("unexpected", "legend-unexpected"),
        swatch("acknowledged", "legend-acknowledged"), swatch("identical", "legend-identical"),
        Widgets.muted("· owner:"), swatch("backfill", "legend-backfill"), swatch("live writer", "legend-live"),
        swatch("gap", "legend-gap"), swatch("duplicate", "legend-duplicate"), swatch("B", "legend-boundary"),
        swatch("overlap since B", "legend-overlap"));
    legend.getStyleClass().add("chart-legend-row");
    // A problem outside the hours in view is named right after the legend: the overlap must not hide one.
    legend.getChildren().add(outside);
    legend.setPrefWrapLength(1000);

    VBox plots = new VBox(2, totals, delta, coverage);
    // Both grow and shrink alike, the delta chart down to its minimum first: the totals keep the most room.
    VBox.setVgrow(totals, Priority.ALWAYS);
    VBox.setVgrow(delta, Priority.ALWAYS);
    Tooltip.install(plots, new Tooltip(GESTURES));
    Label empty = Widgets.wrap(Widgets.label("reconcile-charts-empty", "muted"));
    empty.setText("The charts show a reconciliation made in this console: Reconcile now compares v1 and v2 hour by "
        + "hour and shows them here, opening on the overlap since B.");
    empty.setMaxWidth(520);
    binder.bind(empty.visibleProperty(), noReport);
    StackPane stack = new StackPane(plots, empty);
    VBox.setVgrow(stack, Priority.ALWAYS);

    root = new VBox(4, controls, legend, stack);
    root.getStyleClass().add("card");
    root.setPadding(new Insets(6, 12, 6, 12));
    // No smaller than its parts' least (both charts and the owner strip whole): the key table gives way first.
    root.setMinHeight(Region.USE_COMPUTED_SIZE);
  }

  /** The hours in view, in words: how many of the window's, from when to when. */
  static String inView(ChartWindow window) {
    HourRange r = window.range();
    if (r == null) {
      return "";
    }
    return Formats.count(r.hours()) + " of " + Formats.hours(window.total()) + " in view: " + r.from() + " – "
        + r.to().toString().substring(r.from().toString().substring(0, 5).equals(r.to().toString().substring(0, 5))
            ? 5 : 0) + " UTC";
  }

  /**
   * How many hours that need a look (unexpected, acknowledged, gap, duplicate) are outside the view, or
   * nothing when none are: the overlap view must not hide a problem of the history.
   */
  static String outside(ChartWindow window, Reconciliation report) {
    if (report == null || window.range() == null) {
      return "";
    }
    ChartWindow.Span span = window.span();
    long outside = report.classes().stream().filter(c -> HourClasses.severity(c.status()) > 0)
        .filter(c -> !span.contains(window.indexOf(c.hour()))).count();
    return outside == 0 ? "" : outside + (outside == 1 ? " hour that needs a look is" : " hours that need a look are")
        + " outside the view: Home shows the whole window.";
  }

  private static Button zoomButton(String id, String text, String tip) {
    Button b = Widgets.button(id, text);
    b.setMnemonicParsing(false);
    b.setTooltip(new Tooltip(tip));
    b.getStyleClass().add("small-button");
    return b;
  }

  private static Region gap() {
    Region r = new Region();
    r.setMinWidth(8);
    return r;
  }

  private static Node swatch(String text, String styleClass) {
    Region r = new Region();
    r.getStyleClass().addAll("swatch", styleClass);
    Label l = Widgets.whole(Widgets.muted(text));
    return Widgets.row(4, r, l);
  }

  VBox root() {
    return root;
  }
}
