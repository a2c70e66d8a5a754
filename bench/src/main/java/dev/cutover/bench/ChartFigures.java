package dev.cutover.bench;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;

/**
 * The figures of the chart refresh benchmark: per case, the median, p95 and maximum from the step to
 * the pixels and their ratio to the budget; every step over the budget with where its time went; and
 * the medians of each part of a refresh.
 */
final class ChartFigures {

  /** The target: a refresh of the charts under 50 ms at any zoom. */
  static final double BUDGET_MS = 50;

  private final Report report;
  private final String setUp;

  /**
   * @param screen the size of the screen the whole-screen snapshot renders
   * @param card the charts card's bounds
   * @param setUp how many steps and warm-up rounds, in words, for the table's title
   */
  ChartFigures(Report report, String screen, Bounds card, String setUp) {
    this.report = report;
    this.setUp = setUp + "; to pixels = the step, CSS and layout and a software-rendered snapshot of the whole "
        + "screen (" + screen + String.format("); charts card only = the same ending with a snapshot of the charts "
        + "card (%.0f × %.0f), what the pulse repaints", card.getWidth(), card.getHeight());
  }

  void print(SixMonthReport six, List<ChartCase> cases, double first) {
    report.section(String.format("6. Chart refresh on six months (%,d hours, %d measures, %,d differing keys): "
        + "milliseconds; target < %.0f ms", six.report().hours().size(), six.spec().measures().size(),
        six.report().keys().size(), BUDGET_MS), "step onto the view", "hours in view", "px per hour", "FX thread p50",
        "to pixels p50", "p95", "max", "p50 / 50 ms", "max / 50 ms", "charts card only: p50 / max");
    for (ChartCase c : cases) {
      List<Double> screen = total(c.screen());
      List<Double> card = total(c.card());
      double[] last = c.screen().getLast();
      double p50 = Report.percentile(screen, 50);
      double max = Report.percentile(screen, 100);
      report.cells(c.name(), String.format("%,.0f", last[3]), String.format(last[4] < 1 ? "%.2f" : "%.0f", last[4]),
          String.format("%.1f", Report.percentile(c.all().stream().map(s -> s[0] + s[1]).toList(), 50)),
          String.format("%.1f", p50), String.format("%.1f", Report.percentile(screen, 95)), String.format("%.1f", max),
          String.format("%.2f", p50 / BUDGET_MS), String.format("%.2f", max / BUDGET_MS),
          String.format("%.1f / %.1f", Report.percentile(card, 50), Report.percentile(card, 100)));
    }
    report.line(String.format("%s; FX thread = the step with the redraws its listeners make, then CSS and layout. "
        + "The first step of all, before the warm-up: %.0f ms.", setUp, first));
    overBudget(cases);
    report.section("6. Where a refresh's time goes: medians in milliseconds", "step onto the view",
        "step and the charts' redraw", "CSS and layout", "render: charts card", "render: whole screen",
        "CPU of the FX and render threads, whole screen");
    for (ChartCase c : cases) {
      report.cells(c.name(), median(c.all(), 0), median(c.all(), 1), median(c.card(), 2), median(c.screen(), 2),
          median(c.screen(), 6));
    }
  }

  /** Names every step slower than the budget, with where its time went, so that a slow step can be told from noise. */
  private void overBudget(List<ChartCase> cases) {
    List<String> slow = new ArrayList<>();
    int steps = 0;
    for (ChartCase c : cases) {
      for (boolean screen : new boolean[] {true, false}) {
        for (double[] s : screen ? c.screen() : c.card()) {
          steps++;
          if (s[0] + s[1] + s[2] > BUDGET_MS) {
            slow.add(String.format("%s, %s: %.1f ms (step %.1f, CSS and layout %.1f, render %.1f; CPU %.1f ms; %s)",
                c.name(), screen ? "whole screen" : "charts card", s[0] + s[1] + s[2], s[0], s[1], s[2], s[6],
                s[5] > 0 ? "a garbage collection ran" : "no garbage collection"));
          }
        }
      }
    }
    report.line(String.format("Steps over %.0f ms: %d of %,d%s", BUDGET_MS, slow.size(), steps, slow.isEmpty() ? "."
        : ": " + String.join("; ", slow) + "."));
  }

  /** Milliseconds from the step to the pixels, one value per sample. */
  private static List<Double> total(List<double[]> samples) {
    return samples.stream().map(s -> s[0] + s[1] + s[2]).toList();
  }

  private static String median(List<double[]> samples, int part) {
    return String.format("%.1f", Report.percentile(samples.stream().map(s -> s[part]).toList(), 50));
  }
}
