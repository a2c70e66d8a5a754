package dev.cutover.ui.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The ticks and labels of a chart's value axis: round, few enough to read, and never hiding the data. */
class ValueAxisTest {

  @Test
  void aRangeWidensToRoundTicksThatHoldEveryValue() {
    ValueAxis.Scale s = ValueAxis.nice(978.3, 22_544.5, 5);
    assertEquals(10_000, s.step(), "5k would take six ticks");
    assertEquals(List.of(0.0, 10_000.0, 20_000.0, 30_000.0), s.ticks());
    assertEquals(List.of("0", "10k", "20k", "30k"), s.ticks().stream().map(t -> ValueAxis.label(t, s)).toList());
  }

  @Test
  void aSymmetricRangeHasAZeroTickInTheMiddleAndSignedLabels() {
    ValueAxis.Scale s = ValueAxis.nice(-21_417.3, 21_417.3, 3);
    assertEquals(List.of(-25_000.0, 0.0, 25_000.0), s.ticks());
    assertEquals(List.of("−25k", "0", "25k"), s.ticks().stream().map(t -> ValueAxis.label(t, s)).toList());
    assertEquals(50, s.y(0, 0, 100), 1e-9, "zero in the middle of the plot");
  }

  @Test
  void aStepOfAFractionKeepsTheDecimalsItNeedsAndNoMore() {
    ValueAxis.Scale s = ValueAxis.nice(0.1, 0.9, 5);
    assertEquals(0.2, s.step(), 1e-12);
    assertEquals("0.4", ValueAxis.label(s.ticks().get(2), s));
    ValueAxis.Scale k = ValueAxis.nice(20_000, 27_000, 4);
    assertEquals("22.5k", ValueAxis.label(22_500, k), "a step of 2.5k reads with one decimal: " + k);
  }

  @Test
  void aFlatSeriesSitsInsideItsRangeNotOnItsEdge() {
    ValueAxis.Scale s = ValueAxis.nice(40, 40, 4);
    assertTrue(s.low() < 40 && 40 < s.high(), s.toString());
    ValueAxis.Scale none = ValueAxis.nice(0, 0, 2);
    assertTrue(none.low() < 0 && 0 < none.high(), none.toString());
  }

  @Test
  void aNarrowRangeOfLargeValuesStillHasADifferentLabelPerTick() {
    ValueAxis.Scale s = ValueAxis.nice(1_234_560_000, 1_234_600_000, 5);
    List<String> labels = s.ticks().stream().map(t -> ValueAxis.label(t, s)).toList();
    assertEquals(labels.size(), labels.stream().distinct().count(), labels.toString());
  }
}
