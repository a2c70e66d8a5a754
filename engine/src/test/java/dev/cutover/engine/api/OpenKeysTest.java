package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The unexpected keys a verdict leaves open: what ClickHouse counted per hour, less what an
 * acknowledgement of the whole hour or of a listed key accepts; the total is the hours' sum.
 */
class OpenKeysTest {

  private static final HourPartition H = HourPartition.ofEpochSecond(1_780_000_000L / 3600 * 3600);
  private static final Instant AT = Instant.parse("2026-11-30T12:00:00Z");

  @Test
  void theOpenKeysOfAVerdictAreTheSumOfItsHoursLessWhatIsAcknowledged() {
    Map<HourPartition, Map<String, Long>> counts = new TreeMap<>();
    List<Diff.KeyDiff> keys = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      HourPartition h = H.plusHours(i);
      counts.put(h, Map.of(Reconciliation.UNEXPECTED + "CHANGED", 3L, "fees-subtracted", 7L));
      for (int k = 0; k < 3; k++) {
        keys.add(key(h, "k" + k, Optional.empty()));
      }
      keys.add(key(h, "explained", Optional.of("fees-subtracted")));
    }
    List<Acknowledgement> acks = List.of(
        new Acknowledgement(H, List.of(), "the whole hour", "ops", AT),
        new Acknowledgement(H.plusHours(1), List.of("k0"), "one key", "ops", AT),
        new Acknowledgement(H.plusHours(1), List.of("k2"), "another", "ops", AT),
        new Acknowledgement(H.plusHours(2), List.of("explained"), "an expected key accepts nothing", "ops", AT));
    Reconciliation r = new Reconciliation("r", "spec", "db.t_v2", Reconciliation.Scope.REPAIR, "repair", "sha", AT,
        new HourRange(H, H.plusHours(4)), H.plusHours(4), Reconciliation.Verdict.RED, List.of(), keys, false, counts,
        List.of(), acks, List.of());

    assertEquals(List.of(0L, 1L, 3L, 3L), List.of(r.unexpectedIn(H), r.unexpectedIn(H.plusHours(1)),
        r.unexpectedIn(H.plusHours(2)), r.unexpectedIn(H.plusHours(3))));
    assertEquals(7, r.unexpectedKeys());
    assertEquals(28, r.expectedKeys());
  }

  private static Diff.KeyDiff key(HourPartition h, String key, Optional<String> rule) {
    return new Diff.KeyDiff(h, List.of(key), Diff.Kind.CHANGED, 1, 1, Map.of(), Map.of(), rule);
  }
}
