package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** One way for a figure and a time to read, on the console and the command line alike. */
class FiguresTest {

  @Test
  void aFigureKeepsAtMostThreeDigitsAfterThePointAndGroupsItsThousands() {
    assertEquals("-21,417.313", Figures.decimal(-21417.313000000002));
    assertEquals("-21,417.313", Figures.decimal("-21417.313000000002"), "as the server printed it");
    assertEquals("1.5", Figures.decimal(1.5), "no trailing zeros");
    assertEquals("4,423", Figures.decimal(4423.0));
    assertEquals("0.001", Figures.decimal(0.0006));
    assertEquals("0", Figures.decimal(0.0004), "below what a figure keeps");
    assertEquals("1,234,567", Figures.count(1_234_567));
    assertEquals("NaN", Figures.decimal(Double.NaN));
    assertEquals("n/a", Figures.decimal("n/a"), "not a number: kept as printed");
  }

  @Test
  void aTimeReadsToTheMinuteOrToTheSecondWhenItFallsWithinOne() {
    assertEquals("2026-11-30 03:00 UTC", Figures.time(Instant.parse("2026-11-30T03:00:00Z")));
    assertEquals("2026-11-30 03:00:51 UTC", Figures.time(Instant.parse("2026-11-30T03:00:51Z")));
    assertEquals("2026-11-30 03:00:00 UTC", Figures.time(Instant.parse("2026-11-30T03:00:00.522Z")),
        "never a whole minute it is not");
    assertEquals("2026-11-30 03:00 UTC", Figures.hour(HourPartition.of(Instant.parse("2026-11-30T03:00:00Z"))));
  }

  @Test
  void aDurationReadsInItsTwoLargestUnitsTheSecondPadded() {
    assertEquals("0 s", Figures.duration(java.time.Duration.ZERO));
    assertEquals("850 ms", Figures.duration(java.time.Duration.ofMillis(850)));
    assertEquals("12.3 s", Figures.duration(java.time.Duration.ofMillis(12_340)));
    assertEquals("3 min 05 s", Figures.duration(java.time.Duration.ofSeconds(185)));
    assertEquals("2 h 05 min", Figures.duration(java.time.Duration.ofMinutes(125)));
    assertEquals("3 d 04 h", Figures.duration(java.time.Duration.ofHours(76)));
    assertEquals("-12.3 s", Figures.duration(java.time.Duration.ofMillis(-12_340)));
  }
}
