package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.HourPartition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Which batches one task writes together: consecutive, joinable, a few at most. */
class BatchesTest {

  private static final HourPartition START = HourPartition.of(Instant.parse("2026-06-01T00:00:00Z"));

  private static List<HourPartition> hours(int from, int count) {
    return Stream.iterate(START.plusHours(from), h -> h.plusHours(1)).limit(count).toList();
  }

  @Test
  void consecutiveBatchesAreTakenFourAtATime() {
    List<List<HourPartition>> batches = Batches.of(hours(0, 24 * 10), 24);
    List<Integer> tasks = new ArrayList<>();
    for (int i = 0; i < batches.size(); ) {
      int n = Batches.together(batches, i, h -> true);
      tasks.add(n);
      i += n;
    }
    assertEquals(List.of(4, 4, 2), tasks);
  }

  @Test
  void aGapAnHourThatIsNotJoinableOrTheHoursCeilingEndsATask() {
    List<HourPartition> gapped = new ArrayList<>(hours(0, 48));
    gapped.addAll(hours(72, 48));
    List<List<HourPartition>> batches = Batches.of(gapped, 24);
    assertEquals(2, Batches.together(batches, 0, h -> true), "the third batch does not follow the second");

    List<List<HourPartition>> days = Batches.of(hours(0, 24 * 4), 24);
    HourPartition held = START.plusHours(24 * 2 + 5);
    assertEquals(2, Batches.together(days, 0, h -> !h.equals(held)), "the third batch holds an hour that may not join");
    assertEquals(1, Batches.together(days, 2, h -> !h.equals(held)), "a batch that may not join is written alone");

    assertEquals(2, Batches.together(Batches.of(hours(0, 96 * 3), 48), 0, h -> true), "at most 96 hours");
    assertEquals(1, Batches.together(Batches.of(hours(0, 96 * 3), 96), 0, h -> true));
    assertEquals(4, Batches.together(Batches.of(hours(0, 30), 1), 0, h -> true), "at most four batches");
  }
}
