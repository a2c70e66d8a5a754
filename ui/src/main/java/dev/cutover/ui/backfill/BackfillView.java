package dev.cutover.ui.backfill;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.Safety;
import dev.cutover.ui.common.Formats;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.common.Widgets;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Spinner;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The backfill screen: the run (state, progress, rate, ETA, the live writer's lag), its commands and
 * throttle, every hour as a cell of one canvas, and the corrected live writer's take-over from B.
 */
public final class BackfillView extends ScreenView {

  private final VBox root = new VBox(14);
  private final HourGrid grid;
  private final BackfillController controller;

  public BackfillView(BackfillModel model, BackfillController controller) {
    this.controller = controller;
    RunProgress p = model.progress();
    grid = new HourGrid(p.hours());
    VBox run = runCard(model, p);
    HBox.setHgrow(run, Priority.ALWAYS);
    VBox writer = new LiveWriterCard(model, controller, binder).card();
    // Wide enough that its sentences take few lines: the cards' height decides whether the hour grid below them is
    // on screen at 1280 × 800, and the run card needs no more than its buttons' row.
    writer.setPrefWidth(440);
    writer.setMinWidth(390);
    // The live edges it shows come from the same read as the runs.
    dimWhileStale(model, writer);
    HBox top = new HBox(14, run, writer);
    // The hour grid below never moves while a run starts, reports and ends: each move would repaint it whole.
    Widgets.keepTallest(top);
    VBox hours = hoursCard(model, p);
    dimWhileStale(model, hours);
    root.getChildren().addAll(top, hours);
  }

  private VBox runCard(BackfillModel model, RunProgress p) {
    MenuButton runs = new RunPicker(binder, model).node();
    // The card's title names the run picker beside it: a title above a row that says "Run" again took a line.
    Label runLabel = new Label("Run");
    runLabel.getStyleClass().add("card-title");
    runLabel.setLabelFor(runs);

    Label state = Widgets.label("run-state", "state-label");
    binder.bind(state.textProperty(), p.stateProperty());
    Label message = Widgets.label("run-message", "muted");
    Widgets.wrap(message);
    binder.bind(message.textProperty(), p.messageProperty());

    Button start = Widgets.button("backfill-start", "St_art backfill");
    Button pause = Widgets.button("backfill-pause", "Pa_use");
    Button resume = Widgets.button("backfill-resume", "R_esume");
    Button cancel = Widgets.button("backfill-cancel", "Ca_ncel run");
    Button resumeRun = Widgets.button("backfill-resume-run", "Resume st_opped run");
    start.setOnAction(e -> controller.start());
    pause.setOnAction(e -> controller.pause());
    resume.setOnAction(e -> controller.resume());
    cancel.setOnAction(e -> controller.cancel());
    resumeRun.setOnAction(e -> controller.resumeRun());
    var driving = model.drivenProperty().isNotNull();
    var busy = model.activity().runningProperty();
    BooleanBinding activeElsewhere = Bindings.createBooleanBinding(() -> model.drivenProperty().get() == null
        && p.recordProperty().get() != null && p.recordProperty().get().state().active() && !p.resumable(),
        model.drivenProperty(), p.recordProperty(), p.interruptedProperty());
    binder.bind(start.disableProperty(), driving.or(busy).or(activeElsewhere));
    binder.bind(pause.disableProperty(), driving.not().or(model.pausedProperty()).or(busy));
    binder.bind(resume.disableProperty(), driving.not().or(model.pausedProperty().not()).or(busy));
    binder.bind(cancel.disableProperty(), driving.not());
    binder.bind(resumeRun.disableProperty(), Bindings.createBooleanBinding(() -> model.drivenProperty().get() != null
        || !p.resumable(), model.drivenProperty(), p.recordProperty(), p.interruptedProperty()).or(busy));
    HBox commands = Widgets.row(8, start, pause, resume, cancel, resumeRun);

    ProgressBar bar = new ProgressBar(0);
    bar.setId("run-progress");
    bar.setMaxWidth(Double.MAX_VALUE);
    HBox.setHgrow(bar, Priority.ALWAYS);
    binder.bind(bar.progressProperty(), Bindings.createDoubleBinding(() -> p.totalProperty().get() == 0 ? 0
        : (double) p.doneProperty().get() / p.totalProperty().get(), p.doneProperty(), p.totalProperty()));
    Label count = Widgets.label("run-count");
    binder.bind(count.textProperty(), Bindings.createStringBinding(() -> Formats.count(p.doneProperty().get()) + " of "
        + Formats.hours(p.totalProperty().get()) + " done" + (p.failedProperty().get() > 0 ? ", "
        + p.failedProperty().get() + " failed" : ""), p.doneProperty(), p.totalProperty(), p.failedProperty()));

    GridPane stats = new GridPane();
    stats.setHgap(28);
    stats.setVgap(2);
    stat(stats, 0, "Rows written", "run-rows", Bindings.createStringBinding(() -> Formats.count(p.rowsProperty().get()),
        p.rowsProperty()));
    stat(stats, 1, "Rows/s", "run-rate", Bindings.createStringBinding(() -> Formats.count(Math.round(
        p.rowsPerSecondProperty().get())), p.rowsPerSecondProperty()));
    // The time left with the range the recent batches allow: a single figure would claim more than is known.
    stat(stats, 2, "Time left", "run-eta", Bindings.createStringBinding(() -> p.etaProperty().get().map(e -> "about "
        + Formats.duration(e.left()) + (e.latest().minus(e.soonest()).toSeconds() < 2 ? "" : " (" + Formats.duration(
            e.soonest()) + " – " + Formats.duration(e.latest()) + ")")).orElse("—"), p.etaProperty()));
    stat(stats, 3, "Live writer lag", "run-lag", Bindings.createStringBinding(() -> Formats.duration(
        p.liveLagProperty().get()), p.liveLagProperty()));

    Spinner<Integer> concurrency = new Spinner<>(1, 32, model.concurrencyProperty().get());
    concurrency.setId("throttle-concurrency");
    concurrency.setEditable(true);
    concurrency.setPrefWidth(80);
    binder.watch(model.concurrencyProperty(), v -> concurrency.getValueFactory().setValue(v.intValue()));
    concurrency.valueProperty().addListener((o, a, b) -> model.concurrencyProperty().set(b));
    Spinner<Integer> rows = new Spinner<>(0, 100_000_000, (int) model.rowsLimitProperty().get(), 1000);
    rows.setId("throttle-rows");
    rows.setEditable(true);
    rows.setPrefWidth(130);
    binder.watch(model.rowsLimitProperty(), v -> rows.getValueFactory().setValue(v.intValue()));
    rows.valueProperty().addListener((o, a, b) -> model.rowsLimitProperty().set(b));
    Spinner<Integer> rest = new Spinner<>(0, BackfillSettings.MOST_REST_PERCENT, model.restPercentProperty().get(), 25);
    rest.setId("throttle-rest");
    rest.setEditable(true);
    rest.setPrefWidth(90);
    binder.watch(model.restPercentProperty(), v -> rest.getValueFactory().setValue(v.intValue()));
    rest.valueProperty().addListener((o, a, b) -> model.restPercentProperty().set(b));
    Label cl = new Label("Concurrenc_y");
    cl.setMnemonicParsing(true);
    cl.setLabelFor(concurrency);
    Label rl = new Label("Rows/s l_imit (0: none)");
    rl.setMnemonicParsing(true);
    rl.setLabelFor(rows);
    Label restLabel = new Label("Rest a_fter each batch (% of its time)");
    restLabel.setMnemonicParsing(true);
    restLabel.setLabelFor(rest);
    Button apply = Widgets.button("throttle-apply", "Apply thrott_le");
    apply.setOnAction(e -> controller.applyThrottle());
    binder.bind(apply.disableProperty(), driving.not().or(busy));

    Label waiting = Widgets.label("run-waiting", "muted");
    Widgets.wrap(waiting);
    binder.bind(waiting.textProperty(), p.waitingProperty());
    Label pollError = Widgets.errorLabel("backfill-poll-error", binder, model.pollErrorProperty());
    Widgets.wrap(pollError);
    dimWhileStale(model, state, message, bar, count, stats);

    return Widgets.card(Widgets.row(10, runLabel, runs, state), pollError, message, commands,
        Widgets.safety("backfill-safety", Safety.BACKFILL_BRIEF, Safety.BACKFILL), Widgets.row(10, bar, count),
        stats, Widgets.row(8, cl, concurrency, rl, rows),
        Widgets.row(8, restLabel, rest, apply), waiting,
        Widgets.activityRow("backfill-activity", binder, model.activity()),
        Widgets.errorLabel("backfill-error", binder, model.activity().errorProperty()));
  }

  /** What was read before is greyed while the runs cannot be read now: the error above says since when. */
  private void dimWhileStale(BackfillModel model, Node... shown) {
    var stale = model.pollErrorProperty().isNotEmpty();
    for (Node n : shown) {
      binder.bind(n.opacityProperty(), Bindings.when(stale).then(0.45).otherwise(1.0));
    }
  }

  private void stat(GridPane g, int col, String key, String id, javafx.beans.value.ObservableValue<String> value) {
    Label k = Widgets.muted(key);
    Label v = Widgets.label(id, "stat-value");
    binder.bind(v.textProperty(), value);
    g.add(k, col, 0);
    g.add(v, col, 1);
  }

  private VBox hoursCard(BackfillModel model, RunProgress p) {
    return HoursCard.of("Hours (one column per day, one row per hour of the day, UTC)", grid, p.hours(), binder,
        model.workspace().paletteProperty(), shardChoice(model));
  }

  /**
   * On a sharded table: whose hours the grid shows, every shard's merged (an hour written once every shard wrote
   * it) or one shard's part alone, with its own counts. Hidden on one server.
   */
  private Node shardChoice(BackfillModel model) {
    javafx.scene.control.ChoiceBox<dev.cutover.engine.api.ShardRef> choice = new javafx.scene.control.ChoiceBox<>();
    choice.setId("hours-shard");
    choice.setConverter(new javafx.util.StringConverter<>() {
      @Override
      public String toString(dev.cutover.engine.api.ShardRef s) {
        return s == null ? "every shard, merged" : s + " alone";
      }

      @Override
      public dev.cutover.engine.api.ShardRef fromString(String text) {
        return null;
      }
    });
    Runnable fill = () -> {
      java.util.List<dev.cutover.engine.api.ShardRef> items = new java.util.ArrayList<>();
      items.add(null);
      items.addAll(model.shards());
      choice.getItems().setAll(items);
      choice.setValue(model.shownShardProperty().get());
    };
    binder.watchList(model.shards(), fill);
    choice.valueProperty().addListener((o, was, is) -> {
      if (!java.util.Objects.equals(is, model.shownShardProperty().get()) && choice.getItems().contains(is)) {
        model.shownShardProperty().set(is);
      }
    });
    binder.watch(model.shownShardProperty(), s -> choice.setValue(s));
    Label label = new Label("_Shard");
    label.setMnemonicParsing(true);
    label.setLabelFor(choice);
    javafx.scene.layout.HBox row = Widgets.row(8, label, choice);
    var sharded = javafx.beans.binding.Bindings.isNotEmpty(model.shards());
    binder.bind(row.visibleProperty(), sharded);
    binder.bind(row.managedProperty(), sharded);
    return row;
  }

  public HourGrid grid() {
    return grid;
  }

  @Override
  public Node root() {
    return root;
  }

}
