package dev.cutover.ui.plan;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Safety;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import javafx.beans.binding.Bindings;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.DatePicker;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.converter.LocalDateStringConverter;
import org.controlsfx.control.RangeSlider;

/**
 * The plan screen: choose the range (date pickers and a range slider over the reprocessing window)
 * and the boundary behind the live edge, see the plan with its exact statements; then the
 * preflight and sample tabs.
 */
public final class PlanView extends ScreenView {

  private final TabPane tabs = new TabPane();
  private boolean syncing;

  private final PlanController controller;

  public PlanView(PlanModel model, PlanController controller) {
    this.controller = controller;
    tabs.setId("plan-tabs");
    tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
    Tab range = new Tab("Range and boundary", rangeTab(model));
    range.setId("tab-range");
    Tab preflight = new Tab("Preflight", new PreflightPane(model.preflight(), controller.preflight(), binder).root());
    preflight.setId("tab-preflight");
    Tab sample = new Tab("Sample", new SamplePane(model.sample(), controller.sample(), binder).root());
    sample.setId("tab-sample");
    tabs.getTabs().addAll(range, preflight, sample);
  }

  private Node rangeTab(PlanModel model) {
    GridPane form = Widgets.facts(130);
    Label start = Widgets.label("plan-window-start");
    binder.bind(start.textProperty(), model.windowStartProperty().map(h -> h + " UTC (oldest hour every source holds)")
        .orElse("—"));
    Label edge = Widgets.label("plan-live-edge");
    binder.bind(edge.textProperty(), model.liveProperty().map(PlanView::liveText).orElse("—"));
    Widgets.fact(form, "Reprocessing from", start);
    Widgets.fact(form, "Live edge", edge);
    DatePicker from = datePicker("plan-from-date");
    DatePicker to = datePicker("plan-to-date");
    binder.watch(model.fromProperty(), h -> from.setValue(h == null ? null : date(h)));
    binder.watch(model.toProperty(), h -> to.setValue(h == null ? null : date(h.plusHours(-1))));
    from.setOnAction(e -> model.setFromDate(from.getValue()));
    to.setOnAction(e -> model.setToDate(to.getValue()));
    Widgets.field(form, "_From", from);
    Widgets.field(form, "T_o (last day)", to);
    VBox slider = slider(model);
    form.add(slider, 0, form.getRowCount(), 2, 1);
    TextField boundary = new TextField();
    boundary.setId("plan-boundary");
    boundary.setPrefColumnCount(13);
    binder.bindBidirectional(boundary.textProperty(), model.boundaryProperty());
    boundary.setOnAction(e -> controller.makePlan());
    var pinned = model.repairProperty().map(r -> r.boundary().isPresent()).orElse(false);
    // Pinned by the repair: shown, selectable, not editable.
    binder.bind(boundary.editableProperty(), pinned.map(p -> !p));
    binder.watch(pinned, p -> {
      boundary.getStyleClass().remove("pinned");
      if (p) {
        boundary.getStyleClass().add("pinned");
      }
    });
    Button reset = Widgets.button("plan-boundary-reset", "_Safe default");
    reset.setOnAction(e -> model.resetBoundary());
    binder.bind(reset.disableProperty(), pinned);
    Widgets.field(form, "Bo_undary (UTC)", boundary, reset);
    Label hint = Widgets.wrap(Widgets.label("plan-boundary-hint", "muted"));
    binder.bind(hint.textProperty(), javafx.beans.binding.Bindings.createStringBinding(() -> boundaryHint(model),
        model.liveProperty(), model.repairProperty()));
    form.add(hint, 0, form.getRowCount(), 2, 1);
    Button abandon = Widgets.danger(Widgets.button("repair-abandon", "_Abandon repair…"));
    abandon.setOnAction(e -> controller.abandon());
    binder.bind(abandon.visibleProperty(), model.repairProperty().isNotNull());
    binder.bind(abandon.managedProperty(), abandon.visibleProperty());
    binder.bind(abandon.disableProperty(), model.activity().runningProperty());
    form.add(abandon, 0, form.getRowCount(), 2, 1);

    VBox left = Widgets.card("Range and boundary", form, actions(model), Widgets.safety("plan-safety", Safety.PLAN),
        Widgets.activityBar("plan-activity", binder, model.activity()),
        Widgets.errorLabel("plan-error", binder, model.activity().errorProperty()),
        Widgets.errorLabel("live-error", binder, model.liveErrorProperty()));
    left.setPrefWidth(470);
    left.setMinWidth(440);
    VBox right = summary(model);
    HBox.setHgrow(right, Priority.ALWAYS);
    HBox box = new HBox(16, left, right);
    box.getStyleClass().add("tab-body");
    return box;
  }

  static String boundaryHint(PlanModel model) {
    Repair r = model.repairProperty().get();
    if (r != null && r.boundary().isPresent()) {
      return "Pinned by repair " + r.id() + " when its first backfill started; abandon the repair to choose another. "
          + "The backfill writes only hours before it; the corrected live writer owns it and every hour after.";
    }
    LiveStatus live = model.liveProperty().get();
    return live == null ? "" : "Default: the live edge minus the spec's " + model.spec().safetyMargin().toHours()
        + " h safety margin, " + model.defaultBoundary() + ". The backfill writes only hours before the boundary; the "
        + "corrected live writer owns it and every hour after. The first backfill pins it for the whole repair.";
  }

  static String liveText(LiveStatus l) {
    return l.liveEdge().map(e -> e + " UTC").orElse("none") + (l.lag().isZero() ? ", caught up"
        : ", lagging " + Formats.duration(l.lag()));
  }

  private static DatePicker datePicker(String id) {
    DatePicker p = new DatePicker();
    p.setId(id);
    p.setPrefWidth(150);
    p.setConverter(new LocalDateStringConverter(DateTimeFormatter.ISO_LOCAL_DATE, DateTimeFormatter.ISO_LOCAL_DATE));
    p.setPromptText("yyyy-mm-dd");
    return p;
  }

  private VBox slider(PlanModel model) {
    RangeSlider slider = new RangeSlider(0, 1, 0, 1);
    slider.setId("plan-range-slider");
    slider.setBlockIncrement(1);
    slider.setMajorTickUnit(24);
    slider.setShowTickMarks(true);
    slider.setMaxWidth(Double.MAX_VALUE);
    Label text = Widgets.wrap(Widgets.label("plan-range"));
    binder.bind(text.textProperty(), Bindings.createStringBinding(() -> rangeText(model.fromProperty().get(),
        model.toProperty().get()), model.fromProperty(), model.toProperty()));
    Runnable push = () -> {
      HourPartition start = model.windowStartProperty().get();
      LiveStatus live = model.liveProperty().get();
      if (start == null || live == null || live.liveEdge().isEmpty()) {
        return;
      }
      syncing = true;
      slider.setMax(hoursBetween(start, live.liveEdge().get().plusHours(1)));
      if (model.fromProperty().get() != null && model.toProperty().get() != null) {
        slider.setLowValue(0);
        slider.setHighValue(hoursBetween(start, model.toProperty().get()));
        slider.setLowValue(hoursBetween(start, model.fromProperty().get()));
      }
      syncing = false;
    };
    binder.onChange(model.fromProperty(), h -> push.run());
    binder.onChange(model.toProperty(), h -> push.run());
    binder.onChange(model.liveProperty(), h -> push.run());
    push.run();
    Runnable pull = () -> {
      if (!syncing) {
        model.setRangeHours(Math.round(slider.getLowValue()), Math.round(slider.getHighValue()));
      }
    };
    slider.lowValueProperty().addListener((o, a, b) -> pull.run());
    slider.highValueProperty().addListener((o, a, b) -> pull.run());
    return new VBox(4, slider, text);
  }

  static String rangeText(HourPartition from, HourPartition to) {
    if (from == null || to == null) {
      return "No range yet.";
    }
    return from + " to " + to + " UTC (end excluded), " + Formats.hours(hoursBetween(from, to));
  }

  private HBox actions(PlanModel model) {
    Button plan = Widgets.button("plan-make", "Make p_lan");
    plan.setDefaultButton(true);
    plan.setOnAction(e -> controller.makePlan());
    binder.bind(plan.disableProperty(), model.activity().runningProperty());
    Button reload = Widgets.button("plan-reload", "R_eread window");
    reload.setOnAction(e -> controller.loadWindow());
    return Widgets.row(8, plan, reload);
  }

  private VBox summary(PlanModel model) {
    GridPane g = Widgets.facts(150);
    Widgets.fact(g, "Hours", planLabel(model, "plan-hours", p -> Formats.hours(p.hours().size()) + " before the "
        + "boundary, " + Formats.hours(p.range().hours()) + " in the range"));
    Widgets.fact(g, "Range", planLabel(model, "plan-summary-range", p -> p.range().toString()));
    Widgets.fact(g, "Recomputed", planLabel(model, "plan-affected", p -> p.affected().map(a -> Formats.hours(
        p.computed().size()) + ", the affected hours " + a + "; " + Formats.hours(p.carried().size()) + " carried "
        + "unchanged from " + p.spec().liveTable() + " by REPLACE PARTITION, no recompute").orElse("every hour of the "
        + "range (the spec names no affected window)")));
    Widgets.fact(g, "Boundary", planLabel(model, "plan-summary-boundary", p -> p.boundary() + " UTC"));
    Widgets.fact(g, "Live edge", planLabel(model, "plan-summary-edge", p -> p.liveEdge() + " UTC (when planned)"));
    Widgets.fact(g, "Overlap", planLabel(model, "plan-overlap", p -> p.overlap().map(o -> o + ", "
        + Formats.hours(o.hours()) + " written by both live writers").orElse("none yet: the live edge is not past "
        + "the boundary")));
    Widgets.fact(g, "Sources", planLabel(model, "plan-sources", p -> "about " + Formats.count(p.estimates().sourceRows())
        + " rows, " + Formats.bytes(p.estimates().sourceBytes())));
    Widgets.fact(g, "Estimate", planLabel(model, "plan-estimate", p -> Formats.duration(p.estimates().duration())
        + " at " + p.settings().concurrency() + " batch(es) of " + p.settings().batchHours() + " h at once (one sample "
        + "hour took " + Formats.duration(p.estimates().sampleHour()) + ")"));
    TextArea statements = new TextArea();
    statements.setId("plan-statements");
    statements.setEditable(false);
    statements.getStyleClass().add("mono");
    statements.setWrapText(true);
    binder.bind(statements.textProperty(), model.planProperty().map(p -> String.join(";\n\n", p.statements()) + ";")
        .orElse(""));
    VBox.setVgrow(statements, Priority.ALWAYS);
    Label st = Widgets.muted("The statements of the first batch, exactly as they will run:");
    VBox card = Widgets.card("Plan", g, st, statements);
    return card;
  }

  private Label planLabel(PlanModel model, String id, java.util.function.Function<Plan, String> text) {
    Label l = Widgets.label(id);
    binder.bind(l.textProperty(), model.planProperty().map(text).orElse("—"));
    return l;
  }

  static long hoursBetween(HourPartition a, HourPartition b) {
    return Duration.between(a.start(), b.start()).toHours();
  }

  private static LocalDate date(HourPartition h) {
    return h.start().atZone(ZoneOffset.UTC).toLocalDate();
  }

  public TabPane tabs() {
    return tabs;
  }

  @Override
  public Node root() {
    return tabs;
  }
}
