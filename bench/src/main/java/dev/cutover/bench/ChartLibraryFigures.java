package dev.cutover.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The figures of section 28: per case, the median, p95 and maximum from the step to the pixels on the
 * console's canvas and in the chart library, and the library's time over the canvas's in each round's
 * pair (median, lowest, highest); where each side's time went; the steps over the budget; the first frames.
 */
final class ChartLibraryFigures {

  private final Report report;
  private final SixMonthReport six;
  private final String card;
  private final int warmUp;
  private final int rounds;

  ChartLibraryFigures(Report report, SixMonthReport six, String card, int warmUp, int rounds) {
    this.report = report;
    this.six = six;
    this.card = card;
    this.warmUp = warmUp;
    this.rounds = rounds;
  }

  /**
   * @param firstFrame milliseconds to the first snapshot of each side's charts, built on the report: canvas, library
   * @param firstStep the first timed step of each side, before the warm-up
   */
  void print(List<LibraryCase> cases, double[] firstFrame, double[] firstStep, double seconds) {
    report.section(String.format("28. Chart refresh on six months (%,d hours, %d measures), the console's canvas "
        + "and ChartFX 11.3.1: milliseconds from the step to a snapshot of the charts card (%s); target < %.0f ms",
        six.report().hours().size(), six.spec().measures().size(), card, ChartFigures.BUDGET_MS),
        "step onto the view", "hours in view", "canvas p50", "p95", "max", "ChartFX p50", "p95", "max",
        "ChartFX / canvas, median of pairs", "lowest", "highest");
    List<Double> allRatios = new ArrayList<>();
    for (LibraryCase c : cases) {
      List<Double> own = LibraryCase.total(c.own());
      List<Double> library = LibraryCase.total(c.library());
      List<Double> ratios = new ArrayList<>();
      for (int i = 0; i < Math.min(own.size(), library.size()); i++) {
        ratios.add(library.get(i) / own.get(i));
      }
      allRatios.addAll(ratios);
      report.cells(c.name(), String.format("%,d", c.to()[0].hours()), ms(own, 50), ms(own, 95), ms(own, 100),
          ms(library, 50), ms(library, 95), ms(library, 100), times(ratios, 50), times(ratios, 0), times(ratios, 100));
    }
    report.line(String.format("%d steps a side a case after %d rounds of warm-up, the two sides in turns, case by "
        + "case (which goes first alternates); pairs = the two sides' steps of one case in one round. Every pair "
        + "of every case: median **%s** (%s to %s). To pixels = the step, CSS and layout (with ChartFX's pre- "
        + "and post-layout work, where it draws, as a pulse runs it), then a software-rendered snapshot of the "
        + "console's charts card, or of ChartFX's two charts at the card's size. ChartFX's renderers %s. The section "
        + "took %.0f s.", rounds, warmUp, times(allRatios, 50), times(allRatios, 0), times(allRatios, 100),
        LibraryCharts.PARALLEL ? "compute screen coordinates on threads of their own (the library's default)"
            : "draw on the FX thread alone (their parallel implementation off)", seconds));
    // Each side's floor is what its scene costs to lay out and render when nothing moves; the console's scene is
    // the whole screen and its card holds the controls, the library's holds its two charts alone.
    LibraryCase floor = cases.getLast();
    double ownFloor = Report.percentile(LibraryCase.total(floor.own()), 50);
    double libraryFloor = Report.percentile(LibraryCase.total(floor.library()), 50);
    report.section("28. Where a refresh's time goes: medians in milliseconds", "step onto the view",
        "canvas: step and redraw", "CSS and layout", "render", "p50 over its floor", "ChartFX: step",
        "CSS, layout and drawing", "render", "p50 over its floor", "ChartFX steps of more than one pass");
    for (LibraryCase c : cases) {
      long extra = c.library().stream().filter(s -> s[3] > 1).count();
      report.cells(c.name(), median(c.own(), 0), median(c.own(), 1), median(c.own(), 2),
          String.format("%.1f", Report.percentile(LibraryCase.total(c.own()), 50) - ownFloor), median(c.library(), 0),
          median(c.library(), 1), median(c.library(), 2),
          String.format("%.1f", Report.percentile(LibraryCase.total(c.library()), 50) - libraryFloor),
          String.format("%d of %d", extra, c.library().size()));
    }
    report.line(String.format("Steps over %.0f ms: canvas %s; ChartFX %s. First frame (the charts built on the "
        + "report, shown, laid out and rendered to a snapshot, the toolkit warmed by a label first; the console's "
        + "screen first, ChartFX second): canvas %.0f ms (the whole Reconcile screen), ChartFX %.0f ms (its two "
        + "charts). The first timed step of each, before the warm-up: canvas %.1f ms, ChartFX %.1f ms.",
        ChartFigures.BUDGET_MS, overBudget(cases, true), overBudget(cases, false), firstFrame[0], firstFrame[1],
        firstStep[0], firstStep[1]));
  }

  private static String overBudget(List<LibraryCase> cases, boolean own) {
    int steps = 0;
    List<String> slow = new ArrayList<>();
    for (LibraryCase c : cases) {
      for (double[] s : own ? c.own() : c.library()) {
        steps++;
        if (s[0] + s[1] + s[2] > ChartFigures.BUDGET_MS) {
          slow.add(String.format("%s %.1f ms (step %.1f, layout %.1f, render %.1f, %d passes%s)", c.name(),
              s[0] + s[1] + s[2], s[0], s[1], s[2], (int) s[3], s[4] > 0 ? ", a garbage collection ran" : ""));
        }
      }
    }
    return String.format("%d of %,d", slow.size(), steps) + (slow.isEmpty() ? "" : " (" + String.join("; ", slow)
        + ")");
  }

  private static String ms(List<Double> values, int p) {
    return values.isEmpty() ? "–" : String.format("%.1f", Report.percentile(values, p));
  }

  private static String times(List<Double> ratios, int p) {
    return ratios.isEmpty() ? "–" : String.format("%.2f×", p == 0 ? ratios.stream().mapToDouble(d -> d).min()
        .orElse(0) : Report.percentile(ratios, p));
  }

  private static String median(List<double[]> samples, int part) {
    return samples.isEmpty() ? "–"
        : String.format("%.1f", Report.percentile(samples.stream().map(s -> s[part]).toList(), 50));
  }
}
