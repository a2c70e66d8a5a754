package dev.cutover.ui.cutover;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
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

  private final CutoverController controller;

  public CutoverView(CutoverModel model, CutoverController controller) {
    this.controller = controller;
    VBox left = gateCard(model);
    left.setPrefWidth(560);
    HBox.setHgrow(left, Priority.ALWAYS);
    VBox result = resultCard(model);
    VBox.setVgrow(result, Priority.ALWAYS);
    VBox nodes = nodesCard(model);
    VBox right = new VBox(14, nodes, result, retentionCard(model));
    right.setPrefWidth(420);
    right.setMinWidth(340);
    root.getChildren().addAll(left, right);
  }

  private VBox gateCard(CutoverModel model) {
    TableSpec spec = model.spec();
    Label summary = Widgets.wrap(Widgets.label("gate-summary", "state-label"));
    // While the server does not answer the gate is a third thing, unknown: never the last green or red seen.
    binder.bind(summary.textProperty(), Bindings.createStringBinding(() -> !model.unknownProperty().get().isEmpty()
        ? model.unknownProperty().get() : GateWords.headline(model.gateProperty().get(),
            model.retentionProperty().get(), model.repairProperty().get(), model.lastSwapProperty().get()),
        model.unknownProperty(), model.gateProperty(), model.retentionProperty(), model.repairProperty(),
        model.lastSwapProperty()));
    Runnable summaryTone = () -> {
      Gate g = model.gateProperty().get();
      summary.getStyleClass().removeAll("good", "bad", "warn", "neutral", "gate-unknown");
      if (!model.unknownProperty().get().isEmpty()) {
        summary.getStyleClass().add("gate-unknown");
      } else if (g != null) {
        summary.getStyleClass().add(GateWords.tone(g, model.repairProperty().get()));
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
          case UNKNOWN -> model.clusterProperty().get() ? "different versions on different nodes (each node's line "
              + "says which)" : "neither version";
        } + ".").orElse(""));

    GridPane conditions = new GridPane();
    conditions.setId("gate-conditions");
    conditions.setHgap(12);
    conditions.setVgap(8);
    ColumnConstraints name = new ColumnConstraints(200);
    ColumnConstraints detail = new ColumnConstraints();
    detail.setHgrow(Priority.ALWAYS);
    conditions.getColumnConstraints().addAll(name, detail);
    binder.watch(model.gateProperty(), g -> {
      conditions.getChildren().clear();
      if (g == null) {
        return;
      }
      int row = 0;
      // What blocks the step first: violated, then not yet, then met, each kept in the gate's own order.
      for (Gate.Condition c : g.conditions().stream().sorted(java.util.Comparator.comparingInt(c -> switch (
          c.standing()) {
            case VIOLATED -> 0;
            case NOT_YET -> 1;
            case MET -> 2;
          })).toList()) {
        // Met (ticked), not yet (a dash, neutral: the procedure has not got there), violated (empty, red).
        CheckBox box = new CheckBox(c.name());
        box.setMnemonicParsing(false);
        box.setId("gate-" + c.name().replace(' ', '-'));
        box.setAllowIndeterminate(true);
        box.setSelected(c.met());
        box.setIndeterminate(c.standing() == Gate.Standing.NOT_YET);
        box.setMouseTransparent(true);
        box.setFocusTraversable(false);
        box.getStyleClass().addAll("gate-check", switch (c.standing()) {
          case MET -> "met";
          case NOT_YET -> "not-yet";
          case VIOLATED -> "unmet";
        });
        Label d = new Label((c.standing() == Gate.Standing.NOT_YET ? "Not yet: " : "") + c.detail());
        Widgets.wrap(d);
        d.getStyleClass().add(switch (c.standing()) {
          case MET, NOT_YET -> "muted";
          case VIOLATED -> "error-text";
        });
        GridPane.setValignment(box, VPos.TOP);
        conditions.addRow(row++, box, d);
      }
    });

    // No refusal stands on the screen before anything was clicked: the closed gate's conditions say what is unmet, and
    // the refusal is said where a step is refused (the confirmation dialog's gate judged again, the step's error).
    Label judged = Widgets.wrap(Widgets.label("gate-judged", "muted"));
    binder.bind(judged.textProperty(), Bindings.createStringBinding(() -> GateWords.judged(model.gateProperty().get(),
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
    refresh.setOnAction(e -> controller.refresh());
    Button cut = Widgets.danger(Widgets.button("cutover-run", "Cut _over…"));
    cut.setOnAction(e -> controller.cutover());
    Button back = Widgets.danger(Widgets.button("rollback-run", "Ro_llback…"));
    back.setOnAction(e -> controller.rollback());
    var busy = model.activity().runningProperty();
    var offline = Bindings.not(model.onlineProperty());
    binder.bind(refresh.disableProperty(), busy.or(offline));
    // Each step is offered only through its own gate, only while that gate is open and the server answers.
    binder.bind(cut.disableProperty(), Bindings.createBooleanBinding(() -> !GateWords.opens(model.gateProperty().get(),
        Gate.CUTOVER), model.gateProperty()).or(busy).or(offline));
    binder.bind(back.disableProperty(), Bindings.createBooleanBinding(() -> !GateWords.opens(model.gateProperty().get(),
        Gate.ROLLBACK), model.gateProperty()).or(busy).or(offline));
    // Armed, the cutover runs by itself the first time the gate opens within the window; offered while consumers read
    // v1 on one server and nothing is armed, and disarmed at any time.
    Button arm = Widgets.danger(Widgets.button("arm-run", "_Arm cutover…"));
    arm.setOnAction(e -> controller.arm());
    Button disarm = Widgets.button("disarm-run", "Disar_m");
    disarm.setOnAction(e -> controller.disarm());
    binder.bind(arm.disableProperty(), Bindings.createBooleanBinding(() -> model.armedProperty().get() != null
        || model.gateProperty().get() == null || !model.gateProperty().get().step().equals(Gate.CUTOVER),
        model.armedProperty(), model.gateProperty()).or(model.clusterProperty()).or(busy).or(offline));
    binder.bind(disarm.visibleProperty(), model.armedProperty().isNotNull());
    binder.bind(disarm.managedProperty(), disarm.visibleProperty());
    binder.bind(disarm.disableProperty(), busy.or(offline));
    Label armLine = Widgets.wrap(Widgets.label("arm-line"));
    binder.bind(armLine.textProperty(), model.armLineProperty());
    binder.bind(armLine.visibleProperty(), model.armLineProperty().isNotEmpty());
    binder.bind(armLine.managedProperty(), armLine.visibleProperty());
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
    VBox card = Widgets.card("Gate", summary, version, Widgets.row(8, refresh, cut, back, arm, disarm), armLine, safety,
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
   * On a sharded table: each node's version and gate, and each node's switch as it happens. Hidden on one
   * server, whose gate is the whole.
   */
  private VBox nodesCard(CutoverModel model) {
    var gates = sentences("cutover-nodes", model.nodeLines(), "Refresh the gate to judge every node's.");
    gates.setPrefHeight(130);
    gates.setMinHeight(100);
    var swaps = sentences("cutover-node-swaps", model.swapLines(), "No switch of every node from this console yet: a "
        + "cutover or rollback switches one node at a time, each verified, all or nothing, and each node's line "
        + "shows here as it switches.");
    swaps.setPrefHeight(130);
    swaps.setMinHeight(100);
    VBox card = Widgets.card("Nodes", gates, Widgets.muted("Switch per node:"), swaps);
    card.setId("cutover-nodes-card");
    binder.bind(card.visibleProperty(), model.clusterProperty());
    binder.bind(card.managedProperty(), card.visibleProperty());
    return card;
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
    // The window the check read; the verification below counts the hours in it that hold rows.
    Widgets.fact(g, "Checked window", swapLabel(model, "swap-hour", s -> s.verifiedWindow() + " ("
        + Formats.hours(s.verifiedWindow().hours()) + ")"));
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
    binder.bind(horizon.textProperty(), model.retentionProperty().map(GateWords::retention).orElse("—"));
    Button clean = Widgets.button("cleanup-run", "Clea_n up staging…");
    clean.setOnAction(e -> controller.cleanup());
    binder.bind(clean.disableProperty(), model.activity().runningProperty());
    Button drop = Widgets.danger(Widgets.button("drop-v1", "_Drop v1…"));
    drop.setOnAction(e -> controller.dropV1());
    binder.bind(drop.disableProperty(), javafx.beans.binding.Bindings.createBooleanBinding(
        () -> model.activity().running() || model.retentionProperty().get() == null
            || model.retentionProperty().get().keepUntil().isEmpty()
            || model.retentionProperty().get().droppedAt().isPresent(),
        model.activity().runningProperty(), model.retentionProperty()));
    // On a sharded table both act on every node: each node's checks pass before any node drops v1.
    var cluster = javafx.beans.binding.BooleanExpression.booleanExpression(model.clusterProperty());
    Label shardsOnly = Widgets.wrap(Widgets.muted("On a sharded table, dropping v1 and cleaning up staging act on "
        + "every node; v1 is dropped on none unless every node's checks pass."));
    shardsOnly.setId("cutover-cluster-drop");
    binder.bind(shardsOnly.visibleProperty(), cluster);
    binder.bind(shardsOnly.managedProperty(), cluster);
    Label result = Widgets.label("cleanup-result", "muted");
    Widgets.wrap(result);
    binder.bind(result.textProperty(), model.cleanupProperty());
    Label dropped = Widgets.label("drop-result", "strong");
    Widgets.wrap(dropped);
    binder.bind(dropped.textProperty(), model.dropResultProperty());
    binder.bind(dropped.managedProperty(), model.dropResultProperty().isNotEmpty());
    binder.bind(dropped.visibleProperty(), dropped.managedProperty());
    return Widgets.card("Retention of v1", horizon, Widgets.row(8, clean, drop), shardsOnly,
        Widgets.safety("drop-safety", Safety.DROP_V1), result, dropped);
  }

  @Override
  public Node root() {
    return root;
  }
}
