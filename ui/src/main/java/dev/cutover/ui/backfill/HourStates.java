package dev.cutover.ui.backfill;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.SimpleLongProperty;

/**
 * The state of every hour a backfill screen shows, from the run's first hour to the live edge: one
 * byte per hour (six months are about 4,400), with a count per state kept as it changes. Touched on
 * the FX thread only; {@link #revisionProperty()} ticks after each batch of changes, for redrawing.
 */
public final class HourStates {

  /** What an hour's cell shows. */
  public enum Cell {
    /** Not part of the run: between the range's end and the boundary. */
    OUTSIDE("outside the range"),
    PENDING("pending"),
    /** Its batch is being computed. */
    RUNNING("running"),
    WRITTEN("written"),
    /** Written empty on purpose: the corrected output has no rows for it. */
    EMPTIED("emptied (no rows)"),
    FAILED("failed"),
    /** Carried unchanged from v1: outside a bounded repair's affected hours, nothing to recompute. */
    CARRIED("carried from v1"),
    /** At or after the boundary: the live writer's, never the backfill's. */
    LIVE("owned by the live writer");

    private final String words;

    Cell(String words) {
      this.words = words;
    }

    public String words() {
      return words;
    }
  }

  private static final Cell[] CELLS = Cell.values();

  private HourPartition first;
  private HourPartition boundary;
  private byte[] cells = new byte[0];
  private long[] rows = new long[0];
  private final int[] counts = new int[CELLS.length];
  private final LongProperty revision = new SimpleLongProperty();

  /**
   * Lays out {@code [first, end)}: the run's hours {@code [first, rangeEnd)} pending, the hours up to
   * the boundary outside, and the hours from the boundary on owned by the live writer. Like {@link #set},
   * it begins a batch of changes that the caller ends with {@link #changed()}: a run laid out again and
   * filled with the states it already showed (a run followed afresh from its ledger, the same shards read
   * again) then redraws no cell, where announcing the layout alone would paint every cell pending and
   * then back, two frames of thousands of cells.
   */
  public void layout(HourPartition first, HourPartition rangeEnd, HourPartition boundary, HourPartition end) {
    this.first = first;
    this.boundary = boundary;
    int size = (int) Math.max(0, Duration.between(first.start(), end.start()).toHours());
    cells = new byte[size];
    rows = new long[size];
    java.util.Arrays.fill(counts, 0);
    for (int i = 0; i < size; i++) {
      HourPartition h = first.plusHours(i);
      Cell c = !h.isBefore(boundary) ? Cell.LIVE : h.isBefore(rangeEnd) ? Cell.PENDING : Cell.OUTSIDE;
      cells[i] = (byte) c.ordinal();
      counts[c.ordinal()]++;
    }
  }

  /** Sets one hour's state; hours outside the layout, and the live writer's hours, are left alone. */
  public void set(HourPartition hour, Cell cell, long rowCount) {
    int i = index(hour);
    if (i < 0 || cells[i] == Cell.LIVE.ordinal()) {
      return;
    }
    counts[cells[i]]--;
    cells[i] = (byte) cell.ordinal();
    counts[cell.ordinal()]++;
    rows[i] = rowCount;
  }

  /** Marks every hour the ledger holds: written, emptied or failed. */
  public void apply(Map<HourPartition, LedgerEntry> ledger) {
    for (LedgerEntry e : ledger.values()) {
      set(e.hour(), switch (e.state()) {
        case WRITTEN -> Cell.WRITTEN;
        case EMPTIED -> Cell.EMPTIED;
        case FAILED -> Cell.FAILED;
        case CARRIED -> Cell.CARRIED;
      }, e.rows());
    }
  }

  /** Ends a batch of changes: views redraw once. */
  public void changed() {
    revision.set(revision.get() + 1);
  }

  public int index(HourPartition hour) {
    if (first == null) {
      return -1;
    }
    long i = Duration.between(first.start(), hour.start()).toHours();
    return i < 0 || i >= cells.length ? -1 : (int) i;
  }

  public int size() {
    return cells.length;
  }

  public Cell cell(int index) {
    return CELLS[cells[index]];
  }

  public long rows(int index) {
    return rows[index];
  }

  public HourPartition hour(int index) {
    return first.plusHours(index);
  }

  public Optional<HourPartition> first() {
    return Optional.ofNullable(first);
  }

  public Optional<HourPartition> boundary() {
    return Optional.ofNullable(boundary);
  }

  public int count(Cell cell) {
    return counts[cell.ordinal()];
  }

  /** One line for a tooltip: the hour, its state, and its rows once written. */
  public String describe(int index) {
    Cell c = cell(index);
    String rowText = c == Cell.WRITTEN || c == Cell.CARRIED
        ? ", " + dev.cutover.engine.api.Figures.count(rows[index]) + " rows" : "";
    return hour(index) + " UTC: " + c.words() + rowText;
  }

  public ReadOnlyLongProperty revisionProperty() {
    return revision;
  }
}
