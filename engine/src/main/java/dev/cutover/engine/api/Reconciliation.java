package dev.cutover.engine.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A reconciliation of v1 and v2: an immutable report with a verdict. Green means every difference
 * is explained by a rule of the spec (or acknowledged with a reason) and coverage is complete: every
 * hour present once, owned by exactly one writer, no key counted twice.
 *
 * @param scope which hours the reconciliation covers; only {@link Scope#REPAIR} can open the gate
 * @param repairId the repair it reconciles, whose boundary and ledger it judges by
 * @param specSha256 the spec it was made under; the gate counts it only under the same spec
 * @param boundary the hour from which the live writer owns v2
 * @param hours every hour of the window, v1 against v2
 * @param keys the keys that differ, in the hours whose checksums differ
 * @param coverage the coverage problems found, by hour
 * @param acknowledged the acknowledgements of the hours with unexpected keys: those that still hold
 *     ({@link #held()}) and those whose hour or key differs otherwise now than when it was accepted
 *     ({@link #lapsed()}), which accept nothing
 */
public record Reconciliation(String id, String spec, String target, Scope scope, String repairId, String specSha256,
    Instant created, HourRange window, HourPartition boundary, Verdict verdict, List<Diff.HourDiff> hours, List<Diff.KeyDiff> keys, boolean keysTruncated,
    Map<HourPartition, Map<String, Long>> counts, List<CoverageIssue> coverage, List<Acknowledgement> acknowledged,
    List<HourClass> classes) {

  /** The prefix of a class of unexpected differences in {@link #counts()}, as in {@code !DUPLICATE_IN_V1}. */
  public static final String UNEXPECTED = "!";

  public Reconciliation {
    hours = List.copyOf(hours);
    keys = List.copyOf(keys);
    counts = Map.copyOf(counts);
    coverage = List.copyOf(coverage);
    acknowledged = List.copyOf(acknowledged);
    classes = List.copyOf(classes);
  }

  /** Which hours a reconciliation covers. */
  public enum Scope {
    /** The whole repair window, from its first backfilled hour to the newest hour both versions have closed. */
    REPAIR("the whole repair"),
    /** From the boundary on: the hours both live writers wrote. */
    OVERLAP("the overlap since B"),
    /** The backfilled history: before the boundary. */
    HISTORY("the history before B"),
    /** A range the operator chose. */
    RANGE("a chosen range");

    private final String words;

    Scope(String words) {
      this.words = words;
    }

    public String words() {
      return words;
    }

    /** Whether a verdict over this scope may open the gate: only one over the whole repair. */
    public boolean decides() {
      return this == REPAIR;
    }
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

  /**
   * The writer that owns an hour of v2: the backfill below the boundary (recomputed, or carried
   * unchanged from v1 outside a bounded repair's affected window), the live writer from it on.
   */
  public enum Owner {
    BACKFILL,
    LIVE,
    CARRIED;

    /** In the operator's words. */
    public String words() {
      return switch (this) {
        case BACKFILL -> "backfill";
        case LIVE -> "live writer";
        case CARRIED -> "carried from v1";
      };
    }
  }

  /** One hour's classification, for charts and the coverage strip. */
  public record HourClass(HourPartition hour, Owner owner, HourStatus status) {}

  /** A coverage problem: a missing hour, an hour written by the wrong writer, a key counted twice. */
  public record CoverageIssue(HourPartition hour, String kind, String detail) {}

  /**
   * An unexpected difference an operator accepted. {@code key} is empty for the whole hour. It is bound to
   * what was seen: {@code seen} is the fingerprint of the hour's (or key's) unexpected differences when it
   * was made, and {@code lapsed} says, once they differ from it, how: such an acknowledgement accepts
   * nothing. One recorded without a fingerprint (by an earlier version) never holds.
   */
  public record Acknowledgement(HourPartition hour, List<String> key, String reason, String by, Instant at,
      Optional<Fingerprint> seen, Optional<String> lapsed) {

    public Acknowledgement {
      key = List.copyOf(key);
    }

    /** An acknowledgement that holds, of what {@code seen} describes. */
    public Acknowledgement(HourPartition hour, List<String> key, String reason, String by, Instant at, Fingerprint seen) {
      this(hour, key, reason, by, at, Optional.of(seen), Optional.empty());
    }

    /** Whether it still accepts what it names: its hour's (or key's) differences are those it was made for. */
    public boolean holds() {
      return lapsed.isEmpty() && seen.isPresent();
    }

    /** The same acknowledgement, no longer holding for the reason given. */
    public Acknowledgement lapse(String why) {
      return new Acknowledgement(hour, key, reason, by, at, seen, Optional.of(why));
    }

    /** {@code 2026-11-29 10:00 (whole hour)} or {@code 2026-11-29 10:00 key [north, 7]}. */
    public String subject() {
      return hour + (key.isEmpty() ? " (whole hour)" : " key " + key);
    }
  }

  /**
   * The unexpected differences of one hour, or of one key of it, as an acknowledgement saw them: how many
   * keys, how many of each kind ({@link Diff.Kind} names), each measure's sum of {@code v2 - v1} over them
   * as the server prints it, and a hash of the keys with their kind and rows in each version (order-free).
   * Two fingerprints of the same differences are equal; a key more, a key less, a row appended again or a
   * changed measure makes another.
   */
  public record Fingerprint(long keys, Map<String, Long> kinds, Map<String, String> deltas, long hash) {

    public Fingerprint {
      kinds = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(kinds));
      deltas = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(deltas));
    }

    /** No unexpected difference. */
    public static final Fingerprint NONE = new Fingerprint(0, Map.of(), Map.of(), 0);

    public boolean none() {
      return keys == 0;
    }

    /**
     * A sum as the server printed it, for a sentence: grouped digits and at most three after the point, as the
     * console shows every figure ({@code -21417.313000000002} reads {@code -21,417.313}); kept as printed when it is
     * not a number.
     */
    public static String figure(String printed) {
      return Figures.decimal(printed);
    }

    /** {@code 3 unexpected key(s): 3 duplicate in v1; sum of v2 - v1: pnl_usd -1,234.5}. */
    public String describe() {
      if (none()) {
        return "no unexpected difference";
      }
      String byKind = kinds.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().toLowerCase(java.util.Locale.ROOT)
          .replace('_', ' ')).collect(java.util.stream.Collectors.joining(", "));
      String sums = deltas.entrySet().stream().map(e -> e.getKey() + " " + figure(e.getValue()))
          .collect(java.util.stream.Collectors.joining(", "));
      return keys + " unexpected key(s): " + byKind + (sums.isEmpty() ? "" : "; sum of v2 - v1: " + sums);
    }
  }

  /** Keys that differ as a rule of the spec expects, counted in every differing hour. */
  public long expectedKeys() {
    return counts.values().stream().flatMap(m -> m.entrySet().stream()).filter(e -> !e.getKey().startsWith(UNEXPECTED))
        .mapToLong(Map.Entry::getValue).sum();
  }

  /** Keys that differ unexpectedly and that no acknowledgement accepts. */
  public long unexpectedKeys() {
    // One pass over the kept keys, not one per hour: a report holds thousands of hours and of keys.
    java.util.Set<HourPartition> wholeHours = new java.util.HashSet<>();
    held().stream().filter(a -> a.key().isEmpty()).forEach(a -> wholeHours.add(a.hour()));
    Map<HourPartition, Long> accepted = new java.util.HashMap<>();
    if (!acknowledged.isEmpty()) {
      keys.stream().filter(k -> !k.expected() && acknowledged.stream().anyMatch(a -> covers(a, k)))
          .forEach(k -> accepted.merge(k.hour(), 1L, Long::sum));
    }
    long open = 0;
    for (var hour : counts.entrySet()) {
      if (wholeHours.contains(hour.getKey())) {
        continue;
      }
      long total = hour.getValue().entrySet().stream().filter(e -> e.getKey().startsWith(UNEXPECTED))
          .mapToLong(Map.Entry::getValue).sum();
      open += Math.max(0, total - accepted.getOrDefault(hour.getKey(), 0L));
    }
    return open;
  }

  /** Unexpected keys of one hour not accepted by an acknowledgement of the hour or of the key. */
  public long unexpectedIn(HourPartition hour) {
    if (held().stream().anyMatch(a -> a.hour().equals(hour) && a.key().isEmpty())) {
      return 0;
    }
    long total = counts.getOrDefault(hour, Map.of()).entrySet().stream().filter(e -> e.getKey().startsWith(UNEXPECTED))
        .mapToLong(Map.Entry::getValue).sum();
    long acceptedKeys = keys.stream().filter(k -> k.hour().equals(hour) && !k.expected())
        .filter(k -> acknowledged.stream().anyMatch(a -> covers(a, k))).count();
    return Math.max(0, total - acceptedKeys);
  }

  /** Whether {@code a} holds and accepts key {@code k}: its hour, and the whole hour or that very key. */
  public static boolean covers(Acknowledgement a, Diff.KeyDiff k) {
    return a.holds() && a.hour().equals(k.hour()) && (a.key().isEmpty() || a.key().equals(k.key()));
  }

  /** The acknowledgements that hold: each accepts what it names. */
  public List<Acknowledgement> held() {
    return acknowledged.stream().filter(Acknowledgement::holds).toList();
  }

  /**
   * The acknowledgements that no longer hold: their hour's (or key's) unexpected differences are not those
   * they were made for, so the keys they named count as unexpected again.
   */
  public List<Acknowledgement> lapsed() {
    return acknowledged.stream().filter(a -> !a.holds()).toList();
  }
}
