package dev.cutover.ui.reconcile;

import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.engine.api.Reconciliation.Owner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Each hour's class and owner as arrays indexed by the hour's place in the report's window, laid out
 * once per report so that drawing reads arrays only; and the hours that must stay visible at any zoom
 * (unexpected, acknowledged, gap, duplicate), in the order they are drawn: the most severe last, on top.
 */
final class HourClasses {

  static final HourClasses NONE = new HourClasses(new HourStatus[0], new Owner[0], new int[0]);

  private final HourStatus[] status;
  private final Owner[] owner;
  private final int[] marked;

  private HourClasses(HourStatus[] status, Owner[] owner, int[] marked) {
    this.status = status;
    this.owner = owner;
    this.marked = marked;
  }

  static HourClasses of(Reconciliation r) {
    if (r == null) {
      return NONE;
    }
    int n = (int) r.window().hours();
    long from = r.window().from().epochSecond();
    HourStatus[] status = new HourStatus[n];
    Owner[] owner = new Owner[n];
    List<Integer> marked = new ArrayList<>();
    for (Reconciliation.HourClass c : r.classes()) {
      long i = (c.hour().epochSecond() - from) / 3600;
      if (i >= 0 && i < n) {
        status[(int) i] = c.status();
        owner[(int) i] = c.owner();
        if (severity(c.status()) > 0) {
          marked.add((int) i);
        }
      }
    }
    marked.sort(Comparator.comparingInt((Integer i) -> severity(status[i])).thenComparingInt(i -> i));
    return new HourClasses(status, owner, marked.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * How much an hour needs the operator's eye: 0 for identical and expected hours, which may merge into
   * their neighbours when zoomed out; above 0 for the hours drawn on top at least 3 pixels wide.
   */
  static int severity(HourStatus s) {
    return s == null ? 0 : switch (s) {
      case IDENTICAL, EXPECTED -> 0;
      case ACKNOWLEDGED -> 1;
      case DUPLICATE -> 2;
      case GAP -> 3;
      case UNEXPECTED -> 4;
    };
  }

  /** The hour's class; identical when the report did not classify it. */
  HourStatus status(int i) {
    return i >= 0 && i < status.length && status[i] != null ? status[i] : HourStatus.IDENTICAL;
  }

  /** The hour's owner, or null when the report did not say. */
  Owner owner(int i) {
    return i >= 0 && i < owner.length ? owner[i] : null;
  }

  boolean classified(int i) {
    return i >= 0 && i < status.length && status[i] != null;
  }

  /** The hours drawn on top, least severe first. */
  int[] marked() {
    return marked;
  }
}
