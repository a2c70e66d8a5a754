package dev.cutover.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * The charts of a six-month window (4,392 hours), pure: a report stays a reasonable size, draws at
 * most two points per pixel column, keeps a one-hour spike, marks a single problem hour at least 3
 * pixels wide, dates its axis by month without crowding, and shows the hours around B on a chart of
 * their own.
 */
class ReportChartTest {

  private static final Identifier PNL = Identifier.of("pnl");
  private static final HourPartition FIRST = HourPartition.parse("first", "2026-06-01T00:00");
  private static final int HOURS = 4392;
  private static final int SPIKE = 1000;
  private static final int UNEXPECTED = 2000;
  private static final int GAP = 3000;
  private static final HourPartition BOUNDARY = FIRST.plusHours(HOURS - 30);

  private static Reconciliation sixMonths() {
    List<Diff.HourDiff> hours = new ArrayList<>();
    List<Reconciliation.HourClass> classes = new ArrayList<>();
    for (int i = 0; i < HOURS; i++) {
      HourPartition h = FIRST.plusHours(i);
      double v1 = 1000 + (i % 24) * 10.25;
      double v2 = i == SPIKE ? 250_000 : v1 - 12.5;
      hours.add(new Diff.HourDiff(h, 10, 10, 10, 10, 1, 2, List.of(new Diff.Total(PNL, v1, v2))));
      HourStatus status = i == UNEXPECTED ? HourStatus.UNEXPECTED : i == GAP ? HourStatus.GAP : HourStatus.EXPECTED;
      classes.add(new Reconciliation.HourClass(h, h.isBefore(BOUNDARY) ? Reconciliation.Owner.BACKFILL
          : Reconciliation.Owner.LIVE, status));
    }
    return new Reconciliation("r1", "pnl", "db.pnl_v2", Reconciliation.Scope.REPAIR, "repair", "sha",
        Instant.parse("2026-12-01T00:00:00Z"), new HourRange(FIRST, FIRST.plusHours(HOURS)), BOUNDARY,
        Reconciliation.Verdict.RED, hours, List.of(new Diff.KeyDiff(FIRST.plusHours(UNEXPECTED), List.of("book-1"),
            Diff.Kind.CHANGED, 1, 1, Map.of(PNL, 10.0), Map.of(PNL, 20.0), Optional.empty())), false,
        Map.of(FIRST.plusHours(UNEXPECTED), Map.of("!CHANGED", 1L)), List.of(new Reconciliation.CoverageIssue(
            FIRST.plusHours(GAP), "owner", "no writer wrote this hour")), List.of(), classes);
  }

  @Test
  void sixMonthsMakeAReadableChartOfReasonableSize() {
    String html = ReportExport.html(sixMonths());
    assertTrue(html.length() < 400_000, "the page is " + html.length() + " characters");
    Document page = Jsoup.parse(html);
    Element chart = page.selectFirst("svg.chart[data-view=window]");

    String[] points = chart.selectFirst("polyline.series.v2").attr("points").split(" ");
    int plot = ReportChart.WIDTH - ReportChart.LEFT - ReportChart.RIGHT;
    assertTrue(points.length <= 2 * plot, points.length + " points for " + plot + " pixel columns");
    double top = Arrays.stream(points).mapToDouble(p -> Double.parseDouble(p.split(",")[1])).min().orElseThrow();
    assertEquals(ReportChart.TOP, top, 0.1, "the one-hour spike of 250,000 reaches the top tick");

    Element unexpected = chart.selectFirst("rect.mark.unexpected");
    assertTrue(Double.parseDouble(unexpected.attr("width")) >= ReportChart.MIN_MARK);
    Element gap = chart.selectFirst("rect.mark.gap");
    assertTrue(Double.parseDouble(gap.attr("width")) >= ReportChart.MIN_MARK);

    List<Element> ticks = chart.select("text.time-tick");
    assertEquals(List.of("2026-06-01", "2026-07-01", "2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01"),
        ticks.stream().map(Element::text).toList());
    for (int i = 1; i < ticks.size(); i++) {
      double gapPx = Double.parseDouble(ticks.get(i).attr("x")) - Double.parseDouble(ticks.get(i - 1).attr("x"));
      assertTrue(gapPx >= ReportChart.TIME_LABEL_SPACING, "labels " + gapPx + " px apart");
    }
    assertEquals(List.of("0", "50k", "100k", "150k", "200k", "250k"),
        chart.select("text.value-tick.values").eachText());

    Element around = page.selectFirst("svg.chart[data-view=around-b]");
    assertTrue(around != null, "the hours around B get their own chart");
    assertTrue(around.select("text.time-tick tspan").eachText().stream().anyMatch(t -> t.matches("\\d{2}:00")));
    double overlapWidth = Double.parseDouble(around.selectFirst("rect.overlap").attr("width"));
    assertTrue(overlapWidth > plot / 3.0, "around B the overlap of 30 hours is wide: " + overlapWidth);
    assertEquals(around.selectFirst("line.boundary").attr("x1"), around.selectFirst("rect.overlap").attr("x"));
  }

  @Test
  void valueTicksAreRoundAndCoverTheRange() {
    assertEquals(List.of("-0.02", "-0.01", "0", "0.01", "0.02"), ChartAxes.valueTicks(-0.0164, 0.0157, 4).stream()
        .map(ChartAxes.ValueTick::label).toList());
    assertEquals(List.of("-3000", "-2000", "-1000", "0"), ChartAxes.valueTicks(-2534.6, 0, 3).stream()
        .map(ChartAxes.ValueTick::label).toList());
    assertEquals(List.of("0", "0.25M", "0.5M", "0.75M", "1M", "1.25M"), ChartAxes.valueTicks(0, 1_200_000, 4).stream()
        .map(ChartAxes.ValueTick::label).toList());
    assertEquals(List.of("-1", "-0.5", "0", "0.5", "1"), ChartAxes.valueTicks(0, 0, 4).stream()
        .map(ChartAxes.ValueTick::label).toList(), "a flat zero still gets an axis");
  }
}
