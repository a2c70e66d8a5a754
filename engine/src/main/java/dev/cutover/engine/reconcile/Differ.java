package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Diff.HourDiff;
import dev.cutover.engine.api.Diff.KeyDiff;
import dev.cutover.engine.api.Diff.Kind;
import dev.cutover.engine.api.Diff.Total;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.HourFilter;
import dev.cutover.engine.tables.Readable;
import dev.cutover.engine.tables.TargetTables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Compares two tables of a spec inside ClickHouse: first per hour (rows, keys, checksum, totals),
 * then, only for the hours whose checksums differ, per key, classifying each difference by the
 * spec's expected-difference rules. Large tables are never read row by row where they agree.
 */
public final class Differ {

  private final Sql sql;
  private final TableSpec spec;
  private final List<Identifier> columns;
  private final Rules rules;
  private final Map<Identifier, Rules.Kind> kinds;
  private final Readable readable;

  public Differ(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
    this.columns = new TargetTables(sql, spec).insertableColumns(spec.liveTable());
    this.rules = new Rules(sql, spec);
    this.kinds = rules.kinds();
    this.readable = new Readable(sql, spec);
  }

  /** Per-hour comparison of {@code v1} and {@code v2} over a range; hours absent from both are left out. */
  public List<HourDiff> hours(Identifier v1, Identifier v2, HourRange range) {
    return hours(v1, v2, range.list());
  }

  /** Per-hour comparison of {@code v1} and {@code v2} of these hours; hours absent from both are left out. */
  public List<HourDiff> hours(Identifier v1, Identifier v2, List<HourPartition> only) {
    if (only.isEmpty()) {
      return List.of();
    }
    List<Object> values = new ArrayList<>();
    String filter = filter(only, values);
    String time = spec.timeColumn().quoted();
    String keys = spec.keys().stream().map(Identifier::quoted).collect(Collectors.joining(", "));
    // Figures get names of our own: one named like a column (a key k, a measure total_0) would shadow it.
    List<String> totalList = new ArrayList<>();
    for (int i = 0; i < spec.measures().size(); i++) {
      totalList.add("toFloat64(sum(" + spec.measures().get(i).quoted() + ")) AS _cutover_total_" + i);
    }
    String totals = String.join(", ", totalList);
    String side = "SELECT toUnixTimestamp(toStartOfHour(" + time + ")) AS _cutover_h, count() AS _cutover_n, uniqExact("
        + keys + ") AS _cutover_k, reinterpretAsInt64(sum(cityHash64(" + TargetTables.columnList(columns) + "))) AS "
        + "_cutover_c, " + totals + " FROM %s WHERE " + filter + " GROUP BY _cutover_h";
    List<String> measureList = new ArrayList<>();
    for (int i = 0; i < spec.measures().size(); i++) {
      measureList.add("v1._cutover_total_" + i + ", v2._cutover_total_" + i);
    }
    String measures = String.join(", ", measureList);
    String query = "SELECT if(v1._cutover_h = 0, v2._cutover_h, v1._cutover_h) AS hh, v1._cutover_n, v2._cutover_n, "
        + "v1._cutover_k, v2._cutover_k, v1._cutover_c, v2._cutover_c, " + measures
        + " FROM (" + side.formatted(readable.from(v1)) + ") AS v1 FULL OUTER JOIN ("
        + side.formatted(readable.from(v2)) + ") AS v2 ON v1._cutover_h = v2._cutover_h ORDER BY hh"
        + settings(only);
    return sql.query("compare " + v1 + " and " + v2 + " hour by hour", query, rs -> {
      List<Total> t = new ArrayList<>();
      for (int i = 0; i < spec.measures().size(); i++) {
        t.add(new Total(spec.measures().get(i), rs.getDouble(8 + 2 * i), rs.getDouble(9 + 2 * i)));
      }
      return new HourDiff(HourPartition.ofEpochSecond(rs.getLong(1)), rs.getLong(2), rs.getLong(3), rs.getLong(4),
          rs.getLong(5), rs.getLong(6), rs.getLong(7), t);
    }, values.toArray());
  }

  /**
   * Every differing key of the given hours, compared and classified in ClickHouse: {@code hh}, the
   * key columns as {@code k_<key>}, {@code n1}, {@code n2}, each measure's total in v1 and v2
   * ({@code a_<m>}, {@code b_<m>}), {@code rule} (the rule that explains a changed key, or empty) and
   * {@code cls} (that rule's name, or {@code !KIND} for an unexpected difference).
   */
  private String joined(Identifier v1, Identifier v2, List<Object> values, List<HourPartition> hours) {
    String filter = filter(hours, values);
    String changed = spec.measures().stream().map(m -> "NOT " + rules.same(m, kinds.get(m), "v1." + m.quoted(),
        "v2." + m.quoted())).collect(Collectors.joining(" OR "));
    String keyOut = spec.keys().stream().map(k -> Identifier.of("k_" + k.name()).quoted())
        .collect(Collectors.joining(", "));
    String measureOut = spec.measures().stream().map(m -> "v1." + m.quoted() + " AS a_" + m.name() + ", v2." + m.quoted()
        + " AS b_" + m.name()).collect(Collectors.joining(", "));
    String kind = "multiIf(v1.n = 0, 'ONLY_IN_V2', v2.n = 0, 'ONLY_IN_V1', v1.n > 1, 'DUPLICATE_IN_V1', v2.n > 1, "
        + "'DUPLICATE_IN_V2', 'CHANGED')";
    return "SELECT hh, " + keyOut + ", v1.n AS n1, v2.n AS n2, " + measureOut + ", "
        + rules.explaining(kinds) + " AS rule_raw, if(" + kind + " = 'CHANGED', rule_raw, '') AS rule, "
        + "if(rule != '', rule, concat('!', " + kind + ")) AS cls FROM (" + KeySides.of(spec, readable.from(v1), readable.from(v2), filter)
        + ") WHERE " + differs();
  }

  /** Whether a key of the side-by-side rows differs: missing or repeated on a side, or a measure apart. */
  private String differs() {
    return "v1.n != 1 OR v2.n != 1 OR " + spec.measures().stream().map(m -> "NOT " + rules.same(m, kinds.get(m),
        "v1." + m.quoted(), "v2." + m.quoted())).collect(Collectors.joining(" OR "));
  }

  /**
   * The settings of a read of {@code hours} by {@link #filter}: where they are every hour from the first to the last,
   * the filter selects whole partitions and the read skips the server's row filter before it ({@link
   * HourFilter#WHOLE_PARTITIONS}); with gaps, that filter keeps only the hours asked for, and stays.
   */
  private static String settings(List<HourPartition> hours) {
    return contiguous(hours) ? " SETTINGS " + HourFilter.WHOLE_PARTITIONS : "";
  }

  /** Whether {@code hours} are every hour from the first to the last: {@link #filter} is then one range. */
  private static boolean contiguous(List<HourPartition> hours) {
    HourPartition first = hours.stream().min(HourPartition::compareTo).orElseThrow();
    HourPartition last = hours.stream().max(HourPartition::compareTo).orElseThrow();
    return hours.size() == new HourRange(first, last.plusHours(1)).hours();
  }

  /**
   * The rows of {@code hours} (in any order, without repeats): a range that lets ClickHouse skip other
   * partitions, and has() to keep only the hours asked for where they have gaps. Its values are added
   * to {@code values} twice, for v1 and v2.
   */
  private String filter(List<HourPartition> hours, List<Object> values) {
    String time = spec.timeColumn().quoted();
    HourPartition first = hours.stream().min(HourPartition::compareTo).orElseThrow();
    HourPartition last = hours.stream().max(HourPartition::compareTo).orElseThrow();
    boolean everyHour = contiguous(hours);
    List<Long> epochs = hours.stream().map(HourPartition::epochSecond).toList();
    for (int i = 0; i < 2; i++) {
      values.add(first.epochSecond());
      values.add(last.plusHours(1).epochSecond());
      if (!everyHour) {
        values.add(epochs);
      }
    }
    return time + " >= toDateTime(?, 'UTC') AND " + time + " < toDateTime(?, 'UTC')"
        + (everyHour ? "" : " AND has(?, toUnixTimestamp(toStartOfHour(" + time + ")))");
  }

  /** The hours of {@link #hoursAndCounts}: the hour-by-hour comparison, and the differing keys by class. */
  public record HoursAndCounts(List<HourDiff> hours, Map<HourPartition, Map<String, Long>> counts) {}

  /**
   * The hour-by-hour comparison and every differing key counted by class, of {@code hours}, in one
   * read of both tables grouped by hour and key: what {@link #hours} and then {@link #counts} of every
   * differing hour give, at the cost of the second alone. For hours that mostly differ, where the
   * checksums would spare no key-level read. Counts are given for every hour that has a differing key.
   */
  public HoursAndCounts hoursAndCounts(Identifier v1, Identifier v2, List<HourPartition> hours) {
    if (hours.isEmpty()) {
      return new HoursAndCounts(List.of(), Map.of());
    }
    List<Object> values = new ArrayList<>();
    String filter = filter(hours, values);
    String kind = "multiIf(v1.n = 0, 'ONLY_IN_V2', v2.n = 0, 'ONLY_IN_V1', v1.n > 1, 'DUPLICATE_IN_V1', v2.n > 1, "
        + "'DUPLICATE_IN_V2', 'CHANGED')";
    String classified = "SELECT *, (" + differs() + ") AS differs, " + kind + " AS kind, " + rules.explaining(kinds)
        + " AS rule_raw FROM (" + KeySides.of(spec, readable.from(v1), readable.from(v2), filter, columns) + ")";
    String cls = "if(NOT differs, '', if(kind = 'CHANGED' AND rule_raw != '', rule_raw, concat('!', kind)))";
    StringBuilder totals = new StringBuilder();
    for (Identifier m : spec.measures()) {
      totals.append(", toFloat64(sum(v1.").append(m.quoted()).append(")), toFloat64(sum(v2.").append(m.quoted())
          .append("))");
    }
    String query = "SELECT hh, " + cls + " AS cls, sum(v1.n), sum(v2.n), countIf(v1.n > 0), countIf(v2.n > 0), "
        + "reinterpretAsInt64(sum(`v1." + KeySides.HASH + "`)), reinterpretAsInt64(sum(`v2." + KeySides.HASH + "`))"
        + totals + ", count() FROM (" + classified + ") GROUP BY hh, cls ORDER BY hh, cls"
        + settings(hours);
    Map<HourPartition, HourDiff> byHour = new java.util.TreeMap<>();
    Map<HourPartition, Map<String, Long>> counts = new java.util.TreeMap<>();
    int measures = spec.measures().size();
    sql.query("compare and count the keys of " + hours.size() + " hours", query, rs -> {
      HourPartition hour = HourPartition.ofEpochSecond(rs.getLong(1));
      String c = rs.getString(2);
      List<Total> t = new ArrayList<>();
      for (int i = 0; i < measures; i++) {
        t.add(new Total(spec.measures().get(i), rs.getDouble(9 + 2 * i), rs.getDouble(10 + 2 * i)));
      }
      HourDiff part = new HourDiff(hour, rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7),
          rs.getLong(8), t);
      byHour.merge(hour, part, Differ::plus);
      if (!c.isEmpty()) {
        counts.computeIfAbsent(hour, h -> new LinkedHashMap<>()).put(c, rs.getLong(9 + 2 * measures));
      }
      return null;
    }, values.toArray());
    return new HoursAndCounts(List.copyOf(byHour.values()), counts);
  }

  /** One hour's figures from two of its classes of keys: rows, keys and totals add; checksums add modulo 2^64. */
  private static HourDiff plus(HourDiff a, HourDiff b) {
    List<Total> t = new ArrayList<>();
    for (int i = 0; i < a.totals().size(); i++) {
      Total x = a.totals().get(i);
      Total y = b.totals().get(i);
      t.add(new Total(x.measure(), x.v1() + y.v1(), x.v2() + y.v2()));
    }
    return new HourDiff(a.hour(), a.rowsV1() + b.rowsV1(), a.rowsV2() + b.rowsV2(), a.keysV1() + b.keysV1(),
        a.keysV2() + b.keysV2(), a.checksumV1() + b.checksumV1(), a.checksumV2() + b.checksumV2(), t);
  }

  /** The keys that differ in the given hours, at most {@code limit}, unexpected ones first. */
  public List<KeyDiff> keys(Identifier v1, Identifier v2, List<HourPartition> hours, int limit) {
    if (hours.isEmpty()) {
      return List.of();
    }
    List<Object> values = new ArrayList<>();
    List<Identifier> keyColumns = spec.keys();
    String query = "SELECT hh, " + keyColumns.stream().map(k -> "k_" + k.name()).collect(Collectors.joining(", "))
        + ", n1, n2, " + spec.measures().stream().map(m -> "a_" + m.name() + ", b_" + m.name())
            .collect(Collectors.joining(", ")) + ", rule FROM (" + joined(v1, v2, values, hours)
        + ") ORDER BY rule != '', hh LIMIT ?" + settings(hours);
    values.add(limit);
    int k = keyColumns.size();
    return sql.query("compare " + v1 + " and " + v2 + " key by key", query, rs -> {
      List<String> key = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        key.add(rs.getString(2 + i));
      }
      long n1 = rs.getLong(2 + k);
      long n2 = rs.getLong(3 + k);
      Map<Identifier, Double> a = new LinkedHashMap<>();
      Map<Identifier, Double> b = new LinkedHashMap<>();
      for (int i = 0; i < spec.measures().size(); i++) {
        a.put(spec.measures().get(i), rs.getDouble(4 + k + 2 * i));
        b.put(spec.measures().get(i), rs.getDouble(5 + k + 2 * i));
      }
      String rule = rs.getString(4 + k + 2 * spec.measures().size());
      Kind kind = n1 == 0 ? Kind.ONLY_IN_V2 : n2 == 0 ? Kind.ONLY_IN_V1 : n1 > 1 ? Kind.DUPLICATE_IN_V1
          : n2 > 1 ? Kind.DUPLICATE_IN_V2 : Kind.CHANGED;
      return new KeyDiff(HourPartition.ofEpochSecond(rs.getLong(1)), key, kind, n1, n2, a, b,
          rule.isEmpty() ? Optional.empty() : Optional.of(rule));
    }, values.toArray());
  }

  /**
   * How many keys differ in each given hour, by class: the name of the rule that explains them, or
   * {@code !KIND} (for example {@code !DUPLICATE_IN_V1}) for unexpected ones. Counted in ClickHouse,
   * without reading the keys.
   */
  public Map<HourPartition, Map<String, Long>> counts(Identifier v1, Identifier v2, List<HourPartition> hours) {
    Map<HourPartition, Map<String, Long>> out = new java.util.TreeMap<>();
    if (hours.isEmpty()) {
      return out;
    }
    List<Object> values = new ArrayList<>();
    String query = "SELECT hh, cls, count() FROM (" + joined(v1, v2, values, hours) + ") GROUP BY hh, cls ORDER BY hh, cls";
    sql.query("count the differing keys of " + hours.size() + " hours", query, rs -> {
      out.computeIfAbsent(HourPartition.ofEpochSecond(rs.getLong(1)), h -> new LinkedHashMap<>())
          .put(rs.getString(2), rs.getLong(3));
      return null;
    }, values.toArray());
    return out;
  }

  /**
   * The fingerprint of the unexpected differences of {@code hour}, or of one key of it when {@code key} is
   * not empty (its values as the comparison prints them): counted, summed and hashed in ClickHouse, one row
   * per kind. Each measure's sum of {@code v2 - v1} is the server's text of a sum in the measure's own type,
   * so integers and decimals compare exactly.
   */
  public Reconciliation.Fingerprint fingerprint(Identifier v1, Identifier v2, HourPartition hour, List<String> key) {
    List<Object> values = new ArrayList<>();
    String joined = joined(v1, v2, values, List.of(hour));
    StringBuilder where = new StringBuilder("startsWith(cls, '!')");
    for (int i = 0; i < key.size(); i++) {
      where.append(" AND ").append(Identifier.of("k_" + spec.keys().get(i).name()).quoted()).append(" = ?");
      values.add(key.get(i));
    }
    String keyColumns = spec.keys().stream().map(k -> Identifier.of("k_" + k.name()).quoted())
        .collect(Collectors.joining(", "));
    String sums = spec.measures().stream().map(m -> ", toString(sum(b_" + m.name() + " - a_" + m.name() + "))")
        .collect(Collectors.joining());
    String query = "SELECT substring(cls, 2), count(), reinterpretAsInt64(groupBitXor(cityHash64(" + keyColumns + ", cls, n1, n2)))"
        + sums
        + " FROM (" + joined + ") WHERE " + where + " GROUP BY cls ORDER BY cls";
    Map<String, Long> kinds = new LinkedHashMap<>();
    Map<String, String> deltas = new LinkedHashMap<>();
    long[] totals = new long[2];
    sql.query("read the unexpected differences of " + hour + (key.isEmpty() ? "" : " key " + key), query, rs -> {
      kinds.put(rs.getString(1), rs.getLong(2));
      totals[0] += rs.getLong(2);
      totals[1] ^= rs.getLong(3);
      for (int i = 0; i < spec.measures().size(); i++) {
        deltas.merge(spec.measures().get(i).name(), add("0", rs.getString(4 + i)), Differ::add);
      }
      return null;
    }, values.toArray());
    return new Reconciliation.Fingerprint(totals[0], kinds, deltas, totals[1]);
  }

  /**
   * Two sums as the server printed them, added exactly; a float's {@code inf} or {@code nan} is no number and
   * stays as printed, so a fingerprint that holds one equals only another that holds the same.
   */
  static String add(String a, String b) {
    try {
      return new java.math.BigDecimal(a).add(new java.math.BigDecimal(b)).stripTrailingZeros().toPlainString();
    } catch (NumberFormatException e) {
      return a + "+" + b;
    }
  }

  /** Each measure's kind, from v1's column types: how a fingerprint's sums compare. */
  public Map<Identifier, Rules.Kind> kinds() {
    return kinds;
  }

  /** Hour-by-hour, then every differing key counted by class, then a list of keys, unexpected first. */
  public Diff diff(Identifier v1, Identifier v2, List<HourDiff> hours, int keyLimit) {
    List<HourPartition> differing = hours.stream().filter(h -> !h.identical()).map(HourDiff::hour).toList();
    long expected = 0;
    long unexpected = 0;
    for (int i = 0; i < differing.size(); i += 200) {
      for (Map<String, Long> classes : counts(v1, v2, differing.subList(i, Math.min(differing.size(), i + 200))).values()) {
        for (var c : classes.entrySet()) {
          if (c.getKey().startsWith(dev.cutover.engine.api.Reconciliation.UNEXPECTED)) {
            unexpected += c.getValue();
          } else {
            expected += c.getValue();
          }
        }
      }
    }
    List<KeyDiff> keys = new ArrayList<>();
    // Bounded IN lists: a few hundred hours per statement.
    for (int i = 0; i < differing.size() && keys.size() < keyLimit; i += 200) {
      keys.addAll(keys(v1, v2, differing.subList(i, Math.min(differing.size(), i + 200)), keyLimit - keys.size()));
    }
    return new Diff(hours, keys, keys.size() < expected + unexpected, expected, unexpected);
  }

}
