package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The two versions of each hour and key side by side, as the expected-difference rules read them:
 * {@code hh} (the hour, epoch seconds), {@code k_<key>} and {@code v1.<key>}, {@code v2.<key>} (the key
 * as text), {@code v1.n}, {@code v2.n} (the key's rows in each version, 0 where it is missing) and
 * {@code v1.<measure>}, {@code v2.<measure>} (its measures summed in each version, in the measure's
 * own type, so integers and decimals compare exactly).
 *
 * <p>Both tables are read once, as one stream tagged with its side, and grouped once by hour and
 * key: one aggregation instead of two and a hash join of their results (measured about 0.8× the
 * time of that {@code FULL OUTER JOIN} on the demo's six months, docs/BENCHMARKS.md). Keys are
 * grouped in their own type and turned into text only once per group.
 */
final class KeySides {

  /** Names of our own inside the statement, chosen not to meet a column's. */
  private static final String SIDE = "_cutover_side";
  private static final String HOUR = "_cutover_hour";
  static final String HASH = "_cutover_hash";

  private KeySides() {}

  /**
   * The subquery over {@code v1} and {@code v2} of {@code spec} (what follows {@code FROM} for each:
   * a table's name, or a subquery that reads it as its engine means it), rows filtered by {@code filter} (a
   * condition over the tables' columns, bound once for each table: its values are given twice, first
   * for v1, then for v2).
   */
  static String of(TableSpec spec, String v1, String v2, String filter) {
    return of(spec, v1, v2, filter, List.of());
  }

  /**
   * As {@link #of(TableSpec, Identifier, Identifier, String)}, with {@code v1._cutover_hash} and
   * {@code v2._cutover_hash}: the sum (modulo 2^64) of {@code cityHash64} of {@code checksummed} over
   * the key's rows in each version, so that their sum over an hour is that hour's checksum.
   */
  static String of(TableSpec spec, String v1, String v2, String filter, List<Identifier> checksummed) {
    String keys = spec.keys().stream().map(Identifier::quoted).collect(Collectors.joining(", "));
    String measures = spec.measures().stream().map(Identifier::quoted).collect(Collectors.joining(", "));
    String hash = checksummed.isEmpty() ? "" : ", cityHash64(" + checksummed.stream().map(Identifier::quoted)
        .collect(Collectors.joining(", ")) + ") AS " + HASH;
    String read = "SELECT %d AS " + SIDE + ", toStartOfHour(" + spec.timeColumn().quoted() + ") AS " + HOUR + ", "
        + keys + ", " + measures + hash + " FROM %s WHERE " + filter;
    StringBuilder out = new StringBuilder("SELECT toUnixTimestamp(" + HOUR + ") AS hh");
    for (Identifier k : spec.keys()) {
      String text = "toString(" + k.quoted() + ")";
      out.append(", ").append(text).append(" AS ").append(Identifier.of("k_" + k.name()).quoted());
      for (String side : new String[] {"v1", "v2"}) {
        out.append(", ").append(text).append(" AS `").append(side).append('.').append(k.name()).append('`');
      }
    }
    out.append(", countIf(" + SIDE + " = 1) AS `v1.n`, countIf(" + SIDE + " = 2) AS `v2.n`");
    for (Identifier m : spec.measures()) {
      for (int side = 1; side <= 2; side++) {
        out.append(", sumIf(").append(m.quoted()).append(", " + SIDE + " = ").append(side).append(") AS `v")
            .append(side).append('.').append(m.name()).append('`');
      }
    }
    if (!checksummed.isEmpty()) {
      out.append(", sumIf(" + HASH + ", " + SIDE + " = 1) AS `v1." + HASH + "`, sumIf(" + HASH + ", " + SIDE
          + " = 2) AS `v2." + HASH + "`");
    }
    return out.append(" FROM (").append(read.formatted(1, v1)).append(" UNION ALL ")
        .append(read.formatted(2, v2)).append(") GROUP BY " + HOUR + ", ").append(keys).toString();
  }
}
