package dev.cutover.ui.cutover;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import java.time.Instant;
import javafx.beans.binding.Bindings;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The cutover screen: the gate checklist, the swap and its result, rollback, retention and clean-up. */
public final class CutoverView extends ScreenView {

  private final HBox root = new HBox(14);

  public CutoverView(CutoverModel model) {
    VBox left = gateCard(model);
    left.setPrefWidth(560);
    HBox.setHgrow(left, Priority.ALWAYS);
    VBox result = resultCard(model);
    VBox.setVgrow(result, Priority.ALWAYS);
    VBox right = new VBox(14, result, retentionCard(model));
    right.setPrefWidth(420);
    right.setMinWidth(340);
    root.getChildren().addAll(left, right);
  }

  private VBox gateCard(CutoverModel model) {
    TableSpec spec = model.spec();
    Label summary = Widgets.wrap(Widgets.label("gate-summary", "state-label"));
    // While the server does not answer the gate is a third thing, unknown: never the last green or red seen.
    binder.bind(summary.textProperty(), Bindings.createStringBinding(() -> !model.unknownProperty().get().isEmpty()
        ? model.unknownProperty().get() : headline(model.gateProperty().get(), model.retentionProperty().get(),
            model.repairProperty().get(), model.lastSwapProperty().get()),
        model.unknownProperty(), model.gateProperty(), model.retentionProperty(), model.repairProperty(),
        model.lastSwapProperty()));
    Runnable summaryTone = () -> {
      Gate g = model.gateProperty().get();
      summary.getStyleClass().removeAll("good", "bad", "warn", "gate-unknown");
      if (!model.unknownProperty().get().isEmpty()) {
        summary.getStyleClass().add("gate-unknown");
      } else if (g != null) {
        summary.getStyleClass().add(tone(g, model.repairProperty().get()));
      }
    };
    binder.watch(model.gateProperty(), g -> summaryTone.run());
    binder.onChange(model.unknownProperty(), u -> summaryTone.run());
    Label version = Widgets.label("consumer-version");
    Widgets.wrap(version);
    binder.bind(version.textProperty(), model.gateProperty().map(g -> "Consumers of " + spec.consumerView()
        + " read " + switch (g.current()) {
          case V1 -> "v1 (" + spec.liveTable() + ")";
          case V2 -> "v2 (" + spec.targetTable() + ")";
          case UNKNOWN -> "neither version";
        } + ".").orElse(""));

    GridPane conditions = new GridPane();
    conditions.setId("gate-conditions");
    conditions.setHgap(12);
    conditions.setVgap(8);
    ColumnConstraints name = new ColumnConstraints(170);
    ColumnConstraints detail = new ColumnConstraints();
    detail.setHgrow(Priority.ALWAYS);
    conditions.getColumnConstraints().addAll(name, detail);
    binder.watch(model.gateProperty(), g -> {
      conditions.getChildren().clear();
      if (g == null) {
        return;
      }
      int row = 0;
      for (Gate.Condition c : g.conditions()) {
        CheckBox box = new CheckBox(c.name());
        box.setMnemonicParsing(false);
        box.setId("gate-" + c.name().replace(' ', '-'));
        box.setSelected(c.met());
        box.setMouseTransparent(true);
        box.setFocusTraversable(false);
        box.getStyleClass().addAll("gate-check", c.met() ? "met" : "unmet");
        Label d = new Label(c.detail());
        Widgets.wrap(d);
        d.getStyleClass().add(c.met() ? "muted" : "error-text");
        GridPane.setValignment(box, VPos.TOP);
        conditions.addRow(row++, box, d);
      }
    });

    // A closed gate's refusal, exactly as the engine words it: the sentence the step itself would refuse with.
    Label refusal = Widgets.wrap(Widgets.label("gate-refusal"));
    binder.bind(refusal.textProperty(), model.gateProperty().map(g -> g.open() || done(g) ? "" : g.refusal())
        .orElse(""));
    binder.watch(model.gateProperty(), g -> {
      refusal.getStyleClass().removeAll("error-text", "warn");
      refusal.getStyleClass().add(g != null && g.step().equals(Gate.ROLLBACK) ? "warn" : "error-text");
    });
    binder.bind(refusal.managedProperty(), refusal.textProperty().isNotEmpty());
    binder.bind(refusal.visibleProperty(), refusal.managedProperty());
    Label judged = Widgets.wrap(Widgets.label("gate-judged", "muted"));
    binder.bind(judged.textProperty(), Bindings.createStringBinding(() -> judged(model.gateProperty().get(),
        model.judgedAtProperty().get()), model.gateProperty(), model.judgedAtProperty()));
    binder.bind(judged.managedProperty(), judged.textProperty().isNotEmpty());
    binder.bind(judged.visibleProperty(), judged.managedProperty());

    TextArea statement = new TextArea();
    statement.setId("cutover-statement");
    statement.setEditable(false);
    statement.setWrapText(true);
    statement.setPrefRowCount(2);
    statement.getStyleClass().add("mono");
    binder.bind(statement.textProperty(), model.statementProperty());

    Button refresh = Widgets.button("gate-refresh", "Refresh _gate");
    refresh.setOnAction(e -> model.refresh());
    Button cut = Widgets.button("cutover-run", "Cut _over…");
    cut.setOnAction(e -> model.cutover());
    Button back = Widgets.button("rollback-run", "Ro_llback…");
    back.setOnAction(e -> model.rollback());
    var busy = model.activity().runningProperty();
    var offline = Bindings.not(model.onlineProperty());
    binder.bind(refresh.disableProperty(), busy.or(offline));
    // Each step is offered only through its own gate, only while that gate is open and the server answers.
    binder.bind(cut.disableProperty(), Bindings.createBooleanBinding(() -> !opens(model.gateProperty().get(),
        Gate.CUTOVER), model.gateProperty()).or(busy).or(offline));
    binder.bind(back.disableProperty(), Bindings.createBooleanBinding(() -> !opens(model.gateProperty().get(),
        Gate.ROLLBACK), model.gateProperty()).or(busy).or(offline));
    Label safety = Widgets.safety("gate-safety", "");
    binder.bind(safety.textProperty(), model.gateProperty().map(g -> g.step().equals(Gate.ROLLBACK) ? Safety.ROLLBACK
        : Safety.CUTOVER).orElse(Safety.CUTOVER));

    // The decision first (what is true, the refusal, the buttons, what the step guarantees), then the evidence.
    // The conditions scroll inside the card, so that the screen fits the window with the buttons in view.
    VBox evidence = new VBox(8, conditions, judged);
    ScrollPane scroll = new ScrollPane(evidence);
    scroll.setId("gate-conditions-scroll");
    scroll.setFitToWidth(true);
    scroll.getStyleClass().add("plain-scroll");
    scroll.setMinHeight(120);
    VBox.setVgrow(scroll, Priority.ALWAYS);
    VBox card = Widgets.card("Gate", summary, version, refusal, Widgets.row(8, refresh, cut, back), safety,
        Widgets.activityBar("cutover-activity", binder, model.activity()),
        Widgets.errorLabel("cutover-error", binder, model.activity().errorProperty()), scroll,
        Widgets.muted("The one statement that switches consumers, both ways:"), statement);
    Label title = (Label) card.getChildren().getFirst();
    title.setId("gate-title");
    binder.bind(title.textProperty(), model.gateProperty().map(g -> g.step().equals(Gate.ROLLBACK) ? "Rollback gate"
        : "Cutover gate").orElse("Gate"));
    return card;
  }

  /**
   * What is true of the consumers and the gate shown. After a cutover that is good news (consumers
   * read v2, and the way back is open until v1's retention horizon), never a closed cutover gate in red;
   * after a rollback it says that consumers read v1 again and since when, and what a new cutover needs.
   */
  static String headline(Gate g, Retention r, Repair repair, SwapResult lastSwap) {
    if (g == null) {
      return "Checking the gate…";
    }
    if (done(g)) {
      return "Cut over for good: v1 is dropped";
    }
    if (g.step().equals(Gate.ROLLBACK)) {
      String since = r == null ? "" : r.cutoverAt().map(t -> " since " + Formats.time(t)).orElse("");
      String until = r == null ? "" : r.keepUntil().map(t -> " until " + Formats.time(t)).orElse("");
      return "Consumers read v2" + since + "; " + (g.open() ? "rollback possible" + (until.isEmpty()
          ? " while v1 is kept" : until) : "rollback gate closed: " + g.unmet().size() + " condition(s) unmet");
    }
    if (rolledBack(g, repair)) {
      // The swap's own time when this console made it; else when the repair recorded the rollback.
      Instant since = lastSwap != null && lastSwap.action().equals(Gate.ROLLBACK) ? lastSwap.at() : repair.at();
      return "Consumers read v1 again since " + Formats.time(since) + " (rolled back); " + (g.open()
          ? "the cutover gate is open: every condition is met"
          : "cutting over again needs " + g.unmet().size() + " more condition(s)");
    }
    return g.open() ? "Cutover gate open: every condition is met"
        : "Cutover gate closed: " + g.unmet().size() + " condition(s) unmet";
  }

  /** Which hours the gate checked and when it was judged: a gate is a judgement of the data at one moment. */
  static String judged(Gate g, Instant at) {
    if (g == null || at == null) {
      return "";
    }
    return g.judged().map(w -> "The gate checked the data of " + Formats.hours(w.hours()) + ", " + w + ", at "
        + Formats.clock(at) + ".").orElse("The gate was judged at " + Formats.clock(at) + ".");
  }

  /** Whether consumers read v1 because a rollback put them back, rather than never having switched. */
  private static boolean rolledBack(Gate g, Repair repair) {
    return repair != null && repair.phase() == RepairPhase.ROLLED_BACK && g.current() == Gate.Version.V1;
  }

  private static boolean opens(Gate g, String step) {
    return g != null && g.step().equals(step) && g.open();
  }

  /** Green when the step shown may be taken or all is done; amber, not red, when a successful swap left a gate closed. */
  private static String tone(Gate g, Repair repair) {
    if (done(g) || g.open()) {
      return "good";
    }
    return g.step().equals(Gate.ROLLBACK) || rolledBack(g, repair) ? "warn" : "bad";
  }

  private VBox resultCard(CutoverModel model) {
    GridPane g = Widgets.facts(120);
    Widgets.fact(g, "Action", swapLabel(model, "swap-action", s -> s.action() + " at " + Formats.time(s.at())));
    Widgets.fact(g, "Versions", swapLabel(model, "swap-versions", s -> "consumers read " + s.before() + " before, "
        + s.after() + " after"));
    Widgets.fact(g, "Took", swapLabel(model, "swap-took", s -> Formats.duration(s.took()) + " (one metadata "
        + "statement)"));
    Label statement = swapLabel(model, "swap-statement", SwapResult::statement);
    statement.getStyleClass().add("mono");
    Widgets.fact(g, "Statement", statement);
    Widgets.fact(g, "Checked hours", swapLabel(model, "swap-hour", s -> s.verifiedWindow().hours() + " hours, "
        + s.verifiedWindow()));
    Label verification = swapLabel(model, "swap-verification", SwapResult::verification);
    binder.watch(model.lastSwapProperty(), s -> {
      verification.getStyleClass().removeAll("good", "bad");
      if (s != null) {
        verification.getStyleClass().add(s.verified() ? "good" : "bad");
      }
    });
    Widgets.fact(g, "Verification", verification);
    Label none = Widgets.muted("No cutover or rollback in this session yet. After one, its result shows here: the "
        + "statement, the versions before and after, how long it took, and the check that the view returns the "
        + "new version's rows.");
    Widgets.wrap(none);
    binder.bind(none.visibleProperty(), model.lastSwapProperty().isNull());
    binder.bind(none.managedProperty(), none.visibleProperty());
    binder.bind(g.visibleProperty(), model.lastSwapProperty().isNotNull());
    binder.bind(g.managedProperty(), g.visibleProperty());
    return Widgets.card("Result", none, g);
  }

  private Label swapLabel(CutoverModel model, String id, java.util.function.Function<SwapResult, String> text) {
    Label l = Widgets.label(id);
    Widgets.wrap(l);
    binder.bind(l.textProperty(), model.lastSwapProperty().map(text).orElse(""));
    return l;
  }

  private VBox retentionCard(CutoverModel model) {
    Label horizon = Widgets.label("retention");
    Widgets.wrap(horizon);
    binder.bind(horizon.textProperty(), model.retentionProperty().map(CutoverView::retention).orElse("—"));
    Button clean = Widgets.button("cleanup-run", "Clea_n up staging…");
    clean.setOnAction(e -> model.cleanup());
    binder.bind(clean.disableProperty(), model.activity().runningProperty());
    Button drop = Widgets.button("drop-v1", "_Drop v1…");
    drop.setOnAction(e -> model.dropV1());
    binder.bind(drop.disableProperty(), javafx.beans.binding.Bindings.createBooleanBinding(
        () -> model.activity().running() || model.retentionProperty().get() == null
            || model.retentionProperty().get().keepUntil().isEmpty()
            || model.retentionProperty().get().droppedAt().isPresent(),
        model.activity().runningProperty(), model.retentionProperty()));
    Label result = Widgets.label("cleanup-result", "muted");
    Widgets.wrap(result);
    binder.bind(result.textProperty(), model.cleanupProperty());
    Label dropped = Widgets.label("drop-result", "strong");
    Widgets.wrap(dropped);
    binder.bind(dropped.textProperty(), model.dropResultProperty());
    binder.bind(dropped.managedProperty(), model.dropResultProperty().isNotEmpty());
    binder.bind(dropped.visibleProperty(), dropped.managedProperty());
    return Widgets.card("Retention of v1", horizon, Widgets.row(8, clean, drop),
        Widgets.safety("drop-safety", Safety.DROP_V1), result, dropped);
  }

  /** Whether the procedure is over: v1 was dropped after the cutover. */
  private static boolean done(Gate g) {
    return g.v1Dropped() && g.current() == Gate.Version.V2;
  }

  static String retention(Retention r) {
    String basis = "v1 is kept for " + r.total().toHours() + " h after the cutover: the longest consumer cache ("
        + r.longestCacheConsumer() + ", " + r.longestCache().toHours() + " h) plus the reconciliation window ("
        + r.reconciliationWindow().toHours() + " h) plus a margin (" + r.margin().toHours() + " h).";
    if (r.droppedAt().isPresent()) {
      return "v1 was dropped at " + Formats.time(r.droppedAt().get()) + "; there is no rollback any more.";
    }
    return basis + " " + r.keepUntil().map(t -> "Consumers switched at " + Formats.time(r.cutoverAt().orElse(null))
        + "; v1 and the rollback stay until " + Formats.time(t) + ".").orElse("The horizon starts at the cutover.");
  }


  @Override
  public Node root() {
    return root;
  }
}
