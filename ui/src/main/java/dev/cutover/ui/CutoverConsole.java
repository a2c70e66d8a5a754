package dev.cutover.ui;

import dev.cutover.ui.backfill.BackfillController;
import dev.cutover.ui.backfill.BackfillModel;
import dev.cutover.ui.backfill.BackfillView;
import dev.cutover.ui.common.Palette;
import dev.cutover.ui.connection.ConnectionController;
import dev.cutover.ui.connection.ConnectionModel;
import dev.cutover.ui.connection.SessionLifetime;
import dev.cutover.ui.connection.ConnectionView;
import dev.cutover.ui.connection.LinkStrip;
import dev.cutover.ui.cutover.CutoverController;
import dev.cutover.ui.cutover.CutoverModel;
import dev.cutover.ui.cutover.CutoverView;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.dialogs.FxDialogService;
import dev.cutover.ui.history.HistoryController;
import dev.cutover.ui.history.HistoryModel;
import dev.cutover.ui.history.HistoryView;
import dev.cutover.ui.plan.PlanController;
import dev.cutover.ui.plan.PlanModel;
import dev.cutover.ui.plan.PlanView;
import dev.cutover.ui.reconcile.ReconcileController;
import dev.cutover.ui.reconcile.ReconcileModel;
import dev.cutover.ui.reconcile.ReconcileView;
import dev.cutover.ui.repair.RepairBanner;
import dev.cutover.ui.tasks.FxTaskExecutor;
import java.util.List;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** The Cutover console window: one screen per step of the procedure, driven by the engine's API. */
public final class CutoverConsole extends Application {

  private static volatile ConsoleStartup startup;
  private Workspace workspace;
  private ConsoleShell shell;
  private RepairBanner banner;
  private ConnectionModel connection;
  private ConnectionController connectionController;
  private PlanModel plan;
  private PlanController planController;
  private BackfillModel backfill;
  private BackfillController backfillController;
  private ReconcileModel reconcile;
  private ReconcileController reconcileController;
  private CutoverModel cutover;
  private CutoverController cutoverController;
  private HistoryModel history;
  private HistoryController historyController;

  /** Opens the console and returns when its window is closed. */
  public static void launch(ConsoleStartup startup) {
    CutoverConsole.startup = startup;
    Application.launch(CutoverConsole.class);
  }

  @Override
  public void start(Stage stage) {
    Scene scene = createScene(startup);
    stage.setTitle("Cutover");
    stage.setMinWidth(1024);
    stage.setMinHeight(700);
    stage.setScene(scene);
    stage.setOnCloseRequest(e -> {
      if (!backfillController.mayClose()) {
        e.consume();
      }
    });
    if (Boolean.getBoolean("cutover.startup.probe")) {
      // Measures cold start: from the JVM's start to the first frame of the window, then quits.
      new javafx.animation.AnimationTimer() {
        @Override
        public void handle(long now) {
          stop();
          long started = ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
          System.out.println("first window after " + (System.currentTimeMillis() - started) + " ms");
          Platform.exit();
        }
      }.start();
    }
    stage.show();
  }

  /** Builds the console's scene with the real dialogs and starts connecting. */
  public Scene createScene(ConsoleStartup startup) {
    Scene[] scene = new Scene[1];
    return createScene(startup, new FxDialogService(() -> scene[0]), s -> scene[0] = s);
  }

  /** Builds the console's scene with the given dialogs (tests answer them) and starts connecting. */
  public Scene createScene(ConsoleStartup startup, DialogService dialogs) {
    return createScene(startup, dialogs, s -> {});
  }

  private Scene createScene(ConsoleStartup startup, DialogService dialogs, java.util.function.Consumer<Scene> created) {
    FxTaskExecutor executor = new FxTaskExecutor((message, fraction) -> {
      if (connection != null) {
        connection.progress(message);
      }
    });
    workspace = new Workspace(executor, dialogs);
    connectionController = new ConnectionController(startup, workspace);
    connection = connectionController.model();
    plan = new PlanModel(workspace);
    planController = new PlanController(plan);
    backfill = new BackfillModel(workspace);
    backfillController = new BackfillController(backfill);
    reconcile = new ReconcileModel(workspace);
    reconcileController = new ReconcileController(reconcile);
    cutover = new CutoverModel(workspace);
    cutoverController = new CutoverController(cutover);
    history = new HistoryModel(workspace);
    historyController = new HistoryController(history);
    // The banner's next step takes the operator to its screen; the shell is built just below.
    banner = new RepairBanner(workspace.repair(), screen -> shell.showIfOpen(screen));
    // After a reconnect every screen reads again, and actions wait until all have.
    new ScreenReread(workspace, List.of(connectionController, planController, backfillController, reconcileController,
        cutoverController, historyController));
    LinkStrip strip = new LinkStrip(workspace.linkProperty(), workspace.freshProperty());
    shell = new ConsoleShell(List.of(
        new Screen("connection", "_Connection", connectionController,
            () -> new ConnectionView(connection, connectionController), false),
        // A sharded table's plan is one range and one B on every shard, its preflight every shard's as one.
        new Screen("plan", "_Plan", planController, () -> new PlanView(plan, planController), true,
            java.util.Optional.of(workspace.readyForEither()), true),
        // A sharded table's backfill runs on every shard under one run id, read as one run.
        new Screen("backfill", "_Backfill", backfillController,
            () -> new BackfillView(backfill, backfillController), true,
            java.util.Optional.of(workspace.readyForEither()), true),
        // Screens of both: a sharded table's reconciliation runs on every shard and reads as one; its history is
        // every shard's.
        new Screen("reconcile", "_Reconcile", reconcileController,
            () -> new ReconcileView(reconcile, reconcileController), true,
            java.util.Optional.of(workspace.readyForEither()), true),
        // A sharded table's gate is every node's, and its swap switches every node, all or nothing.
        new Screen("cutover", "Cu_tover", cutoverController,
            () -> new CutoverView(cutover, cutoverController), true, java.util.Optional.of(workspace.readyForEither()),
            true),
        new Screen("history", "_History", historyController,
            () -> new HistoryView(history, historyController), true, java.util.Optional.of(workspace.readyForEither()),
            true)), workspace.ready(),
        banner, strip.root(), workspace.online().not());
    shell.bindStatus(connection.statusLineProperty(), connection.statusToneProperty());
    Scene scene = new Scene(shell.root(), 1280, 800);
    created.accept(scene);
    shell.darkToggle().selectedProperty().addListener((o, was, dark) -> theme(scene, dark));
    theme(scene, false);
    shell.show("connection");
    workspace.repair().start();
    connectionController.connect();
    return scene;
  }

  private void theme(Scene scene, boolean dark) {
    Themes.apply(scene, dark ? Themes.DARK : Themes.LIGHT);
    // The button says what a click does: the other theme.
    shell.darkToggle().setText(dark ? "_Light theme" : "_Dark theme");
    workspace.paletteProperty().set(dark ? Palette.DARK : Palette.LIGHT);
  }

  /** Shows a screen, as the sidebar does. */
  public void show(String screen) {
    shell.show(screen);
  }

  public String currentScreen() {
    return shell.currentScreen();
  }

  /** Whether the screen shown is greyed, its actions off, because what it shows may no longer hold. */
  public boolean greyed() {
    return shell.greyed();
  }

  /** The view of the screen shown now. */
  public dev.cutover.ui.common.ScreenView currentView() {
    return shell.currentView();
  }

  public Workspace workspace() {
    return workspace;
  }

  public ConnectionModel connection() {
    return connection;
  }

  /** The console's session: open now, replaced on a reconnect, closed when the console closes. */
  public SessionLifetime sessions() {
    return connectionController.sessions();
  }

  public PlanModel plan() {
    return plan;
  }

  public PlanController planController() {
    return planController;
  }

  public BackfillModel backfill() {
    return backfill;
  }

  public BackfillController backfillController() {
    return backfillController;
  }

  public ReconcileModel reconcile() {
    return reconcile;
  }

  public ReconcileController reconcileController() {
    return reconcileController;
  }

  public CutoverModel cutover() {
    return cutover;
  }

  public CutoverController cutoverController() {
    return cutoverController;
  }

  public HistoryModel history() {
    return history;
  }

  public HistoryController historyController() {
    return historyController;
  }

  @Override
  public void stop() {
    if (shell != null) {
      connectionController.sessions().stopWatching();
      shell.leave();
      workspace.repair().stop();
      banner.dispose();
    }
    // A run this console drives is cancelled, so that it ends recorded and resumable; then the pool and an
    // embedded server this console started are closed. Both off the FX thread.
    var run = backfill == null ? null : backfill.drivenProperty().get();
    var swaps = cutoverController;
    Thread closer = Thread.ofPlatform().name("cutover-close").start(() -> {
      if (run != null) {
        run.cancel();
        try {
          run.completion().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
          // The run stays resumable from its ledger.
        }
      }
      // A swap ends too (across nodes it must not lose its connections halfway); then the connections to every
      // node close.
      if (swaps != null) {
        swaps.awaitSwap(java.time.Duration.ofSeconds(15));
      }
      var repair = workspace == null ? null : workspace.openRepairProperty().get();
      if (repair != null) {
        repair.close();
      }
      if (connectionController != null) {
        connectionController.sessions().closeSession();
      }
    });
    try {
      closer.join(45_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
