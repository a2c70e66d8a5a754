package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DiffDeltaTest {

  private static final Identifier PNL = Identifier.of("pnl");

  @Test
  void aDeltaOfDecimalsPrintsAsTheDecimalAnOperatorWouldWrite() {
    Diff.KeyDiff key = new Diff.KeyDiff(HourPartition.ofEpochSecond(1_782_925_200L), List.of("alpha"), Diff.Kind.CHANGED,
        1, 1, Map.of(PNL, 5_000_018.564), Map.of(PNL, 5_000_000.004), Optional.empty());
    assertEquals(-18.56, key.delta(PNL), 0.0, "5000000.004 - 5000018.564 in binary is not -18.56");
    assertEquals("-18.56", Double.toString(new Diff.Total(PNL, 5_000_018.564, 5_000_000.004).delta()));
    assertEquals(0.3, new Diff.Total(PNL, 0.1, 0.4).delta());
  }

  @Test
  void aDeltaOfNonFiniteTotalsStaysNonFinite() {
    assertTrue(Double.isNaN(new Diff.Total(PNL, Double.NaN, 1).delta()));
    assertEquals(Double.POSITIVE_INFINITY, new Diff.Total(PNL, 1, Double.POSITIVE_INFINITY).delta());
  }
}
