package dev.cutover.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class RatioIntervalTest {

  @Test
  void aRatioSetByTwoSlowSamplesReachesBackToOne() {
    List<Double> alone = Collections.nCopies(100, 100.0);
    List<Double> beside = new ArrayList<>(Collections.nCopies(98, 100.0));
    beside.add(300.0);
    beside.add(300.0);
    assertEquals(3.0, Report.percentile(beside, 99) / Report.percentile(alone, 99), 1e-9, "the point ratio");
    RatioInterval interval = RatioInterval.ofP99(beside, alone);
    assertEquals(1.0, interval.low(), 1e-9, "a resample without both slow hours is as fast as alone: " + interval);
    assertEquals(3.0, interval.high(), 1e-9, interval.toString());
  }

  @Test
  void aWholeShiftStaysWhereItIs() {
    List<Double> alone = new ArrayList<>();
    List<Double> beside = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      alone.add(100.0 + i % 7);
      beside.add(2 * (100.0 + i % 7));
    }
    RatioInterval interval = RatioInterval.ofP99(beside, alone);
    assertTrue(interval.low() > 1.8 && interval.high() < 2.2, interval.toString());
    assertEquals(interval, RatioInterval.ofP99(beside, alone), "the same samples, the same interval");
  }
}
