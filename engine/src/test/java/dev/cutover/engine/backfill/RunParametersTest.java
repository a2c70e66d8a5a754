package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A run's record keeps its affected window, so that a resumed bounded run carries and computes as it began. */
class RunParametersTest {

  @Test
  void theAffectedWindowSurvivesTheRunRecord() {
    BackfillSettings settings = new BackfillSettings(3, 12, 2, 0, 0, 0, java.time.Duration.ZERO, 3,
        java.time.Duration.ofSeconds(1), java.time.Duration.ofMinutes(10));
    HourPartition from = HourPartition.of(Instant.parse("2026-06-03T00:00:00Z"));
    HourRange window = new HourRange(from, from.plusHours(36));
    String stored = RunParameters.encode(settings, Optional.of(window));
    assertEquals(Optional.of(window), RunParameters.affected(stored));
    assertEquals(settings, RunParameters.decode(stored, settings.withConcurrency(1)));
    assertEquals(Optional.empty(), RunParameters.affected(RunParameters.encode(settings)));
    assertEquals(Optional.empty(), RunParameters.affected("{\"concurrency\": 2}"), "a record from before");
    BackfillSettings nice = settings.withNice(12);
    assertEquals(nice, RunParameters.decode(RunParameters.encode(nice), settings), "a resumed run keeps its nice value");
    assertEquals(7, RunParameters.decode("{\"concurrency\": 2}", settings.withNice(7)).nice(),
        "a record from before takes the fallback's");
    BackfillSettings resting = settings.withRestPercent(100);
    assertEquals(resting, RunParameters.decode(RunParameters.encode(resting), settings), "a resumed run keeps its rest");
    assertEquals(0, RunParameters.decode("{\"concurrency\": 2}", settings).restPercent(),
        "a record from before rested not at all");
  }
}
