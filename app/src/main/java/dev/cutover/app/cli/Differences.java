package dev.cutover.app.cli;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Reconciliation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A reconciliation's differences counted by hour and class, as the operator reads them before any
 * single key: the open unexpected ones (not acknowledged) by hour and kind, the expected ones by rule.
 */
final class Differences {

  /** {@code keys} keys of {@code kind} that differ unexpectedly in {@code hour}, not acknowledged. */
  record Unexpected(HourPartition hour, Diff.Kind kind, long keys) {}

  /** {@code keys} keys in {@code hours} hours that differ as {@code rule} expects. */
  record Expected(String rule, long hours, long keys) {}

  private Differences() {}

  static List<Unexpected> unexpected(Reconciliation r) {
    List<Unexpected> out = new ArrayList<>();
    for (var hour : new TreeMap<>(r.counts()).entrySet()) {
      if (r.unexpectedIn(hour.getKey()) == 0) {
        continue; // acknowledged as a whole, or every key of it
      }
      for (var c : hour.getValue().entrySet()) {
        if (!c.getKey().startsWith(Reconciliation.UNEXPECTED)) {
          continue;
        }
        Diff.Kind kind = Diff.Kind.valueOf(c.getKey().substring(Reconciliation.UNEXPECTED.length())
            .toUpperCase(Locale.ROOT));
        long accepted = r.keys().stream().filter(k -> k.hour().equals(hour.getKey()) && k.kind() == kind
            && !k.expected() && r.acknowledged().stream().anyMatch(a -> Reconciliation.covers(a, k))).count();
        long open = c.getValue() - accepted;
        if (open > 0) {
          out.add(new Unexpected(hour.getKey(), kind, open));
        }
      }
    }
    return out;
  }

  static List<Expected> expected(Reconciliation r) {
    Map<String, long[]> byRule = new LinkedHashMap<>();
    for (var hour : new TreeMap<>(r.counts()).entrySet()) {
      for (var c : hour.getValue().entrySet()) {
        if (!c.getKey().startsWith(Reconciliation.UNEXPECTED)) {
          long[] sums = byRule.computeIfAbsent(c.getKey(), k -> new long[2]);
          sums[0]++;
          sums[1] += c.getValue();
        }
      }
    }
    return byRule.entrySet().stream().map(e -> new Expected(e.getKey(), e.getValue()[0], e.getValue()[1])).toList();
  }

  /** The unexpected keys the reconciliation kept that no acknowledgement covers, in its order. */
  static List<Diff.KeyDiff> openKeys(Reconciliation r) {
    return r.keys().stream().filter(k -> !k.expected()
        && r.acknowledged().stream().noneMatch(a -> Reconciliation.covers(a, k))).toList();
  }
}
