package dev.cutover.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.api.Reconciliation.Fingerprint;
import dev.cutover.engine.api.Reconciliation.HourClass;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.engine.api.Reconciliation.Owner;
import dev.cutover.engine.api.Reconciliation.Verdict;
import dev.cutover.engine.api.ShardRef;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Two shards' reconciliations read as one over the whole table, from reports built here (no server): what
 * the operator's charts, key table and verdict over a sharded table are made of.
 */
class OverShardsTest {

  private static final HourPartition H0 = HourPartition.parse("hour", "2026-06-01T00:00");
  private static final HourPartition H1 = H0.plusHours(1);
  private static final HourPartition B = H0.plusHours(2);
  private static final Identifier PNL = Identifier.of("pnl");
  private static final ShardRef ONE = new ShardRef(1, "shard 1 (n1:9000)");
  private static final ShardRef TWO = new ShardRef(2, "shard 2 (n2:9000)");

  private static Diff.HourDiff hour(HourPartition h, long rows1, long rows2, long sum1, long sum2, double v1,
      double v2) {
    return new Diff.HourDiff(h, rows1, rows2, rows1, rows2, sum1, sum2, List.of(new Diff.Total(PNL, v1, v2)));
  }

  private static Diff.KeyDiff key(HourPartition h, String k, Optional<String> rule) {
    return new Diff.KeyDiff(h, List.of(k), Diff.Kind.CHANGED, 1, 1, Map.of(PNL, 1.0), Map.of(PNL, 2.0), rule);
  }

  private static Reconciliation report(String id, Verdict verdict, List<Diff.HourDiff> hours, List<Diff.KeyDiff> keys,
      Map<HourPartition, Map<String, Long>> counts, List<Reconciliation.CoverageIssue> coverage,
      List<Acknowledgement> acks, List<HourClass> classes) {
    return new Reconciliation(id, "pnl", "trading.pnl_v2", Reconciliation.Scope.REPAIR, "repair-" + id, "abc",
        Instant.parse("2026-06-02T00:00:00Z"), new HourRange(H0, B), B, verdict, hours, keys, false, counts, coverage,
        acks, classes);
  }

  private static Reconciliation merged(Reconciliation one, Reconciliation two) {
    Map<ShardRef, Reconciliation> each = new LinkedHashMap<>();
    each.put(TWO, two); // out of order on purpose: shard order decides
    each.put(ONE, one);
    return OverShards.of(each);
  }

  @Test
  void anHoursFiguresAddOverTheShardsAndItsChecksumIsTheWholeTables() {
    Reconciliation one = report("a", Verdict.GREEN, List.of(hour(H0, 10, 10, 5, 5, 100, 100),
        hour(H1, 4, 4, 7, 9, 40, 44)), List.of(), Map.of(), List.of(), List.of(), List.of());
    Reconciliation two = report("b", Verdict.GREEN, List.of(hour(H0, 6, 6, -5, -5, 60, 60),
        hour(H1, 3, 3, 1, 1, 30, 30)), List.of(), Map.of(), List.of(), List.of(), List.of());
    Reconciliation r = merged(one, two);
    assertEquals("a+b", r.id(), "the shards' ids in shard order");
    assertEquals(List.of(H0, H1), r.hours().stream().map(Diff.HourDiff::hour).toList());
    Diff.HourDiff h0 = r.hours().getFirst();
    assertEquals(16, h0.rowsV1());
    assertEquals(16, h0.rowsV2());
    assertEquals(0, h0.checksumV1(), "checksums add modulo 2^64, as the whole table's would");
    assertTrue(h0.identical());
    assertEquals(160, h0.totals().getFirst().v1());
    Diff.HourDiff h1 = r.hours().get(1);
    assertFalse(h1.identical(), "a shard whose hour differs makes the table's hour differ");
    assertEquals(70, h1.totals().getFirst().v1());
    assertEquals(74, h1.totals().getFirst().v2());
    assertEquals(Long.MIN_VALUE, OverShards.hours(List.of(
        report("x", Verdict.GREEN, List.of(hour(H0, 1, 1, Long.MAX_VALUE, 0, 0, 0)), List.of(), Map.of(), List.of(),
            List.of(), List.of()),
        report("y", Verdict.GREEN, List.of(hour(H0, 1, 1, 1, 0, 0, 0)), List.of(), Map.of(), List.of(), List.of(),
            List.of()))).getFirst().checksumV1(), "wraps as ClickHouse's sum of UInt64 hashes does");
  }

  @Test
  void everyKeyNamesItsShardAndEveryHourIsAsBadAsItsWorstShard() {
    Reconciliation one = report("a", Verdict.GREEN, List.of(), List.of(key(H1, "k1", Optional.of("fix"))),
        Map.of(H1, Map.of("fix", 1L)), List.of(), List.of(), List.of(new HourClass(H0, Owner.BACKFILL,
        HourStatus.IDENTICAL), new HourClass(H1, Owner.BACKFILL, HourStatus.EXPECTED)));
    Reconciliation two = report("b", Verdict.RED, List.of(), List.of(key(H1, "k2", Optional.empty())),
        Map.of(H1, Map.of("!CHANGED", 1L, "fix", 2L)), List.of(new Reconciliation.CoverageIssue(H0, "gap",
        "v2 lacks the hour")), List.of(), List.of(new HourClass(H0, Owner.BACKFILL, HourStatus.GAP),
        new HourClass(H1, Owner.BACKFILL, HourStatus.UNEXPECTED)));
    Reconciliation r = merged(one, two);
    assertEquals(Verdict.RED, r.verdict(), "green only when every shard's is");
    assertEquals(List.of(Optional.of(ONE), Optional.of(TWO)), r.keys().stream().map(Diff.KeyDiff::shard).toList());
    assertEquals(Map.of("!CHANGED", 1L, "fix", 3L), r.counts().get(H1));
    assertEquals(1, r.unexpectedKeys());
    assertEquals(List.of(HourStatus.GAP, HourStatus.UNEXPECTED), r.classes().stream().map(HourClass::status).toList());
    assertEquals("shard 2 (n2:9000): v2 lacks the hour", r.coverage().getFirst().detail());
    assertEquals(Verdict.ACKNOWLEDGED, OverShards.worst(List.of(one, report("c", Verdict.ACKNOWLEDGED, List.of(),
        List.of(), Map.of(), List.of(), List.of(), List.of()))));
  }

  @Test
  void anAcknowledgementThatLapsedOnOneShardIsShownLapsed() {
    Fingerprint seen = new Fingerprint(1, Map.of("CHANGED", 1L), Map.of("pnl", "1"), 7);
    Acknowledgement held = new Acknowledgement(H1, List.of(), "why", "ops", Instant.EPOCH, seen);
    Acknowledgement lapsed = new Acknowledgement(H1, List.of(), "why", "ops", Instant.EPOCH, Optional.of(seen),
        Optional.of("2 keys now"));
    Reconciliation one = report("a", Verdict.ACKNOWLEDGED, List.of(), List.of(), Map.of(), List.of(), List.of(held),
        List.of());
    Reconciliation two = report("b", Verdict.RED, List.of(), List.of(), Map.of(), List.of(), List.of(lapsed), List.of());
    assertEquals(List.of(lapsed), merged(one, two).acknowledged());
    assertEquals(List.of(lapsed), merged(two, one).acknowledged());
  }

  @Test
  void theDifferencesOverEveryShardAddAndChangeWhenOneShardsDo() {
    Fingerprint a = new Fingerprint(2, Map.of("CHANGED", 2L), Map.of("pnl", "1.25"), 10);
    Fingerprint b = new Fingerprint(1, Map.of("ONLY_IN_V2", 1L), Map.of("pnl", "-0.5"), 5);
    Map<ShardRef, Fingerprint> each = new LinkedHashMap<>(Map.of(ONE, a, TWO, b));
    Fingerprint over = OverShards.fingerprint(each);
    assertEquals(3, over.keys());
    assertEquals(Map.of("CHANGED", 2L, "ONLY_IN_V2", 1L), over.kinds());
    assertEquals(Map.of("pnl", "0.75"), over.deltas());
    assertEquals("3 unexpected key(s): 2 changed, 1 only in v2; sum of v2 - v1: pnl 0.75", over.describe());
    each.put(TWO, new Fingerprint(1, Map.of("ONLY_IN_V2", 1L), Map.of("pnl", "-0.5"), 6));
    assertNotEquals(over, OverShards.fingerprint(each), "a shard's hash changed: what was seen no longer holds");
    assertTrue(OverShards.fingerprint(Map.of(ONE, Fingerprint.NONE, TWO, Fingerprint.NONE)).none());
  }
}
