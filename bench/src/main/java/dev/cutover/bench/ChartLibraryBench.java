package dev.cutover.bench;

import static dev.cutover.bench.UiBench.onFx;

import dev.cutover.engine.api.Identifier;
import dev.cutover.ui.Themes;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.reconcile.BuiltReport;
import dev.cutover.ui.reconcile.ChartWindow;
import dev.cutover.ui.reconcile.ReconcileController;
import dev.cutover.ui.reconcile.ReconcileModel;
import dev.cutover.ui.reconcile.ReconcileView;
import dev.cutover.ui.tasks.ImmediateTaskExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.embed.swing.SwingFXUtils;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javax.imageio.ImageIO;

/**
 * Section 28: the Reconcile screen's charts on the console's own canvas against the same charts in a chart
 * library (ChartFX 11.3.1, {@link LibraryCharts}), on the six months of section 6 built in memory, headless
 * (Monocle, software rendering). Each case is one of section 6's steps onto a view; the library is moved
 * to the same hours. Both take turns case by case, round after round (which goes first alternates), so
 * that both share whatever load the machine has. Each step is timed on the FX thread: the step, then CSS
 * and layout (with the library's pre- and post-layout work, where it draws, in the order a pulse runs
 * them, again while anything is left to lay out or draw), then a software-rendered snapshot of the charts
 * card: the console's whole card, or the library's two charts at the card's size.
 */
final class ChartLibraryBench {

  private static final int WARM_UP_ROUNDS = 10;
  private static final int ROUNDS = 60;
  /** As section 6: the console's content area at 1280 × 800. */
  private static final double WIDTH = 1090;
  private static final double HEIGHT = 696;
  /** Layout passes one step may take: a pulse lays out once, and the next pulses do what is left. */
  private static final int MAX_PASSES = 3;

  private final Report report;
  private final Map<Node, WritableImage> images = new HashMap<>();
  private Stage ownStage;
  private Stage libraryStage;
  private ReconcileView view;
  private ReconcileModel model;
  private ChartWindow window;
  private Node card;
  private LibraryCharts library;

  ChartLibraryBench(Report report) {
    this.report = report;
  }

  void run() throws Exception {
    report.heading("28. Chart refresh on the console's own canvas and in ChartFX 11.3.1, the same views of six "
        + "months in turns (headless: Monocle, software rendering)");
    UiBench.startHeadless();
    SixMonthReport six = SixMonthReport.build();
    onFx(ChartLibraryBench::warmToolkit);
    double ownFrame = onFx(() -> openOwn(six));
    double libraryFrame = onFx(() -> openLibrary(six));
    List<Identifier> measures = six.spec().measures();
    List<LibraryCase> cases = LibraryCases.of(model, six.unexpected() + 0.5);
    onFx(() -> {
      LibraryCases.record(cases, window);
      library.measure(model.measureProperty().get());
      return null;
    });
    double[] firstStep = {Double.NaN, Double.NaN};
    long t0 = System.nanoTime();
    for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      for (int k = 0; k < cases.size(); k++) {
        LibraryCase c = cases.get(k);
        boolean ownFirst = (round + k) % 2 == 0;
        for (boolean own : new boolean[] {ownFirst, !ownFirst}) {
          double[] sample = own ? stepOwn(c, round) : stepLibrary(c, round, measures);
          int side = own ? 0 : 1;
          if (Double.isNaN(firstStep[side])) {
            firstStep[side] = sample[0] + sample[1] + sample[2];
          }
          if (round >= WARM_UP_ROUNDS) {
            (own ? c.own() : c.library()).add(sample);
          }
        }
      }
    }
    String card = String.format("%.0f × %.0f", this.card.getLayoutBounds().getWidth(),
        this.card.getLayoutBounds().getHeight());
    new ChartLibraryFigures(report, six, card, WARM_UP_ROUNDS, ROUNDS).print(cases, new double[] {ownFrame,
        libraryFrame}, firstStep, Benchmarks.seconds(t0));
    pictures(six.unexpected() + 0.5);
    onFx(() -> {
      view.dispose();
      ownStage.close();
      libraryStage.close();
      return null;
    });
  }

  /** Shows and renders a label once, so that neither side's first frame pays for the toolkit's first render. */
  private static Void warmToolkit() {
    Stage s = new Stage();
    s.setScene(new Scene(new StackPane(new Label("warm")), 200, 100));
    s.show();
    s.getScene().snapshot(null);
    s.close();
    return null;
  }

  /** The console's Reconcile screen on the report, to its first snapshot of the charts card; milliseconds. */
  private double openOwn(SixMonthReport six) {
    long t0 = System.nanoTime();
    Workspace w = new Workspace(new ImmediateTaskExecutor(), new UiBench.Yes());
    w.specProperty().set(six.spec());
    model = new ReconcileModel(w);
    view = new ReconcileView(model, new ReconcileController(model));
    window = model.window();
    ownStage = stage(view.root());
    BuiltReport.show(model, six.report());
    card = ChartBench.chartsCard(view);
    timed(ownStage.getScene(), card, () -> {}, null);
    return (System.nanoTime() - t0) / 1e6;
  }

  /**
   * The library's two charts at the size of the console's charts card, split as the console splits its
   * totals and delta charts, on the report and the view the console opened on, to their first snapshot.
   */
  private double openLibrary(SixMonthReport six) {
    double share = view.totals().getHeight() / (view.totals().getHeight() + view.delta().getHeight());
    long t0 = System.nanoTime();
    library = new LibraryCharts(six.report(), model.measureProperty().get(), card.getLayoutBounds().getWidth(),
        card.getLayoutBounds().getHeight(), share);
    StackPane holder = new StackPane(library.card());
    StackPane.setAlignment(library.card(), Pos.TOP_LEFT);
    libraryStage = stage(holder);
    library.show(window.span());
    timed(libraryStage.getScene(), library.card(), () -> {}, library);
    return (System.nanoTime() - t0) / 1e6;
  }

  private static Stage stage(Node content) {
    StackPane padded = new StackPane(content);
    padded.setPadding(new Insets(18, 22, 18, 22));
    Scene scene = new Scene(padded, WIDTH, HEIGHT);
    Themes.apply(scene, Themes.LIGHT);
    Stage s = new Stage();
    s.setScene(scene);
    s.show();
    return s;
  }

  private double[] stepOwn(LibraryCase c, int round) throws InterruptedException {
    onFx(() -> {
      c.before().run();
      return null;
    });
    ChartBench.settle();
    double[] sample = onFx(() -> timed(ownStage.getScene(), card, () -> c.step().accept(round), null));
    ChartBench.settle();
    return sample;
  }

  private double[] stepLibrary(LibraryCase c, int round, List<Identifier> measures) throws InterruptedException {
    int k = round % LibraryCase.CYCLE;
    onFx(() -> {
      library.show(c.from()[k]);
      return null;
    });
    ChartBench.settle();
    Runnable step = c.measure() ? () -> library.measure(measures.get(round % measures.size()))
        : () -> library.show(c.to()[k]);
    double[] sample = onFx(() -> timed(libraryStage.getScene(), library.card(), step, library));
    ChartBench.settle();
    return sample;
  }

  /**
   * Times a step on the FX thread: the step, then CSS, the library's pre-layout work, layout and its
   * post-layout work (where it draws) as a pulse runs them, again while anything is left to lay out or
   * draw, then a software-rendered snapshot of {@code target}. Returns milliseconds of the step, of the
   * passes and of the render, the passes taken, and the garbage collections that ran meanwhile.
   */
  private double[] timed(Scene scene, Node target, Runnable step, LibraryCharts hooks) {
    Parent root = scene.getRoot();
    long collections = ChartBench.collections();
    long t0 = System.nanoTime();
    step.run();
    long t1 = System.nanoTime();
    int passes = 0;
    do {
      root.applyCss();
      if (hooks != null) {
        hooks.beforeLayout();
      }
      root.layout();
      if (hooks != null) {
        hooks.afterLayout();
      }
      passes++;
    } while ((root.isNeedsLayout() || hooks != null && hooks.dirty()) && passes < MAX_PASSES);
    long t2 = System.nanoTime();
    images.put(target, target.snapshot(null, images.get(target)));
    long t3 = System.nanoTime();
    return new double[] {(t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, passes,
        ChartBench.collections() - collections};
  }

  /** Both charts cards at the whole window and at 12 hours, as PNG files beside the results, to compare by eye. */
  private void pictures(double anchor) throws Exception {
    Path dir = Path.of(System.getProperty("bench.out", "target/results.md")).toAbsolutePath().getParent();
    Files.createDirectories(dir);
    List<String> written = new ArrayList<>();
    for (String name : new String[] {"whole", "12h"}) {
      onFx(() -> {
        if (name.equals("whole")) {
          window.whole();
        } else {
          LibraryCases.view(window, 12, anchor);
        }
        library.show(window.span());
        return null;
      });
      ChartBench.settle();
      for (boolean own : new boolean[] {true, false}) {
        Node target = own ? card : library.card();
        WritableImage image = onFx(() -> target.snapshot(null, null));
        Path file = dir.resolve("chartlib-" + (own ? "canvas" : "chartfx") + "-" + name + ".png");
        ImageIO.write(SwingFXUtils.fromFXImage(image, null), "png", file.toFile());
        written.add(file.getFileName().toString());
      }
    }
    report.line("Snapshots to compare by eye, beside the results: " + String.join(", ", written) + ".");
  }
}
