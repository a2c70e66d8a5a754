package dev.cutover.engine.api;

import java.time.Instant;
import java.util.List;

/**
 * A reconciliation of v1 and v2: an immutable report with a verdict. Green means every difference
 * is explained by a rule of the spec (or acknowledged with a reason) and coverage is complete: every
 * hour present once, owned by exactly one writer, no key counted twice.
 *
 * @param boundary the hour from which the live writer owns v2
 * @param hours every hour of the window, v1 against v2
 * @param keys the keys that differ, in the hours whose checksums differ
 * @param coverage the coverage problems found, by hour
 * @param acknowledged the unexpected differences an operator accepted, with reasons
 */
public record Reconciliation(String id, String spec, String target, Instant created, HourRange window,
    HourPartition boundary, Verdict verdict, List<Diff.HourDiff> hours, List<Diff.KeyDiff> keys, boolean keysTruncated,
    List<CoverageIssue> coverage, List<Acknowledgement> acknowledged, List<HourClass> classes) {

  public Reconciliation {
    hours = List.copyOf(hours);
    keys = List.copyOf(keys);
    coverage = List.copyOf(coverage);
    acknowledged = List.copyOf(acknowledged);
    classes = List.copyOf(classes);
  }

  public enum Verdict {
    /** Only expected differences, full coverage. */
    GREEN,
    /** Green once the acknowledged differences are accepted. */
    ACKNOWLEDGED,
    /** Unexpected differences or coverage problems remain. */
    RED;

    public boolean allowsCutover() {
      return this != RED;
    }
  }

  /** Who wrote an hour of v2, and how it compares. */
  public enum HourStatus {
    IDENTICAL,
    EXPECTED,
    UNEXPECTED,
    ACKNOWLEDGED,
    GAP,
    DUPLICATE
  }

  /** The writer that owns an hour of v2: the backfill below the boundary, the live writer from it on. */
  public enum Owner {
    BACKFILL,
    LIVE
  }

  /** One hour's classification, for charts and the coverage strip. */
  public record HourClass(HourPartition hour, Owner owner, HourStatus status) {}

  /** A coverage problem: a missing hour, an hour written by the wrong writer, a key counted twice. */
  public record CoverageIssue(HourPartition hour, String kind, String detail) {}

  /** An unexpected difference an operator accepted. {@code key} is empty for the whole hour. */
  public record Acknowledgement(HourPartition hour, List<String> key, String reason, String by, Instant at) {}

  public long unexpectedKeys() {
    return keys.stream().filter(k -> !k.expected() && acknowledged.stream().noneMatch(a -> covers(a, k))).count();
  }

  public static boolean covers(Acknowledgement a, Diff.KeyDiff k) {
    return a.hour().equals(k.hour()) && (a.key().isEmpty() || a.key().equals(k.key()));
  }
}
