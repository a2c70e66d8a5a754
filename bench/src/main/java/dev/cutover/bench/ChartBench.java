package dev.cutover.bench;

import static dev.cutover.bench.UiBench.onFx;

import dev.cutover.ui.Themes;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.reconcile.BuiltReport;
import dev.cutover.ui.reconcile.ChartWindow;
import dev.cutover.ui.reconcile.ChartWindow.Choice;
import dev.cutover.ui.reconcile.ReconcileController;
import dev.cutover.ui.reconcile.ReconcileModel;
import dev.cutover.ui.reconcile.ReconcileView;
import dev.cutover.ui.tasks.ImmediateTaskExecutor;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.animation.AnimationTimer;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/**
 * Section 6: the reconcile screen's charts refreshed by the steps an operator takes on them, at every
 * zoom, on six months of hours ({@link SixMonthReport}, built in memory: no server), headless as the UI
 * tests run. A step moves the chart window (Home, a preset, the wheel, Shift+← →, a drag); the screen's
 * listeners redraw the three charts and the words above them; CSS and layout end the FX thread's share;
 * a software-rendered snapshot then makes the pixels: of the charts card (what the next pulse repaints)
 * in one round, of the whole screen (as the screen's tests time it) in the next. Each case is one step
 * onto its view from the view next to it; the cases take turns, round after round, so that all share
 * whatever load the machine has.
 */
final class ChartBench {

  private static final int WARM_UP_ROUNDS = 16;
  /** Rounds measured: half end with a snapshot of the charts card, half with one of the whole screen. */
  private static final int ROUNDS = 120;
  /** The console's content area at 1280 × 800: less the sidebar, title, status line, banner and padding. */
  private static final double WIDTH = 1090;
  private static final double HEIGHT = 696;

  private final Report report;
  private Stage stage;
  private ReconcileView view;
  private ReconcileModel model;
  private ChartWindow window;
  private Node card;
  private WritableImage cardImage;
  private WritableImage screenImage;
  /** The id of JavaFX's render thread, once found. */
  private long renderer;

  ChartBench(Report report) {
    this.report = report;
  }

  void run() throws Exception {
    report.heading("6. Chart refresh at every zoom (the reconcile screen on six months, headless: Monocle, "
        + "software rendering, the console's content area at 1280 × 800)");
    UiBench.startHeadless();
    SixMonthReport six = SixMonthReport.build();
    onFx(() -> open(six));
    double anchor = six.unexpected() + 0.5;
    List<ChartCase> cases = cases(anchor);
    double first = Double.NaN;
    for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      for (ChartCase c : cases) {
        onFx(() -> {
          c.before().run();
          return null;
        });
        settle();
        int r = round;
        boolean screen = round % 2 == 1;
        double[] sample = onFx(() -> timed(() -> c.step().accept(r), screen));
        if (Double.isNaN(first)) {
          first = sample[0] + sample[1] + sample[2];
        }
        if (round >= WARM_UP_ROUNDS) {
          (screen ? c.screen() : c.card()).add(sample);
        }
        settle();
      }
    }
    String setUp = String.format("%d steps a case (half ending with each snapshot) after %d rounds of warm-up",
        ROUNDS, WARM_UP_ROUNDS);
    new ChartFigures(report, String.format("%.0f × %.0f", WIDTH, HEIGHT), card.getLayoutBounds(), setUp)
        .print(six, cases, first);
    onFx(() -> {
      view.dispose();
      stage.close();
      return null;
    });
  }

  private Void open(SixMonthReport six) {
    Workspace w = new Workspace(new ImmediateTaskExecutor(), new UiBench.Yes());
    w.specProperty().set(six.spec());
    model = new ReconcileModel(w);
    view = new ReconcileView(model, new ReconcileController(model));
    window = model.window();
    StackPane content = new StackPane(view.root());
    content.setPadding(new Insets(18, 22, 18, 22));
    Scene scene = new Scene(content, WIDTH, HEIGHT);
    Themes.apply(scene, Themes.LIGHT);
    stage = new Stage();
    stage.setScene(scene);
    stage.show();
    BuiltReport.show(model, six.report());
    card = chartsCard(view);
    return null;
  }

  /**
   * The whole window, the overlap, B ± a day and zooms in between, each reached as the operator reaches
   * it; then panning at a deep zoom; then the floor: nothing moves, only CSS, layout and the snapshot.
   */
  private List<ChartCase> cases(double anchor) {
    int whole = window.total();
    List<ChartCase> cases = new ArrayList<>();
    cases.add(new ChartCase("whole window (Home)", () -> {
      window.whole();
      window.zoom(0.8);
    }, r -> window.whole()));
    for (int days : new int[] {61, 14, 4}) {
      int hours = days * 24;
      cases.add(new ChartCase(String.format("%d days, ×%.0f (wheel out)", days, (double) whole / hours), () -> {
        view(hours, anchor);
        window.zoom(0.8, anchor);
      }, r -> window.zoom(1.25, anchor)));
    }
    cases.add(new ChartCase("B ± a day (chosen)", () -> {
      window.choose(Choice.AROUND_B);
      window.zoom(0.8);
    }, r -> window.choose(Choice.AROUND_B)));
    cases.add(new ChartCase("overlap since B (chosen)", () -> {
      window.choose(Choice.OVERLAP);
      window.zoom(0.8);
    }, r -> window.choose(Choice.OVERLAP)));
    cases.add(new ChartCase("12 hours (− key)", () -> {
      view(12, anchor);
      window.zoom(2 / 3.0, anchor);
    }, r -> window.zoom(1.5, anchor)));
    cases.add(new ChartCase("pan at 12 hours (Shift+→ or ←: 3 hours)", () -> view(12, anchor),
        r -> window.pan(r / 2 % 2 == 0 ? 3 : -3)));
    cases.add(new ChartCase("pan at 3 hours (drag: 1 hour)", () -> view(ChartWindow.MIN_HOURS, anchor),
        r -> window.panTo(window.span().from() + (r / 2 % 2 == 0 ? 1 : -1))));
    List<dev.cutover.engine.api.Identifier> measures = model.workspace().spec().measures();
    cases.add(new ChartCase("measure switch (whole window)", window::whole,
        r -> model.chooseMeasure(measures.get(r % measures.size()))));
    cases.add(new ChartCase("floor: nothing moves (CSS, layout, snapshot)", () -> view(14 * 24, anchor), r -> {}));
    return cases;
  }

  /** Shows {@code hours} hours about {@code anchor}, as a range Shift+dragged on a chart would. */
  private void view(int hours, double anchor) {
    int from = (int) Math.round(anchor - hours / 2.0);
    window.pick(from, from + hours - 1);
  }

  /**
   * Times a step on the FX thread: the step with the redraws its listeners make, then CSS and layout as
   * the pulse does them, then a snapshot of the charts card or of the whole screen, which renders the
   * canvases' drawing as the pulse's render would. Returns milliseconds of the step, of CSS and layout
   * and of the render, then the hours in view, the pixels per hour, how many garbage collections ran
   * meanwhile, and the CPU milliseconds the FX and render threads spent: far less than the time taken
   * says that they waited for a core.
   */
  private double[] timed(Runnable step, boolean wholeScreen) {
    Parent root = stage.getScene().getRoot();
    long collections = collections();
    long cpu = cpuNanos();
    long t0 = System.nanoTime();
    step.run();
    long t1 = System.nanoTime();
    root.applyCss();
    root.layout();
    long t2 = System.nanoTime();
    if (wholeScreen) {
      screenImage = stage.getScene().snapshot(screenImage);
    } else {
      cardImage = card.snapshot(null, cardImage);
    }
    long t3 = System.nanoTime();
    return new double[] {(t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, window.span().hours(),
        BuiltReport.pixelsPerHour(view), collections() - collections, (cpuNanos() - cpu) / 1e6};
  }

  /** CPU time of the FX thread (the caller) and of the renderer, which renders snapshots while the FX thread waits. */
  private long cpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (renderer == 0) {
      for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
        if (t != null && t.getThreadName().startsWith("QuantumRenderer")) {
          renderer = t.getThreadId();
        }
      }
    }
    return threads.getCurrentThreadCpuTime() + (renderer == 0 ? 0 : Math.max(0, threads.getThreadCpuTime(renderer)));
  }

  static long collections() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
  }

  /** The card that holds the Reconcile screen's charts, the part of the screen a chart refresh repaints. */
  static Node chartsCard(ReconcileView view) {
    Node card = view.totals();
    while (card != null && !card.getStyleClass().contains("card")) {
      card = card.getParent();
    }
    if (card == null) {
      throw new IllegalStateException("the charts card of the reconcile screen was not found");
    }
    return card;
  }

  /**
   * Lets three pulses pass: the screen's own render of the last step (in every scene shown) ends before the next
   * one is timed.
   */
  static void settle() throws InterruptedException {
    CountDownLatch pulses = new CountDownLatch(3);
    AnimationTimer timer = new AnimationTimer() {
      @Override
      public void handle(long now) {
        pulses.countDown();
      }
    };
    onFx(() -> {
      timer.start();
      return null;
    });
    pulses.await(5, TimeUnit.SECONDS);
    onFx(() -> {
      timer.stop();
      return null;
    });
  }
}
