package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff.KeyDiff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keys a report keeps, read once every differing key is counted by class: the unexpected ones, up to the
 * caller's limit (the report says when it holds fewer than were counted), and a few explained ones to show what
 * the rules matched, read after the verdict is stored.
 */
final class KeySample {

  /** Explained keys a report keeps, to show what the rules matched. */
  static final int EXPLAINED_KEYS = 200;

  /**
   * The keys kept.
   *
   * @param keys the unexpected keys read
   * @param truncated whether fewer unexpected keys were read than were counted
   * @param unexpectedHours the hours that hold an unexpected key, in order
   */
  record Kept(List<KeyDiff> keys, boolean truncated, List<HourPartition> unexpectedHours) {}

  private final Differ differ;
  private final TableSpec spec;

  KeySample(Differ differ, TableSpec spec) {
    this.differ = differ;
    this.spec = spec;
  }

  /**
   * The unexpected keys to keep, read where their {@code counts} by class say they are, at most {@code keyLimit}:
   * what the verdict and the acknowledgements are judged by.
   */
  Kept unexpected(Map<HourPartition, Map<String, Long>> counts, int keyLimit) {
    List<KeyDiff> keys = new ArrayList<>();
    List<HourPartition> unexpectedHours = counts.entrySet().stream().filter(e -> e.getValue().keySet().stream()
        .anyMatch(c -> c.startsWith(Reconciliation.UNEXPECTED))).map(Map.Entry::getKey).toList();
    for (int i = 0; i < unexpectedHours.size() && keys.size() < keyLimit; i += Reconciler.HOURS_PER_STATEMENT) {
      keys.addAll(differ.keys(spec.liveTable(), spec.targetTable(), unexpectedHours.subList(i,
          Math.min(unexpectedHours.size(), i + Reconciler.HOURS_PER_STATEMENT)), keyLimit - keys.size()).stream()
          .filter(k -> !k.expected()).toList());
    }
    long unexpectedCounted = counts.values().stream().flatMap(m -> m.entrySet().stream())
        .filter(e -> e.getKey().startsWith(Reconciliation.UNEXPECTED)).mapToLong(Map.Entry::getValue).sum();
    return new Kept(keys, keys.size() < unexpectedCounted, unexpectedHours);
  }

  /**
   * A few explained keys of the {@code differing} hours, to show what the rules matched: for the report alone, the
   * verdict counts them by class ({@code counts}) without them.
   */
  List<KeyDiff> explained(Map<HourPartition, Map<String, Long>> counts, List<HourPartition> differing) {
    if (differing.isEmpty()) {
      return List.of();
    }
    // From the first differing hours that hold that many, as their counts say: the keys come in hour order, so any
    // hour after those would be read for nothing.
    return differ.keys(spec.liveTable(), spec.targetTable(), firstHolding(differing, counts, EXPLAINED_KEYS),
        EXPLAINED_KEYS).stream().filter(KeyDiff::expected).toList();
  }

  /**
   * The first of {@code hours} (at most {@link Reconciler#SAMPLE_HOURS}) whose counted keys together reach
   * {@code keys}.
   */
  static List<HourPartition> firstHolding(List<HourPartition> hours, Map<HourPartition, Map<String, Long>> counts,
      int keys) {
    long held = 0;
    int end = 0;
    while (end < Math.min(hours.size(), Reconciler.SAMPLE_HOURS) && held < keys) {
      held += counts.getOrDefault(hours.get(end), Map.of()).values().stream().mapToLong(Long::longValue).sum();
      end++;
    }
    return hours.subList(0, end);
  }
}
