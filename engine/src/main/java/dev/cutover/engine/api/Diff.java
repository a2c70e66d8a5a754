package dev.cutover.engine.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * v1 against v2 (or against a sample): per hour, rows, keys, checksums and each measure's totals;
 * per key, in the hours that differ, what differs and whether a rule of the spec explains it.
 *
 * @param keys a list of differing keys, unexpected first, at most the limit asked for
 * @param expectedKeys every key that differs as a rule explains, counted in ClickHouse
 * @param unexpectedKeys every key that differs without a rule to explain it, counted in ClickHouse
 */
public record Diff(List<HourDiff> hours, List<KeyDiff> keys, boolean keysTruncated, long expectedKeys,
    long unexpectedKeys) {

  public Diff {
    hours = List.copyOf(hours);
    keys = List.copyOf(keys);
  }

  /** One measure's total in an hour, in v1 and v2. */
  public record Total(Identifier measure, double v1, double v2) {
    public double delta() {
      return Diff.delta(v1, v2);
    }
  }

  /** One hour of both versions. Absent versions count zero rows. */
  public record HourDiff(HourPartition hour, long rowsV1, long rowsV2, long keysV1, long keysV2, long checksumV1,
      long checksumV2, List<Total> totals) {
    public HourDiff {
      totals = List.copyOf(totals);
    }

    /** Same rows, same checksum: nothing to read further for this hour. */
    public boolean identical() {
      return rowsV1 == rowsV2 && checksumV1 == checksumV2;
    }
  }

  /** How a key differs. */
  public enum Kind {
    ONLY_IN_V1,
    ONLY_IN_V2,
    CHANGED,
    /** The key appears more than once in v1's hour: counted twice. */
    DUPLICATE_IN_V1,
    /** The key appears more than once in v2's hour: counted twice. */
    DUPLICATE_IN_V2
  }

  /**
   * One key of one hour that differs. {@code rule} names the expected-difference rule that explains
   * it; empty means unexpected. {@code shard} names the shard whose local tables hold it, in a comparison
   * over a sharded table's every shard; empty on one server.
   */
  public record KeyDiff(HourPartition hour, List<String> key, Kind kind, long rowsV1, long rowsV2,
      Map<Identifier, Double> v1, Map<Identifier, Double> v2, Optional<String> rule, Optional<ShardRef> shard) {
    public KeyDiff {
      key = List.copyOf(key);
      v1 = Map.copyOf(v1);
      v2 = Map.copyOf(v2);
    }

    /** A key of one server's tables. */
    public KeyDiff(HourPartition hour, List<String> key, Kind kind, long rowsV1, long rowsV2,
        Map<Identifier, Double> v1, Map<Identifier, Double> v2, Optional<String> rule) {
      this(hour, key, kind, rowsV1, rowsV2, v1, v2, rule, Optional.empty());
    }

    /** This key, as found on {@code on}. */
    public KeyDiff on(ShardRef on) {
      return new KeyDiff(hour, key, kind, rowsV1, rowsV2, v1, v2, rule, Optional.of(on));
    }

    public boolean expected() {
      return rule.isPresent();
    }

    public double delta(Identifier measure) {
      return Diff.delta(v1.getOrDefault(measure, 0.0), v2.getOrDefault(measure, 0.0));
    }
  }

  /**
   * {@code v2 - v1} taken on the shortest decimals that print each value, so that a Decimal's
   * 5000000.004 - 5000018.564 is -18.56 and not the binary -18.559999999999491; the verdict never
   * depends on it (ClickHouse compares the sums in their own types).
   */
  static double delta(double v1, double v2) {
    if (!Double.isFinite(v1) || !Double.isFinite(v2)) {
      return v2 - v1;
    }
    return java.math.BigDecimal.valueOf(v2).subtract(java.math.BigDecimal.valueOf(v1)).doubleValue();
  }

  /** Every key that differs, in every hour. */
  public long differingKeys() {
    return expectedKeys + unexpectedKeys;
  }
}
