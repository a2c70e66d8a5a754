package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The time left as the Backfill screen and the command line show it, fed as a run feeds it: batches of hours that
 * complete at once, with rests between, read every second.
 */
class EtaTest {

  private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
  private static final long TOTAL = 4_000;

  @Test
  void whileThePaceHoldsTheTimeLeftNeverRisesAndEndsNearTheRealEnd() {
    // 24 hours every 10 s (a batch, then its rest), read every second: the real end is at 4000 / 2.4 = 1667 s.
    Eta eta = new Eta();
    Duration previous = null;
    long done = 0;
    for (int second = 0; done < TOTAL; second++) {
      if (second > 0 && second % 10 == 0) {
        done = Math.min(TOTAL, done + 24);
      }
      Instant now = T0.plusSeconds(second);
      eta.observe(now, done);
      Optional<Eta.Estimate> e = eta.at(now, TOTAL - done);
      if (e.isEmpty()) {
        assertTrue(second < 40, "known after a few batches, not at second " + second);
        continue;
      }
      Duration left = e.get().left();
      if (previous != null) {
        assertTrue(left.compareTo(previous) <= 0, "rose from " + previous + " to " + left + " at second " + second);
      }
      long realLeft = (long) Math.ceil((TOTAL - done) / 24.0) * 10 - second % 10;
      assertTrue(Math.abs(left.toSeconds() - realLeft) <= 10, "at second " + second + ": " + left + " against "
          + realLeft + " s");
      assertTrue(!e.get().soonest().isNegative() && e.get().soonest().compareTo(left) <= 0
          && e.get().latest().compareTo(left) >= 0, e.get().toString());
      previous = left;
    }
    assertEquals(Optional.of(new Eta.Estimate(Duration.ZERO, Duration.ZERO, Duration.ZERO)), eta.at(T0, 0));
  }

  @Test
  void aRunThatStopsCompletingHoursGetsALaterEstimateAndAWiderRange() {
    Eta eta = new Eta();
    for (int batch = 1; batch <= 6; batch++) {
      eta.observe(T0.plusSeconds(10L * batch), 24L * batch);
    }
    Instant last = T0.plusSeconds(60);
    Duration onPace = eta.at(last, 1_000).orElseThrow().left();
    assertEquals(Duration.ofMillis(Math.round(1_000 / 2.4 * 1000)), onPace);
    // Two minutes with no hour done: far longer than any interval seen, so the pace counts the wait.
    Duration stalled = eta.at(last.plusSeconds(120), 1_000).orElseThrow().left();
    assertTrue(stalled.compareTo(onPace) > 0, onPace + " then " + stalled);
  }

  @Test
  void unevenBatchesGiveARangeAroundTheEstimate() {
    Eta eta = new Eta();
    long done = 0;
    int second = 0;
    eta.observe(T0, 0);
    for (int batch = 0; batch < 8; batch++) {
      second += batch % 2 == 0 ? 5 : 15; // a quick batch, then a slow one
      done += 24;
      eta.observe(T0.plusSeconds(second), done);
    }
    Eta.Estimate e = eta.at(T0.plusSeconds(second), 480).orElseThrow();
    assertEquals(Duration.ofSeconds(200), e.left(), "480 hours at 24 per 10 s on average");
    assertEquals(Duration.ofSeconds(100), e.soonest(), "at the quick batches' pace");
    assertEquals(Duration.ofSeconds(300), e.latest(), "at the slow batches' pace");
  }
}
