package dev.cutover.engine.cluster;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Acknowledgement;
import dev.cutover.engine.api.Reconciliation.CoverageIssue;
import dev.cutover.engine.api.Reconciliation.Fingerprint;
import dev.cutover.engine.api.Reconciliation.HourClass;
import dev.cutover.engine.api.Reconciliation.HourStatus;
import dev.cutover.engine.api.Reconciliation.Verdict;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.api.ShardRef;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Every shard's reconciliation of its own v1 and v2, read as one over the whole sharded table: what the
 * operator's charts and key table show, and what a reviewer reads. An hour's rows, keys and totals add over
 * the shards, and so do its checksums (each is a sum of row hashes modulo 2^64, so the sum is the checksum
 * the whole table would have); every differing key names the shard that holds it; an hour is as bad as its
 * worst shard; a coverage problem names its shard; and the verdict is the worst shard's, so that it is green
 * only when every shard's is. Nothing here is stored: each shard keeps its own reconciliation.
 */
public final class OverShards {

  /** Between the ids of the shards' reconciliations in the id of the one over them. */
  public static final String ID_SEPARATOR = dev.cutover.engine.ReconcileSteps.ID_SEPARATOR;

  private OverShards() {}

  /** The reconciliation over every shard, from each shard's, in shard order. */
  public static Reconciliation of(Map<ShardRef, Reconciliation> each) {
    if (each.isEmpty()) {
      throw new IllegalArgumentException("a reconciliation over shards needs at least one shard's");
    }
    List<Map.Entry<ShardRef, Reconciliation>> shards = each.entrySet().stream()
        .sorted(Comparator.comparingInt(e -> e.getKey().shard())).toList();
    Reconciliation first = shards.getFirst().getValue();
    List<Reconciliation> all = shards.stream().map(Map.Entry::getValue).toList();
    String id = all.stream().map(Reconciliation::id).collect(Collectors.joining(ID_SEPARATOR));
    String repairIds = all.stream().map(Reconciliation::repairId).distinct().collect(Collectors.joining(ID_SEPARATOR));
    Instant created = all.stream().map(Reconciliation::created).max(Comparator.naturalOrder()).orElseThrow();
    HourRange window = new HourRange(all.stream().map(r -> r.window().from()).min(Comparator.naturalOrder())
        .orElseThrow(), all.stream().map(r -> r.window().to()).max(Comparator.naturalOrder()).orElseThrow());
    List<Diff.KeyDiff> keys = new ArrayList<>();
    List<CoverageIssue> coverage = new ArrayList<>();
    for (var e : shards) {
      e.getValue().keys().forEach(k -> keys.add(k.on(e.getKey())));
      e.getValue().coverage().forEach(c -> coverage.add(new CoverageIssue(c.hour(), c.kind(), e.getKey() + ": "
          + c.detail())));
    }
    keys.sort(Comparator.comparing(Diff.KeyDiff::hour));
    coverage.sort(Comparator.comparing(CoverageIssue::hour));
    return new Reconciliation(id, first.spec(), first.target(), first.scope(), repairIds, first.specSha256(), created,
        window, first.boundary(), worst(all), hours(all), keys, all.stream().anyMatch(Reconciliation::keysTruncated),
        counts(all), coverage, acknowledged(all), classes(all));
  }

  /** A difference computed on every shard as one: each hour's figures added, each key naming its shard. */
  public static Diff diff(Map<ShardRef, Diff> each) {
    SortedMap<HourPartition, Diff.HourDiff> hours = new TreeMap<>();
    List<Diff.KeyDiff> keys = new ArrayList<>();
    each.entrySet().stream().sorted(Comparator.comparingInt(e -> e.getKey().shard())).forEach(e -> {
      e.getValue().hours().forEach(h -> hours.merge(h.hour(), h, OverShards::add));
      e.getValue().keys().forEach(k -> keys.add(k.on(e.getKey())));
    });
    keys.sort(Comparator.comparing(Diff.KeyDiff::hour));
    return new Diff(List.copyOf(hours.values()), keys, each.values().stream().anyMatch(Diff::keysTruncated),
        each.values().stream().mapToLong(Diff::expectedKeys).sum(),
        each.values().stream().mapToLong(Diff::unexpectedKeys).sum());
  }

  /** The verdict of the worst shard: red if one is, else acknowledged if one is, else green. */
  static Verdict worst(List<Reconciliation> all) {
    return all.stream().map(Reconciliation::verdict).max(Comparator.naturalOrder()).orElseThrow();
  }

  /** Each hour's figures added over the shards that have it; each measure's totals too. */
  static List<Diff.HourDiff> hours(List<Reconciliation> all) {
    SortedMap<HourPartition, Diff.HourDiff> out = new TreeMap<>();
    all.forEach(r -> r.hours().forEach(h -> out.merge(h.hour(), h, OverShards::add)));
    return List.copyOf(out.values());
  }

  private static Diff.HourDiff add(Diff.HourDiff a, Diff.HourDiff b) {
    Map<Identifier, Diff.Total> totals = new LinkedHashMap<>();
    a.totals().forEach(t -> totals.put(t.measure(), t));
    b.totals().forEach(t -> totals.merge(t.measure(), t, (x, y) -> new Diff.Total(x.measure(), x.v1() + y.v1(),
        x.v2() + y.v2())));
    return new Diff.HourDiff(a.hour(), a.rowsV1() + b.rowsV1(), a.rowsV2() + b.rowsV2(), a.keysV1() + b.keysV1(),
        a.keysV2() + b.keysV2(), a.checksumV1() + b.checksumV1(), a.checksumV2() + b.checksumV2(),
        List.copyOf(totals.values()));
  }

  private static Map<HourPartition, Map<String, Long>> counts(List<Reconciliation> all) {
    Map<HourPartition, Map<String, Long>> out = new TreeMap<>();
    all.forEach(r -> r.counts().forEach((hour, byClass) -> byClass.forEach((cls, n) -> out.computeIfAbsent(hour,
        h -> new TreeMap<>()).merge(cls, n, Long::sum))));
    return out;
  }

  /**
   * Each acknowledgement once per hour and key. Where shards hold the same one and it lapsed on one, the lapsed
   * one stands: the table never shows a difference as accepted that one shard no longer accepts.
   */
  static List<Acknowledgement> acknowledged(List<Reconciliation> all) {
    Map<List<Object>, Acknowledgement> out = new LinkedHashMap<>();
    all.forEach(r -> r.acknowledged().forEach(a -> out.merge(List.of(a.hour(), a.key()), a,
        (kept, other) -> kept.lapsed().isPresent() ? kept : other.lapsed().isPresent() ? other : kept)));
    return out.values().stream().sorted(Comparator.comparing(Acknowledgement::hour)).toList();
  }

  /** Each hour as bad as its worst shard: a coverage problem, then an unexpected difference, then the rest. */
  static List<HourClass> classes(List<Reconciliation> all) {
    SortedMap<HourPartition, HourClass> out = new TreeMap<>();
    all.forEach(r -> r.classes().forEach(c -> out.merge(c.hour(), c, (x, y) -> rank(y.status()) > rank(x.status())
        ? y : x)));
    return List.copyOf(out.values());
  }

  private static int rank(HourStatus s) {
    return switch (s) {
      case IDENTICAL -> 0;
      case EXPECTED -> 1;
      case ACKNOWLEDGED -> 2;
      case UNEXPECTED -> 3;
      case DUPLICATE -> 4;
      case GAP -> 5;
    };
  }

  /**
   * What an acknowledgement over every shard would accept: the shards' unexpected differences added (keys,
   * kinds, the sums of the measures' deltas, the hashes). Equal for equal differences on every shard, so that
   * an acknowledgement asked with it is refused once one shard's differences changed.
   */
  public static Fingerprint fingerprint(Map<ShardRef, Fingerprint> each) {
    long keys = 0;
    long hash = 0;
    Map<String, Long> kinds = new TreeMap<>();
    Map<String, List<String>> deltas = new LinkedHashMap<>();
    for (Fingerprint f : each.entrySet().stream().sorted(Comparator.comparingInt(e -> e.getKey().shard()))
        .map(Map.Entry::getValue).toList()) {
      keys += f.keys();
      hash += f.hash();
      f.kinds().forEach((k, n) -> kinds.merge(k, n, Long::sum));
      f.deltas().forEach((m, d) -> deltas.computeIfAbsent(m, x -> new ArrayList<>()).add(d));
    }
    if (keys == 0) {
      return Fingerprint.NONE;
    }
    Map<String, String> sums = new LinkedHashMap<>();
    deltas.forEach((m, ds) -> sums.put(m, sum(ds)));
    return new Fingerprint(keys, kinds, sums, hash);
  }

  /** Decimal sums as decimals add; anything else written as the sum it is. */
  private static String sum(List<String> values) {
    try {
      return values.stream().map(BigDecimal::new).reduce(BigDecimal.ZERO, BigDecimal::add).stripTrailingZeros()
          .toPlainString();
    } catch (NumberFormatException e) {
      return String.join(" + ", values);
    }
  }

  /** The summary of a reconciliation over every shard, as a list of stored reconciliations shows one. */
  public static ReportSummary summary(Reconciliation r) {
    return new ReportSummary(r.id(), r.target(), r.scope(), r.repairId(), r.specSha256(), r.created(), r.window(),
        r.boundary(), r.verdict(), r.hours().size(), r.hours().stream().filter(h -> !h.identical()).count(),
        r.expectedKeys(), r.unexpectedKeys(), r.held().size(), r.coverage().size());
  }

  /**
   * The summary of the stored reconciliation over every shard from each shard's summary alone, for when a
   * shard's report cannot be read back whole: counts of keys add, the verdict is the worst shard's, the window
   * spans theirs, the id is the one {@link #of} gives their reports, and the differing hours are those of the
   * shard with the most (an hour that differs on two shards counts once; one hour on each of two, once too).
   */
  public static ReportSummary summary(Map<ShardRef, ReportSummary> each) {
    List<ReportSummary> all = each.entrySet().stream().sorted(Comparator.comparingInt(e -> e.getKey().shard()))
        .map(Map.Entry::getValue).toList();
    ReportSummary first = all.getFirst();
    return new ReportSummary(all.stream().map(ReportSummary::id).collect(Collectors.joining(ID_SEPARATOR)),
        first.target(), first.scope(), all.stream().map(ReportSummary::repairId).distinct()
        .collect(Collectors.joining(ID_SEPARATOR)), first.specSha256(), all.stream().map(ReportSummary::created)
        .max(Comparator.naturalOrder()).orElseThrow(), new HourRange(all.stream().map(r -> r.window().from())
        .min(Comparator.naturalOrder()).orElseThrow(), all.stream().map(r -> r.window().to())
        .max(Comparator.naturalOrder()).orElseThrow()), first.boundary(), all.stream().map(ReportSummary::verdict)
        .max(Comparator.naturalOrder()).orElseThrow(), all.stream().mapToLong(ReportSummary::hours).max().orElse(0),
        all.stream().mapToLong(ReportSummary::differingHours).max().orElse(0),
        all.stream().mapToLong(ReportSummary::expectedKeys).sum(), all.stream().mapToLong(ReportSummary::unexpectedKeys)
        .sum(), all.stream().mapToLong(ReportSummary::acknowledged).sum(), all.stream()
        .mapToLong(ReportSummary::coverageIssues).sum());
  }
}
