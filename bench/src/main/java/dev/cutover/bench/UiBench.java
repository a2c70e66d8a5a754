package dev.cutover.bench;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunHandle;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.ui.Themes;
import dev.cutover.ui.Workspace;
import dev.cutover.ui.backfill.BackfillController;
import dev.cutover.ui.backfill.BackfillModel;
import dev.cutover.ui.backfill.BackfillView;
import dev.cutover.ui.common.ScreenView;
import dev.cutover.ui.dialogs.DialogService;
import dev.cutover.ui.reconcile.ReconcileController;
import dev.cutover.ui.reconcile.ReconcileModel;
import dev.cutover.ui.reconcile.ReconcileView;
import dev.cutover.ui.tasks.FxTaskExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Section 5: the console's own screens, headless (Monocle, software rendering, as the UI tests run):
 * the reconcile screen's v1/v2 totals chart refreshed with every hour of a real reconciliation, and the
 * FX thread's longest stall while the backfill screen drives a real backfill.
 */
final class UiBench {

  private static boolean toolkitStarted;

  private final Engine engine;
  private final TableSpec spec;
  private final BenchSql sql;
  private final Report report;
  private Stage stage;

  UiBench(Engine engine, TableSpec spec, BenchSql sql, Report report) {
    this.engine = engine;
    this.spec = spec;
    this.report = report;
    this.sql = sql;
  }

  /**
   * The same settings as the UI tests' {@code fx.headless.argLine}; set before the toolkit starts. The
   * toolkit starts once per process, for the first section that needs it.
   */
  static synchronized void startHeadless() throws InterruptedException {
    if (toolkitStarted) {
      return;
    }
    toolkitStarted = true;
    System.setProperty("glass.platform", "Monocle");
    System.setProperty("monocle.platform", "Headless");
    System.setProperty("prism.order", "sw");
    System.setProperty("java.awt.headless", "true");
    CountDownLatch started = new CountDownLatch(1);
    Platform.startup(started::countDown);
    started.await();
    Platform.setImplicitExit(false);
  }

  void run(Runnable freshTarget) throws Exception {
    report.heading("5. UI (the console's screens, headless: Monocle, software rendering, 1280 × 800)");
    startHeadless();
    onFx(() -> {
      stage = new Stage();
      stage.setScene(new Scene(new javafx.scene.layout.StackPane(), 1280, 800));
      Themes.apply(stage.getScene(), Themes.LIGHT);
      stage.show();
      return null;
    });
    // The backfill the screen drives is also the history the reconcile screen then charts, so that the
    // section needs no other before it.
    freshTarget.run();
    stallDuringBackfill();
    chartRefresh();
  }

  private Workspace workspace() {
    return onFx(() -> {
      Workspace w = new Workspace(new FxTaskExecutor((message, fraction) -> {}), new Yes());
      w.engineProperty().set(engine);
      w.specProperty().set(spec);
      return w;
    });
  }

  private void show(ScreenView view) {
    onFx(() -> {
      stage.getScene().setRoot((javafx.scene.Parent) view.root());
      return null;
    });
  }

  /** Switches of the measure timed as they come, before the code is compiled: the first one apart. */
  private static final int COLD_SWITCHES = 10;
  /** Switches after those: the first half lets the code compile, the second half is measured. */
  private static final int WARM_SWITCHES = 40;
  /** The operator's hand between two switches: the screen is quiet, then this much longer. */
  private static final long PAUSE_MILLIS = 250;

  /**
   * Reconciles through the screen's model, then switches the measure as an operator does, one switch at a
   * time on a quiet screen: each refills both charts' series and redraws the three charts. Each switch is
   * timed from the click to the last frame the renderer finished for it ({@link FrameClock}).
   */
  private void chartRefresh() throws Exception {
    Workspace w = workspace();
    ReconcileModel model = onFx(() -> new ReconcileModel(w));
    ReconcileController controller = onFx(() -> new ReconcileController(model));
    ReconcileView view = onFx(() -> new ReconcileView(model, controller));
    show(view);
    FrameClock clock = new FrameClock(stage.getScene());
    CompletableFuture<Void> done = new CompletableFuture<>();
    onFx(() -> {
      // The screen shows the last stored report as it opens (section 3 stores some in a run of every section);
      // the switches wait for the report of the reconciliation started here, which arrives as it ends.
      model.reportProperty().addListener((o, was, is) -> {
        if (is != null && !model.activity().running()) {
          done.complete(null);
        }
      });
      // A reconciliation the screen refuses (no backfill has succeeded yet, when the sections before
      // this one did not run) ends the section with the screen's sentence instead of a wait.
      model.activity().errorProperty().addListener((o, was, is) -> {
        if (is != null && !is.isEmpty()) {
          done.completeExceptionally(new IllegalStateException("The reconcile screen said: " + is));
        }
      });
      controller.shown();
      controller.reconcile();
      return null;
    });
    done.get(30, TimeUnit.MINUTES);
    int hours = onFx(() -> model.reportProperty().get().hours().size());
    // The operator's click puts the focus on the measure picker; left in the key limit's field, its caret
    // would blink a frame of its own into the switches' times.
    onFx(() -> {
      stage.getScene().lookup("#reconcile-measure").requestFocus();
      return null;
    });
    List<Identifier> measures = spec.measures();
    List<FrameClock.Sample> samples = new ArrayList<>();
    for (int i = 0; i < COLD_SWITCHES + WARM_SWITCHES; i++) {
      Identifier m = measures.get((i + 1) % measures.size());
      samples.add(clock.time(() -> model.chooseMeasure(m), PAUSE_MILLIS));
    }
    List<FrameClock.Sample> cold = samples.subList(0, COLD_SWITCHES);
    List<FrameClock.Sample> warm = samples.subList(COLD_SWITCHES + WARM_SWITCHES / 2, samples.size());
    FrameClock.Sample first = cold.getFirst();
    report.line(String.format("Reconcile screen, v1/v2 totals chart (canvas, 2 series × %,d hours) with the delta "
        + "chart and coverage strip, refreshed by switching the measure as an operator does: on a quiet screen, "
        + "%d ms after its last frame, each switch timed from the click to the last frame the renderer finished "
        + "for it. The first switch after the report: the FX thread's share %.0f ms (the handler %.0f ms, the "
        + "next pulse's CSS and layout %.1f ms), to pixels %.0f ms in %d frame(s). The first %d switches: FX "
        + "thread's share p50 %.0f ms, max %.0f ms; to pixels p50 %.0f ms, max %.0f ms; frames per switch %s. "
        + "Target: < 50 ms.", hours, PAUSE_MILLIS, first.handler() + first.pulse(), first.handler(), first.pulse(),
        first.lastFrame(), first.frames(), cold.size(), percentile(cold, s -> s.handler() + s.pulse(), 50),
        percentile(cold, s -> s.handler() + s.pulse(), 100), percentile(cold, FrameClock.Sample::lastFrame, 50),
        percentile(cold, FrameClock.Sample::lastFrame, 100), frames(cold)));
    report.line(String.format("The same screen after %d more switches (the code compiled): over the last %d, the FX "
        + "thread's share p50 %.1f ms, max %.1f ms; to pixels p50 %.0f ms, max %.0f ms (a pulse waits up to a "
        + "frame, 16.7 ms, for its turn); frames per switch %s.", WARM_SWITCHES / 2, warm.size(),
        percentile(warm, s -> s.handler() + s.pulse(), 50), percentile(warm, s -> s.handler() + s.pulse(), 100),
        percentile(warm, FrameClock.Sample::lastFrame, 50), percentile(warm, FrameClock.Sample::lastFrame, 100),
        frames(warm)));
    onFx(() -> {
      view.dispose();
      return null;
    });
  }

  private static double percentile(List<FrameClock.Sample> samples, ToDoubleFunction<FrameClock.Sample> of, int p) {
    return Report.percentile(samples.stream().map(of::applyAsDouble).toList(), p);
  }

  /** How many frames the switches caused, as {@code count×frames}: one each unless something repaints again. */
  private static String frames(List<FrameClock.Sample> samples) {
    return samples.stream().collect(Collectors.groupingBy(FrameClock.Sample::frames, java.util.TreeMap::new,
        Collectors.counting())).entrySet().stream().map(e -> e.getValue() + "×" + e.getKey())
        .collect(Collectors.joining(", "));
  }

  /** A pulse monitor on the FX thread while the backfill screen starts and follows a real backfill. */
  private void stallDuringBackfill() throws Exception {
    BackfillSettings defaults = engine.plans().defaults(spec).withNice(Integer.getInteger("bench.nice", engine.plans().defaults(spec).nice()));
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), defaults);
    // The operator acknowledges the demo's alerting view on the Plan screen; the bench does the same.
    var checks = engine.plans().preflight(plan, Benchmarks.dependents(engine, plan));
    if (!checks.passed()) {
      report.line("The preflight failed, so the backfill screen cannot start a run: " + checks.report().failures());
      return;
    }
    Workspace w = workspace();
    BackfillModel model = onFx(() -> new BackfillModel(w));
    BackfillController controller = onFx(() -> new BackfillController(model));
    BackfillView view = onFx(() -> new BackfillView(model, controller));
    show(view);
    List<Long> gaps = new ArrayList<>();
    List<Long> ends = new ArrayList<>();
    AnimationTimer monitor = new AnimationTimer() {
      private long last;

      @Override
      public void handle(long now) {
        long wall = System.nanoTime(); // the pulse's own timestamp can lag a stall; the clock cannot
        if (last != 0) {
          gaps.add(wall - last);
          ends.add(wall);
        }
        last = wall;
      }
    };
    onFx(() -> {
      w.planProperty().set(plan);
      w.preflightProperty().set(checks);
      controller.shown();
      return null;
    });
    // The screen's first CSS, layout and render are its opening, not the backfill's: they end before the clock starts.
    Thread.sleep(1000);
    GcPauses gc = new GcPauses();
    // Each change of the hour grid's size or place repaints the whole grid and the screen around it.
    List<Long> gridMoves = new ArrayList<>();
    javafx.beans.InvalidationListener moved = o -> gridMoves.add(System.nanoTime());
    StallSampler stalls = onFx(() -> {
      view.grid().layoutBoundsProperty().addListener(moved);
      view.grid().localToSceneTransformProperty().addListener(moved);
      StallSampler sampler = new StallSampler();
      monitor.start();
      controller.start();
      return sampler;
    });
    long t0 = System.nanoTime();
    // The JVM's uptime at the run's start, to find its gaps in a log the JVM writes (-Xlog:…:uptime).
    double uptime0 = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0;
    RunHandle run = null;
    while (run == null && System.nanoTime() - t0 < 60_000_000_000L) {
      Thread.sleep(100);
      run = onFx(() -> model.drivenProperty().get());
    }
    if (run == null) {
      report.line("The backfill screen did not start a run: " + onFx(() -> model.activity().errorProperty().get()));
      return;
    }
    RunRecord finished = run.await();
    Thread.sleep(2000); // the screen's last poll and redraw
    onFx(() -> {
      monitor.stop();
      stalls.close();
      view.grid().layoutBoundsProperty().removeListener(moved);
      view.grid().localToSceneTransformProperty().removeListener(moved);
      controller.hidden();
      view.dispose();
      return null;
    });
    gc.close();
    double seconds = (System.nanoTime() - t0) / 1e9;
    long runEnded = System.nanoTime() - 2_000_000_000L;
    // When the longest gaps ended, from the start of the run: at the start, during it, or as it ended.
    String when = java.util.stream.IntStream.range(0, gaps.size()).boxed()
        .sorted((a, b) -> Long.compare(gaps.get(b), gaps.get(a))).limit(3)
        .map(i -> String.format("%.0f ms at %.1f s%s%s", gaps.get(i) / 1e6, (ends.get(i) - t0) / 1e9,
            ends.get(i) > runEnded ? " (after the run ended)" : "", pausedWithin(gc, ends.get(i) - gaps.get(i), ends.get(i))
            + " [" + stalls.within(ends.get(i) - gaps.get(i), ends.get(i)) + "]"))
        .collect(Collectors.joining(", "));
    List<Double> ms = gaps.stream().map(g -> g / 1e6).toList();
    double longest = ms.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    long over50 = ms.stream().filter(g -> g > 50).count();
    report.line(String.format("Backfill screen following a real backfill (%s, %,d hours, the spec's default throttle"
        + (defaults.nice() == engine.plans().defaults(spec).nice() ? "" : " with nice " + defaults.nice())
        + ", %.0f s, from the JVM's uptime %.1f s, CLOCK_MONOTONIC %.3f s): %,d pulses; gap between pulses "
        + "p50 %.1f ms, p99 %.1f ms, longest %.1f ms; %d gaps over 50 ms. "
        + "The longest stall of the FX thread is the longest gap less one frame (16.7 ms): %.0f ms. Target: < 50 ms. "
        + "The longest gaps: %s.",
        finished.state().name().toLowerCase(), plan.hours().size(), seconds, uptime0, t0 / 1e9, ms.size(),
        Report.percentile(ms, 50), Report.percentile(ms, 99), longest, over50, Math.max(0, longest - 16.7), when));
    report.line("Over the run, " + stalls.machine(t0, runEnded) + ".");
    if (statements()) {
      serverStatements(t0);
    }
    report.line(gridMoves.isEmpty() ? "The hour grid kept its size and place throughout the run." : String.format(
        "The hour grid changed its size or place %d times during the run (at %s s), each a repaint of the whole grid.",
        gridMoves.size(), gridMoves.stream().limit(12).map(t -> String.format("%.1f", (t - t0) / 1e9))
            .collect(Collectors.joining(", "))));
    var byCause = gc.all().stream().collect(Collectors.groupingBy(GcPauses.Pause::cause, TreeMap::new,
        Collectors.mapping(GcPauses.Pause::millis, Collectors.toList())));
    report.line(byCause.isEmpty() ? "The garbage collector paused this JVM not once meanwhile." : "Garbage collection "
        + "in this JVM meanwhile, every pause that stopped its threads: " + byCause.entrySet().stream()
            .map(e -> String.format("%s %d, p50 %.1f ms, longest %.1f ms, %.0f ms in all", e.getKey(), e.getValue().size(),
                Report.percentile(e.getValue(), 50), max(e.getValue()), e.getValue().stream().mapToDouble(Double::doubleValue)
                    .sum()))
            .collect(Collectors.joining("; ")) + ".");
  }

  /** What of the gap from {@code from} to {@code to} the collector's pauses took, or nothing when none fell in it. */
  private static String pausedWithin(GcPauses gc, long from, long to) {
    List<GcPauses.Pause> within = gc.within(from, to);
    return within.isEmpty() ? "" : String.format(" (%d collector pauses in it, %.0f ms: %s)", within.size(),
        within.stream().mapToDouble(GcPauses.Pause::millis).sum(), within.stream().map(GcPauses.Pause::cause).distinct()
            .collect(Collectors.joining(", ")));
  }

  private static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }

  /** Runs {@code work} on the FX thread and waits for its result. */
  static <T> T onFx(Supplier<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Platform.runLater(() -> {
      try {
        result.complete(work.get());
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    });
    try {
      return result.get(10, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The operator who says yes: the bench starts the backfill the screen asks about. */
  static final class Yes implements DialogService {
    @Override
    public Optional<Path> chooseSpecFile(Optional<Path> current) {
      return Optional.empty();
    }

    @Override
    public Optional<Path> chooseExportFile(String title, String suggestedName, String extension) {
      return Optional.empty();
    }

    @Override
    public boolean confirmBackfill(BackfillRequest request) {
      return true;
    }

    @Override
    public boolean confirmCancelRun(String runId, long hoursDone, long hoursTotal) {
      return false;
    }

    @Override
    public boolean confirmCloseWhileRunning(String runId, long hoursDone, long hoursTotal) {
      return false;
    }

    @Override
    public Optional<Abandonment> confirmAbandon(AbandonRequest request) {
      return Optional.empty();
    }

    @Override
    public boolean confirmDeployView(dev.cutover.engine.api.LiveDeployment deployment, String target) {
      return false;
    }

    @Override
    public boolean confirmDeployLiveWriter(HourPartition from, String description) {
      return false;
    }

    @Override
    public Optional<String> declareLiveWriter(HourPartition from, String target) {
      return Optional.empty();
    }

    @Override
    public Optional<String> acknowledgeSideEffect(SideEffectRequest request) {
      return Optional.empty();
    }

    @Override
    public Optional<String> acknowledgeDifference(AckRequest request) {
      return Optional.empty();
    }

    @Override
    public Optional<String> withdrawAcknowledgement(WithdrawRequest request) {
      return Optional.empty();
    }

    @Override
    public Optional<String> confirmCutover(SwapRequest request) {
      return Optional.empty();
    }

    @Override
    public Optional<Confirmed> confirmRollback(SwapRequest request) {
      return Optional.empty();
    }

    @Override
    public boolean confirmCleanup(String target) {
      return false;
    }

    @Override
    public Optional<String> confirmDropV1(DropRequest request) {
      return Optional.empty();
    }

    @Override
    public Optional<dev.cutover.engine.api.SavedProfile> editProfile(Optional<dev.cutover.engine.api.SavedProfile> p) {
      return Optional.empty();
    }

    @Override
    public Optional<char[]> askPassword(dev.cutover.engine.api.SavedProfile profile) {
      return Optional.empty();
    }

    @Override
    public boolean confirmDeleteProfile(dev.cutover.engine.api.SavedProfile profile) {
      return false;
    }
  }

  /** Whether the section prints the server's statements of the run (-Dbench.jvm=-Dbench.ui.statements=true). */
  static boolean statements() {
    return Boolean.getBoolean("bench.ui.statements");
  }

  /**
   * The server's statements in the backfill's first 3 s and in 3 s of its steady state, from the query log, by the
   * CPU time they took: what shares the two cores with the console when its frames come late.
   */
  private void serverStatements(long t0) {
    long startMillis = System.currentTimeMillis() - (System.nanoTime() - t0) / 1_000_000;
    sql.execute("flush the query log", "SYSTEM FLUSH LOGS");
    String cpu = "sum(ProfileEvents['UserTimeMicroseconds'] + ProfileEvents['SystemTimeMicroseconds'])";
    for (long[] span : new long[][] {{0, 3000}, {50_000, 53_000}}) {
      report.line(String.format("The server's statements %.0f to %.0f s into the run, by CPU time:", span[0] / 1e3,
          span[1] / 1e3));
      sql.query("read the run's statements", "SELECT format('{} × {} ms CPU, {} ms in all, up to {} threads, {} rows: "
          + "{}', toString(count()), toString(round(" + cpu + " / 1000)), toString(sum(query_duration_ms)), "
          + "toString(max(peak_threads_usage)), toString(sum(read_rows)), substring(replaceRegexpAll(any(query), "
          + "'[[:space:]]+', ' '), 1, 160)) FROM system.query_log WHERE type = 'QueryFinish' AND event_time_microseconds "
          + "BETWEEN fromUnixTimestamp64Milli(?) AND fromUnixTimestamp64Milli(?) GROUP BY normalized_query_hash "
          + "ORDER BY " + cpu + " DESC LIMIT 12", rs -> rs.string(1), startMillis + span[0], startMillis + span[1])
          .forEach(line -> report.line("- " + line));
    }
  }
}
