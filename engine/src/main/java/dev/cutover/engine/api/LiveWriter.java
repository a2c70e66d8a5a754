package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * What the data and the ledger say about the corrected live writer: where it started writing v2,
 * and whether it keeps to the boundary. Observed, never assumed: every v2 hour at or after B must
 * come from it and none from a backfill; no v2 hour below B may hold rows that the repair's
 * backfill did not write.
 *
 * @param start the first hour at or after B that v2 holds; empty before the live writer writes
 * @param hours how many hours from B to v2's newest hour: the overlap the live writers share so far
 * @param belowBoundary v2 hours below B holding rows the repair's backfill did not write
 * @param backfilledFromBoundary hours at or after B that a backfill of the repair recorded
 * @param missedFromBoundary hours from B to v2's newest hour where v1 has rows and v2 none
 */
public record LiveWriter(HourPartition boundary, Optional<HourPartition> start, long hours,
    List<HourPartition> belowBoundary, List<HourPartition> backfilledFromBoundary,
    List<HourPartition> missedFromBoundary) {

  public LiveWriter {
    belowBoundary = List.copyOf(belowBoundary);
    backfilledFromBoundary = List.copyOf(backfilledFromBoundary);
    missedFromBoundary = List.copyOf(missedFromBoundary);
  }

  /** Whether the live writer has written v2 from B on, and only there: its start is B. */
  public boolean startsAtBoundary() {
    return start.isPresent() && belowBoundary.isEmpty() && backfilledFromBoundary.isEmpty()
        && missedFromBoundary.isEmpty();
  }

  /** One sentence: where the live writer starts and whether that is B. */
  public String describe() {
    if (start.isEmpty()) {
      return "The corrected live writer has not written " + (belowBoundary.isEmpty() ? "v2 yet" : "v2 from B")
          + "; it must start at B = " + boundary + "." + problems();
    }
    return "The corrected live writer writes v2 from " + start.get() + (start.get().equals(boundary) ? " = B" : ", "
        + "not from B = " + boundary) + ", " + Figures.count(hours) + " hour(s) so far." + problems();
  }

  private String problems() {
    StringBuilder out = new StringBuilder();
    if (!belowBoundary.isEmpty()) {
      out.append(" v2 holds rows below B that the backfill did not write, in ").append(hoursText(belowBoundary))
          .append(": two writers on one hour.");
    }
    if (!backfilledFromBoundary.isEmpty()) {
      out.append(" A backfill wrote ").append(hoursText(backfilledFromBoundary)).append(", which the live writer owns.");
    }
    if (!missedFromBoundary.isEmpty()) {
      out.append(" v2 misses ").append(hoursText(missedFromBoundary)).append(", which v1 has.");
    }
    return out.toString();
  }

  static String hoursText(List<HourPartition> hours) {
    String shown = String.join(", ", hours.stream().limit(3).map(HourPartition::toString).toList());
    return hours.size() == 1 ? "the hour " + shown : hours.size() + " hours (" + shown + (hours.size() > 3 ? ", …" : "")
        + ")";
  }
}
