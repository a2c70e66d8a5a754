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
  private static final Reconciliation.Fingerprint SEEN = new Reconciliation.Fingerprint(3, Map.of("CHANGED", 3L),
      Map.of("clicks", "-3"), 42);

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
        new Acknowledgement(H, List.of(), "the whole hour", "ops", AT, SEEN),
        new Acknowledgement(H.plusHours(1), List.of("k0"), "one key", "ops", AT, SEEN),
        new Acknowledgement(H.plusHours(1), List.of("k2"), "another", "ops", AT, SEEN),
        new Acknowledgement(H.plusHours(2), List.of("explained"), "an expected key accepts nothing", "ops", AT, SEEN));
    Reconciliation r = new Reconciliation("r", "spec", "db.t_v2", Reconciliation.Scope.REPAIR, "repair", "sha", AT,
        new HourRange(H, H.plusHours(4)), H.plusHours(4), Reconciliation.Verdict.RED, List.of(), keys, false, counts,
        List.of(), acks, List.of());

    assertEquals(List.of(0L, 1L, 3L, 3L), List.of(r.unexpectedIn(H), r.unexpectedIn(H.plusHours(1)),
        r.unexpectedIn(H.plusHours(2)), r.unexpectedIn(H.plusHours(3))));
    assertEquals(7, r.unexpectedKeys());
    assertEquals(28, r.expectedKeys());
  }

  /** An acknowledgement whose hour changed since accepts nothing: its keys are open again, and it is listed as lapsed. */
  @Test
  void aLapsedAcknowledgementAcceptsNothing() {
    Map<HourPartition, Map<String, Long>> counts = Map.of(H, Map.of(Reconciliation.UNEXPECTED + "CHANGED", 3L));
    List<Diff.KeyDiff> keys = List.of(key(H, "k0", Optional.empty()), key(H, "k1", Optional.empty()),
        key(H, "k2", Optional.empty()));
    Acknowledgement whole = new Acknowledgement(H, List.of(), "the whole hour", "ops", AT, SEEN);
    Acknowledgement lapsed = whole.lapse("the acknowledged hour changed since it was acknowledged");
    Reconciliation held = reconciliation(counts, keys, List.of(whole));
    Reconciliation changed = reconciliation(counts, keys, List.of(lapsed));

    assertEquals(List.of(0L, 3L), List.of(held.unexpectedIn(H), changed.unexpectedIn(H)));
    assertEquals(List.of(0L, 3L), List.of(held.unexpectedKeys(), changed.unexpectedKeys()));
    assertEquals(List.of(List.of(whole), List.<Acknowledgement>of()), List.of(held.held(), changed.held()));
    assertEquals(List.of(lapsed), changed.lapsed());
    Acknowledgement unrecorded = new Acknowledgement(H, List.of(), "made by an earlier version", "ops", AT,
        Optional.empty(), Optional.empty());
    assertEquals(3L, reconciliation(counts, keys, List.of(unrecorded)).unexpectedKeys(),
        "one recorded without what it accepted accepts nothing");
  }

  private static Reconciliation reconciliation(Map<HourPartition, Map<String, Long>> counts, List<Diff.KeyDiff> keys,
      List<Acknowledgement> acks) {
    return new Reconciliation("r", "spec", "db.t_v2", Reconciliation.Scope.REPAIR, "repair", "sha", AT,
        new HourRange(H, H.plusHours(1)), H.plusHours(1), Reconciliation.Verdict.RED, List.of(), keys, false, counts,
        List.of(), acks, List.of());
  }

  private static Diff.KeyDiff key(HourPartition h, String key, Optional<String> rule) {
    return new Diff.KeyDiff(h, List.of(key), Diff.Kind.CHANGED, 1, 1, Map.of(), Map.of(), rule);
  }
}
