package dev.cutover.ui.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.ui.backfill.HourStates.Cell;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class HourStatesTest {

  private final HourPartition first = HourPartition.parse("hour", "2026-06-01T10:00");

  @Test
  void laysOutTheRunsHoursThenTheGapToTheBoundaryThenTheLiveWritersHours() {
    HourStates s = new HourStates();
    s.layout(first, first.plusHours(20), first.plusHours(22), first.plusHours(26));
    assertEquals(26, s.size());
    assertEquals(20, s.count(Cell.PENDING));
    assertEquals(2, s.count(Cell.OUTSIDE));
    assertEquals(4, s.count(Cell.LIVE));
    assertEquals(Cell.LIVE, s.cell(22));
    assertEquals(-1, s.index(first.plusHours(26)));
    assertEquals(-1, s.index(first.plusHours(-1)));
  }

  @Test
  void countsFollowEventsAndTheLedgerAndNeverTouchTheLiveWritersHours() {
    HourStates s = new HourStates();
    s.layout(first, first.plusHours(10), first.plusHours(10), first.plusHours(12));
    s.set(first, Cell.RUNNING, 0);
    s.set(first.plusHours(1), Cell.RUNNING, 0);
    assertEquals(2, s.count(Cell.RUNNING));
    s.set(first.plusHours(10), Cell.WRITTEN, 5);
    assertEquals(Cell.LIVE, s.cell(10), "an hour at or after the boundary stays the live writer's");

    Map<HourPartition, LedgerEntry> ledger = new TreeMap<>();
    ledger.put(first, entry(first, LedgerEntry.State.WRITTEN, 40));
    ledger.put(first.plusHours(1), entry(first.plusHours(1), LedgerEntry.State.EMPTIED, 0));
    ledger.put(first.plusHours(2), entry(first.plusHours(2), LedgerEntry.State.FAILED, 0));
    ledger.put(first.plusHours(3), entry(first.plusHours(3), LedgerEntry.State.CARRIED, 12));
    long before = s.revisionProperty().get();
    s.apply(ledger);
    s.changed();

    assertEquals(before + 1, s.revisionProperty().get(), "one redraw per batch of changes");
    assertEquals(0, s.count(Cell.RUNNING));
    assertEquals(1, s.count(Cell.WRITTEN));
    assertEquals(1, s.count(Cell.EMPTIED));
    assertEquals(1, s.count(Cell.FAILED));
    assertEquals(1, s.count(Cell.CARRIED));
    assertEquals(6, s.count(Cell.PENDING));
    assertEquals("2026-06-01 10:00 UTC: written, 40 rows", s.describe(0));
    assertEquals("2026-06-01 11:00 UTC: emptied (no rows)", s.describe(1));
    assertEquals("2026-06-01 13:00 UTC: carried from v1, 12 rows", s.describe(3));
    assertEquals("2026-06-01 20:00 UTC: owned by the live writer", s.describe(10));
  }

  private static LedgerEntry entry(HourPartition h, LedgerEntry.State state, long rows) {
    return new LedgerEntry("run", h, state, rows, 0, 1, Instant.now(), "");
  }
}
