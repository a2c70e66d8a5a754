package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.DiffTables;
import dev.cutover.ui.common.Palette;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import java.util.Locale;
import javafx.beans.binding.Bindings;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The reconcile screen: the verdict, v1 and v2 totals over the window, v2 − v1 per hour by class, which
 * writer owns each hour, and the keys of the hour the operator picks, with acknowledgement and export.
 */
public final class ReconcileView extends ScreenView {

  private final VBox root = new VBox(12);
  private final DeltaChart delta = new DeltaChart();
  private final CoverageStrip coverage = new CoverageStrip();
  private final TotalsChart totals = new TotalsChart();
  private final TableView<Diff.KeyDiff> keys;

  public ReconcileView(ReconcileModel model) {
    TableSpec spec = model.workspace().spec();
    keys = DiffTables.keys("reconcile-keys", spec, model::acknowledged);
    root.getChildren().addAll(header(model), body(model, spec));
    VBox.setVgrow(root.getChildren().getLast(), Priority.ALWAYS);

    Runnable redraw = () -> {
      Reconciliation r = model.reportProperty().get();
      Palette p = model.workspace().paletteProperty().get();
      totals.show(r, model.selectedHourProperty().get(), p);
      delta.show(r, model.selectedHourProperty().get(), p);
      coverage.show(r, model.selectedHourProperty().get(), p);
    };
    // A new report or measure lays the hours out once; selection and theme only redraw.
    Runnable layOut = () -> {
      Reconciliation r = model.reportProperty().get();
      totals.measure(model.measureProperty().get(), r);
      delta.measure(model.measureProperty().get(), r);
      coverage.load(r);
      redraw.run();
    };
    binder.watch(model.reportProperty(), r -> layOut.run());
    binder.onChange(model.measureProperty(), m -> layOut.run());
    binder.onChange(model.selectedHourProperty(), h -> redraw.run());
    binder.onChange(model.workspace().paletteProperty(), p -> redraw.run());
    totals.setOnSelect(model.selectedHourProperty()::set);
    delta.setOnSelect(model.selectedHourProperty()::set);
    coverage.setOnSelect(model.selectedHourProperty()::set);
  }

  private VBox header(ReconcileModel model) {
    Button run = Widgets.button("reconcile-run", "Reconcile _now");
    run.setDefaultButton(true);
    run.setOnAction(e -> model.reconcile());
    binder.bind(run.disableProperty(), model.activity().runningProperty());
    Spinner<Integer> limit = new Spinner<>(100, 1_000_000, model.keyLimitProperty().get(), 1000);
    limit.setId("reconcile-key-limit");
    limit.setEditable(true);
    limit.setPrefWidth(110);
    limit.setMinWidth(Region.USE_PREF_SIZE);
    limit.valueProperty().addListener((o, a, b) -> model.keyLimitProperty().set(b));
    Label ll = Widgets.whole(new Label("Key _limit"));
    ll.setMnemonicParsing(true);
    ll.setLabelFor(limit);
    Button csv = Widgets.button("export-csv", "Export C_SV…");
    csv.setOnAction(e -> model.export("csv"));
    Button html = Widgets.button("export-html", "Export HT_ML…");
    html.setOnAction(e -> model.export("html"));
    var noReport = model.reportProperty().isNull();
    binder.bind(csv.disableProperty(), noReport);
    binder.bind(html.disableProperty(), noReport);

    Label verdict = Widgets.label("verdict", "verdict");
    binder.bind(verdict.textProperty(), model.reportProperty().map(Verdicts::headline).orElse("No reconciliation yet"));
    binder.watch(model.reportProperty(), r -> {
      verdict.getStyleClass().removeAll("verdict-green", "verdict-acknowledged", "verdict-red", "verdict-none");
      verdict.getStyleClass().add(r == null ? "verdict-none" : "verdict-" + r.verdict().name().toLowerCase(Locale.ROOT));
    });
    verdict.setMaxWidth(Double.MAX_VALUE);
    Label detail = Widgets.label("verdict-detail", "muted");
    Widgets.wrap(detail);
    binder.bind(detail.textProperty(), Bindings.createStringBinding(() -> model.reportProperty().get() == null
        ? model.noteProperty().get() : Verdicts.detail(model.reportProperty().get()) + (model.noteProperty().get()
            .isEmpty() ? "" : " " + model.noteProperty().get()), model.reportProperty(), model.noteProperty()));
    Label scope = Widgets.wrap(Widgets.label("reconcile-scope", "strong"));
    binder.bind(scope.textProperty(), model.reportProperty().map(Verdicts::scope).orElse("Only a reconciliation of "
        + "the whole repair opens the cutover gate."));
    scope.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(scope, Priority.ALWAYS);
    HBox actions = Widgets.row(8, run, ll, limit, scope, csv, html);
    actions.setSpacing(12);
    return new VBox(8, actions, verdict, detail, Widgets.safety("reconcile-safety", Safety.RECONCILE),
        Widgets.activityBar("reconcile-activity", binder, model.activity()),
        Widgets.errorLabel("reconcile-error", binder, model.activity().errorProperty()));
  }

  private SplitPane body(ReconcileModel model, TableSpec spec) {
    ComboBox<Identifier> measure = new ComboBox<>();
    measure.setId("reconcile-measure");
    measure.getItems().setAll(spec.measures());
    measure.setMinWidth(Region.USE_PREF_SIZE);
    binder.watch(model.measureProperty(), measure::setValue);
    measure.setOnAction(e -> model.chooseMeasure(measure.getValue()));
    Label ml = Widgets.whole(new Label("M_easure"));
    ml.setMnemonicParsing(true);
    ml.setLabelFor(measure);
    FlowPane legend = new FlowPane(14, 4, swatch("v1", "legend-v1"), swatch("v2", "legend-v2"),
        Widgets.muted("   v2 − v1 per hour:"), swatch("expected", "legend-expected"),
        swatch("unexpected", "legend-unexpected"), swatch("acknowledged", "legend-acknowledged"),
        swatch("identical", "legend-identical"), Widgets.muted("   Owner of each hour:"),
        swatch("backfill", "legend-backfill"), swatch("live writer", "legend-live"), swatch("gap", "legend-gap"),
        swatch("duplicate", "legend-duplicate"), swatch("boundary B", "legend-boundary"));
    HBox.setHgrow(legend, Priority.ALWAYS);
    // Its height is asked at its preferred width: wrapping at the width it usually gets keeps it to two lines.
    legend.setPrefWrapLength(820);
    HBox top = Widgets.row(10, ml, measure, legend);
    VBox charts = new VBox(6, top, totals, delta, coverage);
    charts.getStyleClass().add("card");
    charts.setPadding(new javafx.geometry.Insets(10, 14, 10, 14));
    VBox.setVgrow(totals, Priority.ALWAYS);

    TextField filter = new TextField();
    filter.setId("reconcile-filter");
    filter.setPromptText("key, kind or rule");
    binder.bindBidirectional(filter.textProperty(), model.filterProperty());
    Label fl = new Label("_Filter");
    fl.setMnemonicParsing(true);
    fl.setLabelFor(filter);
    Button ackKey = Widgets.button("ack-key", "Acknowledge _key…");
    ackKey.setOnAction(e -> model.acknowledgeKey(keys.getSelectionModel().getSelectedItem()));
    binder.bind(ackKey.disableProperty(), Bindings.createBooleanBinding(() -> {
      Diff.KeyDiff k = keys.getSelectionModel().getSelectedItem();
      return k == null || k.expected() || model.acknowledged(k);
    }, keys.getSelectionModel().selectedItemProperty(), model.reportProperty()).or(model.activity().runningProperty()));
    Button ackHour = Widgets.button("ack-hour", "Acknowledge _whole hour…");
    ackHour.setOnAction(e -> model.acknowledgeHour());
    binder.bind(ackHour.disableProperty(), Bindings.createBooleanBinding(() -> model.shownKeys().stream()
        .noneMatch(k -> !k.expected() && !model.acknowledged(k)), model.shownKeys(), model.reportProperty())
        .or(model.activity().runningProperty()));
    Label hour = Widgets.wrap(Widgets.label("reconcile-hour"));
    Widgets.wrap(hour);
    binder.bind(hour.textProperty(), Bindings.createStringBinding(() -> Verdicts.hour(model.reportProperty().get(),
        model.selectedHourProperty().get()), model.reportProperty(), model.selectedHourProperty()));
    binder.mirror(keys.getItems(), model.shownKeys());
    VBox.setVgrow(keys, Priority.ALWAYS);
    // Its header and a few rows at least; the rest of the height goes to it when the window has some.
    keys.setMinHeight(90);
    VBox table = new VBox(8, hour, Widgets.row(8, fl, filter, Widgets.spacer(), ackKey, ackHour), keys);
    table.getStyleClass().add("card");
    table.setPadding(new javafx.geometry.Insets(12, 16, 12, 16));

    SplitPane split = new SplitPane(charts, table);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.56);
    return split;
  }

  private Node swatch(String text, String styleClass) {
    Region r = new Region();
    r.getStyleClass().addAll("swatch", styleClass);
    Label l = Widgets.whole(Widgets.muted(text));
    return Widgets.row(5, r, l);
  }

  public TotalsChart totals() {
    return totals;
  }

  public DeltaChart delta() {
    return delta;
  }

  public CoverageStrip coverage() {
    return coverage;
  }

  @Override
  public Node root() {
    return root;
  }
}
