package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Palette;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import java.util.Locale;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableView;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The reconcile screen: the verdict, then, in a split pane, the charts over the hours in view (v1 and
 * v2 totals, v2 − v1 per hour by class, which writer owns each hour) and the keys of the hour the
 * operator picks, with acknowledgement and export. The charts open on the overlap since B when there
 * is one; their window is chosen, zoomed and panned without reading the server again.
 */
public final class ReconcileView extends ScreenView {

  /** Rows of the key table shown at 1280 × 800 when the screen opens. */
  static final int KEY_ROWS = 10;

  private final VBox root = new VBox(6);
  private final DeltaChart delta = new DeltaChart();
  private final CoverageStrip coverage = new CoverageStrip();
  private final TotalsChart totals = new TotalsChart();
  private final TableView<Diff.KeyDiff> keys;
  private final SplitPane split;

  private final ReconcileController controller;
  /** Every measure's totals of the report shown, laid out once when it arrives. */
  private MeasureTotals laidOut = MeasureTotals.NONE;

  public ReconcileView(ReconcileModel model, ReconcileController controller) {
    this.controller = controller;
    TableSpec spec = model.workspace().spec();
    keys = KeyTable.of(spec, model::acknowledged);
    ChartWindow window = model.window();
    for (HourCanvas c : new HourCanvas[] {totals, delta, coverage}) {
      c.window(window);
      c.setOnSelect(model.selectedHourProperty()::set);
    }
    split = body(model, spec);
    root.getChildren().addAll(header(model), split);
    VBox.setVgrow(split, Priority.ALWAYS);

    Runnable redraw = () -> {
      Palette p = model.workspace().paletteProperty().get();
      totals.show(model.selectedHourProperty().get(), p);
      delta.show(model.selectedHourProperty().get(), p);
      coverage.show(model.selectedHourProperty().get(), p);
    };
    // A new report lays out the hours' classes and a new measure its totals, once each; the window, selection
    // and theme only redraw. The coverage strip does not show a measure and is not redrawn for one.
    Runnable layOutMeasure = () -> {
      totals.measure(model.measureProperty().get(), laidOut);
      delta.measure(model.measureProperty().get(), laidOut);
    };
    binder.watch(model.reportProperty(), r -> {
      HourClasses classes = HourClasses.of(r);
      for (HourCanvas c : new HourCanvas[] {totals, delta, coverage}) {
        c.report(r, classes);
      }
      laidOut = MeasureTotals.of(r);
      layOutMeasure.run();
      redraw.run();
    });
    binder.onChange(model.measureProperty(), m -> {
      layOutMeasure.run();
      Palette p = model.workspace().paletteProperty().get();
      totals.show(model.selectedHourProperty().get(), p);
      delta.show(model.selectedHourProperty().get(), p);
    });
    binder.onChange(window.spanProperty(), s -> redraw.run());
    binder.onChange(model.selectedHourProperty(), h -> redraw.run());
    binder.onChange(model.workspace().paletteProperty(), p -> redraw.run());
  }

  private VBox header(ReconcileModel model) {
    Button run = Widgets.button("reconcile-run", "Reconcile _now");
    run.setDefaultButton(true);
    run.setOnAction(e -> controller.reconcile());
    binder.bind(run.disableProperty(), model.activity().runningProperty());
    Spinner<Integer> limit = new Spinner<>(100, 1_000_000, model.keyLimitProperty().get(), 1000);
    limit.setId("reconcile-key-limit");
    limit.setEditable(true);
    limit.setPrefWidth(100);
    limit.setMinWidth(Region.USE_PREF_SIZE);
    limit.valueProperty().addListener((o, a, b) -> model.keyLimitProperty().set(b));
    Label ll = Widgets.labelFor("Key _limit", limit);
    Button csv = Widgets.button("export-csv", "C_SV…");
    csv.setOnAction(e -> controller.export("csv"));
    Button html = Widgets.button("export-html", "HT_ML…");
    html.setOnAction(e -> controller.export("html"));
    var noReport = model.reportProperty().isNull();
    binder.bind(csv.disableProperty(), noReport);
    binder.bind(html.disableProperty(), noReport);

    // The verdict of the report shown, or of the newest stored one until a reconciliation runs here.
    Label verdict = Widgets.label("verdict", "verdict");
    binder.bind(verdict.textProperty(), Bindings.createStringBinding(() -> model.reportProperty().get() != null
        ? Verdicts.headline(model.reportProperty().get()) + (model.showsStored() ? " (stored)" : "")
        : model.storedProperty().get() != null
            ? Verdicts.headline(model.storedProperty().get()) + " (stored)" : "No reconciliation yet",
        model.reportProperty(), model.storedProperty()));
    Runnable tone = () -> {
      verdict.getStyleClass().removeAll("verdict-green", "verdict-acknowledged", "verdict-red", "verdict-none");
      Reconciliation.Verdict v = model.reportProperty().get() != null ? model.reportProperty().get().verdict()
          : model.storedProperty().get() != null ? model.storedProperty().get().verdict() : null;
      verdict.getStyleClass().add(v == null ? "verdict-none" : "verdict-" + v.name().toLowerCase(Locale.ROOT));
    };
    binder.watch(model.reportProperty(), r -> tone.run());
    binder.onChange(model.storedProperty(), s -> tone.run());
    verdict.setMaxWidth(Double.MAX_VALUE);
    verdict.setMinWidth(120);
    // The verdict is read whole: a long one wraps onto a second line rather than ending in an ellipsis.
    Widgets.wrap(verdict);
    HBox.setHgrow(verdict, Priority.ALWAYS);
    Label export = Widgets.whole(Widgets.muted("Export"));
    HBox actions = Widgets.row(10, run, ll, limit, verdict, export, csv, html);

    Label scope = Widgets.wrap(Widgets.label("reconcile-scope", "strong"));
    binder.bind(scope.textProperty(), Bindings.createStringBinding(() -> model.reportProperty().get() != null
        ? Verdicts.scope(model.reportProperty().get()) : model.storedProperty().get() != null
            ? Verdicts.scope(model.storedProperty().get()) : "Only a reconciliation of the whole repair opens the "
                + "cutover gate.", model.reportProperty(), model.storedProperty()));
    scope.setMaxWidth(Double.MAX_VALUE);
    Label detail = Widgets.wrap(Widgets.label("verdict-detail", "muted"));
    binder.bind(detail.textProperty(), Bindings.createStringBinding(() -> model.reportProperty().get() == null
        ? model.noteProperty().get() : Verdicts.detail(model.reportProperty().get()) + (model.noteProperty().get()
            .isEmpty() ? "" : " " + model.noteProperty().get()), model.reportProperty(), model.noteProperty()));
    detail.setMaxWidth(Double.MAX_VALUE);
    // The measures a corrected view deduplicates per insert block: the verdict names them, as a caution.
    Label blockBound = Widgets.wrap(Widgets.label("reconcile-block-bound", "warn"));
    binder.bind(blockBound.textProperty(), model.blockBoundProperty());
    binder.bind(blockBound.visibleProperty(), model.blockBoundProperty().isNotEmpty());
    binder.bind(blockBound.managedProperty(), blockBound.visibleProperty());
    blockBound.setMaxWidth(Double.MAX_VALUE);
    // Which hours the verdict covers and whether it counts, right above what the step guarantees.
    VBox guarantee = new VBox(1, scope, Widgets.safety("reconcile-safety", Safety.RECONCILE));
    return new VBox(4, actions, detail, blockBound, guarantee,
        Widgets.activityBar("reconcile-activity", binder, model.activity()),
        Widgets.errorLabel("reconcile-error", binder, model.activity().errorProperty()));
  }

  private SplitPane body(ReconcileModel model, TableSpec spec) {
    VBox charts = new ChartPanel(binder, model, spec, totals, delta, coverage).root();
    HBox table = new KeyPanel(binder, model, controller, keys).root();
    SplitPane pane = new SplitPane(charts, table);
    pane.setId("reconcile-split");
    pane.setOrientation(Orientation.VERTICAL);
    // Both parts keep their share when the screen's height changes (a progress bar or an error above them
    // comes and goes): a part that kept its pixels would not get them back when the height returns.
    placeDivider(pane, table);
    return pane;
  }

  /**
   * Keeps the divider where the key table shows {@link #KEY_ROWS} rows and the charts have the rest,
   * whatever the height of the screen and of what is above the pane (a progress bar or an error that
   * comes and goes), until the operator drags the divider: from then on it stays where they put it.
   */
  private void placeDivider(SplitPane pane, HBox table) {
    pane.setDividerPositions(0.5);
    boolean[] operator = {false};
    pane.addEventFilter(MouseEvent.MOUSE_DRAGGED, e -> {
      if (e.getTarget() instanceof Node n && (n.getStyleClass().contains("split-pane-divider")
          || n.getParent() != null && n.getParent().getStyleClass().contains("split-pane-divider"))) {
        operator[0] = true;
      }
    });
    Runnable fit = () -> {
      double height = pane.getHeight();
      if (operator[0] || height <= 0 || pane.getDividers().isEmpty()) {
        return;
      }
      double rows = keys.lookup(".clipped-container") instanceof Region r ? r.getHeight() : -1;
      double wanted = KEY_ROWS * KeyTable.ROW + 2;
      double change = rows > 0 ? wanted - rows : wanted + KeyTable.CHROME + table.getInsets().getTop()
          + table.getInsets().getBottom() - table.getHeight();
      if (Math.abs(change) >= 1) {
        SplitPane.Divider d = pane.getDividers().getFirst();
        d.setPosition(Math.max(0.25, Math.min(0.9, d.getPosition() - change / height)));
      }
    };
    pane.heightProperty().addListener(o -> Platform.runLater(fit));
    keys.heightProperty().addListener(o -> Platform.runLater(fit));
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

  public TableView<Diff.KeyDiff> keys() {
    return keys;
  }

  /** The charts and ten rows of keys need the height at 1280 × 800; the banner says the rest on "More". */
  @Override
  public boolean compactBanner() {
    return true;
  }

  @Override
  public Node root() {
    return root;
  }
}
