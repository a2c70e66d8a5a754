package dev.cutover.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.HourPartition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A report's explained keys are read from as few differing hours as hold that many keys, by their counts. */
class ExplainedKeysTest {

  @Test
  void theFirstHoursThatHoldEnoughKeysAreRead() {
    List<HourPartition> hours = hours(5);
    Map<HourPartition, Map<String, Long>> counts = Map.of(hours.get(0), Map.of("fee fix", 120L),
        hours.get(1), Map.of("fee fix", 60L, "!CHANGED", 30L), hours.get(2), Map.of("fee fix", 500L));
    assertEquals(hours.subList(0, 2), KeySample.firstHolding(hours, counts, 200));
    assertEquals(hours.subList(0, 1), KeySample.firstHolding(hours, counts, 100));
  }

  @Test
  void hoursWithoutCountsAreReadUpToTheSampleSize() {
    List<HourPartition> hours = hours(Reconciler.SAMPLE_HOURS + 10);
    assertEquals(hours.subList(0, Reconciler.SAMPLE_HOURS), KeySample.firstHolding(hours, Map.of(), 200));
    assertEquals(List.of(), KeySample.firstHolding(List.of(), Map.of(), 200));
  }

  private static List<HourPartition> hours(int count) {
    HourPartition first = HourPartition.of(Instant.parse("2026-06-01T00:00:00Z"));
    return IntStream.range(0, count).mapToObj(first::plusHours).toList();
  }
}
