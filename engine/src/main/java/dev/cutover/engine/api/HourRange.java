package dev.cutover.engine.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The hours {@code [from, to)}. */
public record HourRange(HourPartition from, HourPartition to) {

  public HourRange {
    if (!from.isBefore(to)) {
      throw new InvalidInputException("range", "The range starts at " + from + " and ends at " + to
          + ", so it holds no hour; give a start before the end.");
    }
  }

  public long hours() {
    return Duration.between(from.start(), to.start()).toHours();
  }

  public boolean contains(HourPartition hour) {
    return !hour.isBefore(from) && hour.isBefore(to);
  }

  public List<HourPartition> list() {
    List<HourPartition> all = new ArrayList<>((int) hours());
    for (HourPartition h = from; h.isBefore(to); h = h.plusHours(1)) {
      all.add(h);
    }
    return all;
  }

  @Override
  public String toString() {
    return "[" + from + ", " + to + ") UTC";
  }
}
