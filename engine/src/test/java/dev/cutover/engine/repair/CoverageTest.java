package dev.cutover.engine.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.Reconciliation.CoverageIssue;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The coverage proof, hour by hour, from sums and a ledger made here: each way an hour can be missing,
 * written twice or written by the wrong writer is named, and nothing else is.
 */
class CoverageTest {

  private static final HourPartition FIRST = HourPartition.ofEpochSecond(1_782_864_000L);
  /** Six hours of history below B, then four live hours. */
  private static final HourPartition B = FIRST.plusHours(6);
  private static final HourRange WINDOW = new HourRange(FIRST, B.plusHours(4));
  private static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");

  private final Map<HourPartition, HourSums.Hour> sums = new HashMap<>();
  private final Map<HourPartition, LedgerEntry> ledger = new HashMap<>();

  /** A repair whose every hour is as it should be: backfilled below B, written live from B on. */
  CoverageTest() {
    for (HourPartition h : WINDOW.list()) {
      long seed = h.epochSecond();
      sums.put(h, new HourSums.Hour(10, seed, 10, seed + 1));
      if (h.isBefore(B)) {
        ledger.put(h, entry(h, LedgerEntry.State.WRITTEN, 10, seed + 1));
      }
    }
  }

  private static LedgerEntry entry(HourPartition h, LedgerEntry.State state, long rows, long checksum) {
    return new LedgerEntry("run", h, state, rows, checksum, 1, AT, "");
  }

  private Coverage.Result proof() {
    return Coverage.of(WINDOW, B, sums, ledger, Optional.of(B.plusHours(3)));
  }

  private static List<String> kinds(Coverage.Result r) {
    return r.issues().stream().map(i -> i.hour() + " " + i.kind()).toList();
  }

  @Test
  void aWholeRepairHasNoIssueAndItsLiveWriterFromB() {
    Coverage.Result r = proof();
    assertEquals(List.of(), r.issues());
    assertEquals(new LiveWriter(B, Optional.of(B), 4, List.of(), List.of(), List.of()), r.live());
    assertEquals(List.of(), r.carried());
  }

  @Test
  void anHourBelowBThatNoBackfillCompletedIsAGapAndRowsThereAreSomeoneElses() {
    HourPartition failed = FIRST.plusHours(1);
    HourPartition missing = FIRST.plusHours(2);
    ledger.put(failed, entry(failed, LedgerEntry.State.FAILED, 0, 0));
    ledger.remove(missing);
    sums.put(missing, new HourSums.Hour(10, 1, 0, 0));
    Coverage.Result r = proof();
    assertEquals(List.of(failed + " gap", missing + " gap"), kinds(r));
    assertEquals("no completed backfill hour in the repair's ledger; v2 holds 10 rows that no backfill of the repair "
        + "wrote", r.issues().getFirst().detail());
    assertEquals("no completed backfill hour in the repair's ledger", r.issues().get(1).detail());
    assertEquals(List.of(failed), r.live().belowBoundary(), "only the hour whose rows v2 holds");
  }

  @Test
  void anHourBelowBWrittenAgainAfterTheBackfillIsSomeoneElsesEvenWithTheSameRowCount() {
    HourPartition rewritten = FIRST.plusHours(3);
    HourPartition grown = FIRST.plusHours(4);
    HourPartition emptied = FIRST.plusHours(5);
    sums.put(rewritten, new HourSums.Hour(10, 7, 10, 999));
    sums.put(grown, new HourSums.Hour(10, 7, 11, grown.epochSecond() + 1));
    sums.put(emptied, new HourSums.Hour(10, 7, 0, 0));
    Coverage.Result r = proof();
    assertEquals(List.of(rewritten + " owner", grown + " owner", emptied + " owner"), kinds(r));
    assertEquals("v2 holds 10 rows but the backfill wrote 10 with another checksum: something else wrote this hour "
        + "after the backfill", r.issues().getFirst().detail());
    assertEquals("v2 holds 11 rows but the backfill wrote 10: something else wrote this hour after the backfill",
        r.issues().get(1).detail());
    assertEquals(List.of(rewritten, grown), r.live().belowBoundary(), "the emptied hour holds no one's rows");
  }

  @Test
  void anHourTheBackfillEmptiedMatchesAnEmptyV2WhateverItsChecksum() {
    HourPartition empty = FIRST.plusHours(2);
    ledger.put(empty, entry(empty, LedgerEntry.State.EMPTIED, 0, 0));
    sums.put(empty, new HourSums.Hour(0, 0, 0, 12345));
    assertEquals(List.of(), proof().issues());
  }

  @Test
  void aCarriedHourIsProvenByItsChecksumAndALateWriteToV1IsAGap() {
    HourPartition kept = FIRST.plusHours(1);
    HourPartition late = FIRST.plusHours(2);
    HourPartition grewInV1 = FIRST.plusHours(3);
    for (HourPartition h : List.of(kept, late, grewInV1)) {
      ledger.put(h, entry(h, LedgerEntry.State.CARRIED, 10, 42));
      sums.put(h, new HourSums.Hour(10, 42, 10, 42));
    }
    sums.put(late, new HourSums.Hour(10, 43, 10, 42));
    sums.put(grewInV1, new HourSums.Hour(12, 42, 10, 42));
    Coverage.Result r = proof();
    assertEquals(List.of(kept, late, grewInV1), r.carried());
    assertEquals(List.of(late + " gap", grewInV1 + " gap"), kinds(r));
    assertEquals("v1 changed after this hour was carried from it at 2026-11-30 10:00 UTC (v1 now holds 10 rows, the "
        + "carried copy 10 with other values): a late write to v1 that v2 lacks; run the backfill again with the same affected "
        + "window to carry it again", r.issues().getFirst().detail());
  }

  @Test
  void aCarriedHourMergedSinceIsStillProvenAndOneSomethingElseWroteIsNamed() {
    HourPartition merged = FIRST.plusHours(1);
    HourPartition overwritten = FIRST.plusHours(2);
    for (HourPartition h : List.of(merged, overwritten)) {
      ledger.put(h, entry(h, LedgerEntry.State.CARRIED, 10, 42));
    }
    // The ledger holds the files' fingerprint at the carry; after a merge both versions read alike row by row.
    sums.put(merged, new HourSums.Hour(10, 777, 10, 777));
    sums.put(overwritten, new HourSums.Hour(10, 42, 7, 5));
    Coverage.Result r = proof();
    assertEquals(List.of(overwritten + " owner"), kinds(r));
    assertEquals("v2 holds 7 rows but the carry from v1 wrote 10: something else wrote this hour after the backfill",
        r.issues().getFirst().detail());
  }

  @Test
  void aLiveHourABackfillWroteOrTheLiveWriterSkippedOrHasNotReachedIsNamed() {
    HourPartition backfilled = B.plusHours(1);
    HourPartition skipped = B.plusHours(2);
    HourPartition ahead = B.plusHours(3);
    ledger.put(backfilled, entry(backfilled, LedgerEntry.State.WRITTEN, 10, backfilled.epochSecond() + 1));
    sums.put(skipped, new HourSums.Hour(10, 1, 0, 0));
    sums.put(ahead, new HourSums.Hour(10, 1, 0, 0));
    Coverage.Result r = Coverage.of(WINDOW, B, sums, ledger, Optional.of(skipped));
    assertEquals(List.of(backfilled + " owner", skipped + " gap", ahead + " gap"), kinds(r));
    assertEquals("a backfill of the repair wrote this hour, which the live writer owns (it is at or after B = " + B
        + ")", r.issues().getFirst().detail());
    assertEquals("v1 has 10 rows, v2 none: the live writer skipped this hour", r.issues().get(1).detail());
    assertEquals("v2's live writer has not reached this hour yet", r.issues().get(2).detail());
    assertEquals(new LiveWriter(B, Optional.of(B), 3, List.of(), List.of(backfilled), List.of(skipped)), r.live());
  }

  @Test
  void aLiveWriterThatStartedLateStartsWhereV2FirstHasRowsAndAnHourEmptyInBothIsNoGap() {
    sums.put(B, new HourSums.Hour(0, 0, 0, 0));
    sums.put(B.plusHours(1), new HourSums.Hour(10, 1, 0, 0));
    Coverage.Result r = proof();
    assertEquals(List.of(B.plusHours(1) + " gap"), kinds(r));
    assertEquals(Optional.of(B.plusHours(2)), r.live().start());
  }

  @Test
  void withoutAnyLiveHourTheLiveWriterHasWrittenNothing() {
    for (HourPartition h : new HourRange(B, WINDOW.to()).list()) {
      sums.put(h, new HourSums.Hour(10, h.epochSecond(), 0, 0));
    }
    Coverage.Result r = Coverage.of(WINDOW, B, sums, ledger, Optional.of(B.plusHours(-3)));
    assertEquals(0, r.live().hours());
    assertEquals(List.of(B + " gap", B.plusHours(1) + " gap", B.plusHours(2) + " gap", B.plusHours(3) + " gap"),
        kinds(r));
    assertEquals(0, Coverage.of(WINDOW, B, sums, ledger, Optional.empty()).live().hours());
  }

  @Test
  void anHourV2HoldsInTheSumsIsReachedThoughTheEdgeWasReadBeforeTheLiveWriterWroteIt() {
    // The edge is read first; by the time the sums are read, both live writers have written two more hours.
    Coverage.Result r = Coverage.of(WINDOW, B, sums, ledger, Optional.of(B.plusHours(1)));
    assertEquals(List.of(), r.issues());
    assertEquals(4, r.live().hours());
    sums.put(B.plusHours(3), new HourSums.Hour(10, 1, 0, 0));
    assertEquals(List.of(B.plusHours(3) + " gap"), kinds(Coverage.of(WINDOW, B, sums, ledger, Optional.of(B.plusHours(1)))),
        "an hour v1 holds and v2 does not, past what v2 holds, is still not reached");
  }

  @Test
  void anHourBeyondV2sEdgeThatV1DoesNotHaveEitherIsNoGap() {
    HourPartition quiet = B.plusHours(3);
    sums.put(quiet, new HourSums.Hour(0, 0, 0, 0));
    assertEquals(List.of(), Coverage.of(WINDOW, B, sums, ledger, Optional.of(B.plusHours(2))).issues());
  }

  /**
   * The console reads the live writer every few seconds while a repair is open, from v2 alone below B
   * ({@link Observation#liveWriter}): that holds only while nothing of v1 below B changes the answer. Here every way
   * an hour below B can be someone else's (rows no backfill completed, rows after the backfill, a carried hour
   * overwritten, a carried hour v1 changed under) is read once with v1's sums and once with v1 below B read as empty.
   */
  @Test
  void theLiveWriterBelowBIsReadFromV2AndTheLedgerAloneWhateverV1HoldsThere() {
    HourPartition unfinished = FIRST;
    HourPartition rewritten = FIRST.plusHours(1);
    HourPartition carriedOverwritten = FIRST.plusHours(2);
    HourPartition carriedChangedInV1 = FIRST.plusHours(3);
    ledger.remove(unfinished);
    ledger.put(rewritten, entry(rewritten, LedgerEntry.State.WRITTEN, 10, 99));
    ledger.put(carriedOverwritten, entry(carriedOverwritten, LedgerEntry.State.CARRIED, 10, 42));
    sums.put(carriedOverwritten, new HourSums.Hour(10, 42, 7, 5));
    ledger.put(carriedChangedInV1, entry(carriedChangedInV1, LedgerEntry.State.CARRIED, 10, 42));
    sums.put(carriedChangedInV1, new HourSums.Hour(12, 43, 10, 42));
    Map<HourPartition, HourSums.Hour> v2Only = new HashMap<>();
    sums.forEach((h, d) -> v2Only.put(h, h.isBefore(B) ? new HourSums.Hour(0, 0, d.rowsV2(), d.checksumV2()) : d));

    LiveWriter fromBoth = proof().live();
    assertEquals(List.of(unfinished, rewritten, carriedOverwritten), fromBoth.belowBoundary(), fromBoth.describe());
    assertEquals(fromBoth, Coverage.of(WINDOW, B, v2Only, ledger, Optional.of(B.plusHours(3))).live());
  }

  @Test
  void issuesComeInHourOrder() {
    ledger.remove(FIRST.plusHours(4));
    ledger.remove(FIRST);
    List<CoverageIssue> issues = proof().issues();
    assertEquals(List.of(FIRST, FIRST.plusHours(4)), issues.stream().map(CoverageIssue::hour).toList());
  }
}
