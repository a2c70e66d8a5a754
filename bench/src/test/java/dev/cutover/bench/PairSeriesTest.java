package dev.cutover.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairSeriesTest {

  /** A side that answers the given seconds in turn and notes each time it runs. */
  private static PairSeries.Side side(String name, List<String> ran, double... seconds) {
    Iterator<Double> next = java.util.Arrays.stream(seconds).boxed().iterator();
    return () -> {
      ran.add(name);
      return new PairSeries.Timed(name, next.next(), 24, 0);
    };
  }

  @Test
  void theSideThatRunsFirstAlternatesFromPairToPair() throws Exception {
    List<String> ran = new ArrayList<>();
    PairSeries series = new PairSeries("floor", "backfill");
    PairSeries.Side floor = side("floor", ran, 10, 10, 10, 10);
    PairSeries.Side backfill = side("backfill", ran, 9, 11, 12, 10);
    for (int i = 0; i < 4; i++) {
      series.run(floor, backfill);
    }
    assertEquals(List.of("floor", "backfill", "backfill", "floor", "floor", "backfill", "backfill", "floor"), ran);
    assertEquals(List.of(true, false, true, false), series.pairs().stream().map(PairSeries.Pair::baselineFirst).toList());
    assertEquals("pair 1, floor first", series.label(1));
    assertEquals("pair 2, backfill first", series.label(2));
  }

  @Test
  void eachSideKeepsItsOwnSecondsWhicheverRanFirst() throws Exception {
    List<String> ran = new ArrayList<>();
    PairSeries series = new PairSeries("floor", "backfill");
    series.run(side("floor", ran, 10), side("backfill", ran, 12));
    PairSeries.Pair second = series.run(side("floor", ran, 20), side("backfill", ran, 18));
    assertEquals(20, second.baseline().seconds());
    assertEquals(18, second.measured().seconds());
    assertEquals(0.9, second.ratio(), 1e-9);
  }

  @Test
  void theMedianOfAnOddNumberOfPairsIsTheMiddleRatio() throws Exception {
    List<String> ran = new ArrayList<>();
    PairSeries series = new PairSeries("floor", "backfill");
    PairSeries.Side floor = side("floor", ran, 10, 10, 10);
    PairSeries.Side backfill = side("backfill", ran, 13, 9, 11);
    for (int i = 0; i < 3; i++) {
      series.run(floor, backfill);
    }
    assertEquals(1.1, series.median(), 1e-9);
    assertEquals(0.9, series.min(), 1e-9);
    assertEquals(1.3, series.max(), 1e-9);
    assertEquals("1.30× (floor first), 0.90× (backfill first), 1.10× (floor first)", series.each());
    List<String> cells = series.cells("concurrency 1");
    assertEquals(List.of("concurrency 1", "3", "**1.10×**", "0.90×", "1.30×",
        "1.30× (floor first), 0.90× (backfill first), 1.10× (floor first)"), cells);
    assertEquals(PairSeries.COLUMNS.size(), cells.size());
  }

  @Test
  void theMedianOfAnEvenNumberIsTheMeanOfTheMiddleTwo() {
    PairSeries series = new PairSeries("floor", "backfill");
    double[] measured = {8, 12, 10, 14};
    for (int i = 0; i < measured.length; i++) {
      series.add(pair(i + 1, 10, measured[i]));
    }
    assertEquals(1.1, series.median(), 1e-9);
  }

  @Test
  void tooFewPairsMakeNoHeadline() {
    PairSeries series = new PairSeries("floor", "backfill");
    assertTrue(Double.isNaN(series.median()), "no pair, no median");
    series.add(pair(1, 10, 9));
    assertFalse(series.cells("concurrency 4").get(2).contains("**"), series.cells("concurrency 4").toString());
    assertTrue(series.cells("concurrency 4").get(2).contains("no headline"));
  }

  @Test
  void aSecondFigureOfTheSameRunsSharesTheirBaselineAndOrder() throws Exception {
    List<String> ran = new ArrayList<>();
    PairSeries endToEnd = new PairSeries("days alone", "bounded repair");
    PairSeries backfillOnly = new PairSeries("days alone", "bounded repair");
    PairSeries.Pair pair = endToEnd.run(side("days", ran, 4), side("bounded", ran, 6));
    backfillOnly.add(pair.withMeasured(new PairSeries.Timed("its backfill", 5, 24, 0)));
    assertEquals(1.5, endToEnd.median(), 1e-9);
    assertEquals(1.25, backfillOnly.median(), 1e-9);
    assertEquals("1.25× (days alone first)", backfillOnly.each());
    assertThrows(IllegalArgumentException.class, () -> backfillOnly.add(pair), "pair 1 again after pair 1");
  }

  @Test
  void theDaysOfARangeCoverItOnceTheLastCutAtItsEnd() {
    HourPartition from = HourPartition.of(Instant.parse("2026-01-01T00:00:00Z"));
    List<HourRange> days = DayInserts.days(new HourRange(from, from.plusHours(24 * 3 + 5)));
    assertEquals(4, days.size());
    assertEquals(from, days.getFirst().from());
    assertEquals(from.plusHours(24), days.getFirst().to());
    assertEquals(new HourRange(from.plusHours(72), from.plusHours(77)), days.getLast());
    for (int i = 1; i < days.size(); i++) {
      assertEquals(days.get(i - 1).to(), days.get(i).from(), "no gap and no overlap");
    }
  }

  private static PairSeries.Pair pair(int number, double baseline, double measured) {
    return new PairSeries.Pair(number, PairSeries.baselineFirst(number), new PairSeries.Timed("floor", baseline, 24, 0),
        new PairSeries.Timed("backfill", measured, 24, 0));
  }
}
