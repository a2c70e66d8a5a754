package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourClass;
import dev.cutover.engine.api.ReportSummary;
import dev.cutover.engine.sql.Sql;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a stored reconciliation back whole: its header, every hour with its totals and class, the
 * keys it listed, the counts per class, its coverage problems, and the acknowledgements it counted
 * (those of its repair made before it). What the console shows at start is then the stored report
 * itself, not a summary of it, and an export made later holds the same numbers.
 */
final class ReportReader {

  private final Sql sql;
  private final String tables;

  ReportReader(Sql sql, String quotedDatabase) {
    this.sql = sql;
    this.tables = quotedDatabase + ".";
  }

  private record Header(String spec, boolean truncated) {}

  Optional<Reconciliation> read(ReportSummary h, List<Reconciliation.Acknowledgement> repairAcks) {
    String id = h.id();
    Header header = sql.queryOne("read reconciliation " + id, "SELECT spec, keys_truncated FROM " + tables
        + "reconciliations WHERE id = ? LIMIT 1", rs -> new Header(rs.getString(1), rs.getInt(2) == 1), id);
    // The totals of carried hours, stored after the verdict, for the hours the report saved without theirs: v1's, and
    // v2's the same (the same files).
    Map<HourPartition, List<Diff.Total>> carriedTotals = new TreeMap<>();
    sql.query("read the carried hours' totals of reconciliation " + id, "SELECT toUnixTimestamp(hour), measures, totals "
        + "FROM " + tables + "reconciliation_carried_totals WHERE id = ?", rs -> carriedTotals.put(
            HourPartition.ofEpochSecond(rs.getLong(1)), totals(strings(rs.getArray(2)), doubles(rs.getArray(3)),
                doubles(rs.getArray(3)))), id);
    List<Diff.HourDiff> hours = new ArrayList<>();
    List<HourClass> classes = new ArrayList<>();
    sql.query("read the hours of reconciliation " + id, "SELECT toUnixTimestamp(hour), owner, status, rows_v1, rows_v2, "
        + "keys_v1, keys_v2, checksum_v1, checksum_v2, measures, totals_v1, totals_v2, compared FROM " + tables
        + "reconciliation_hours WHERE id = ? ORDER BY hour", rs -> {
          HourPartition hour = HourPartition.ofEpochSecond(rs.getLong(1));
          List<Diff.Total> totals = totals(strings(rs.getArray(10)), doubles(rs.getArray(11)), doubles(rs.getArray(12)));
          if (totals.isEmpty()) {
            totals = carriedTotals.getOrDefault(hour, totals);
          }
          if (rs.getInt(13) == 1) {
            hours.add(new Diff.HourDiff(hour, rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8),
                rs.getLong(9), totals));
          }
          if (!rs.getString(2).isEmpty()) {
            classes.add(new HourClass(hour, Reconciliation.Owner.valueOf(rs.getString(2)),
                Reconciliation.HourStatus.valueOf(rs.getString(3))));
          }
          return hour;
        }, id);
    List<Diff.KeyDiff> keys = sql.query("read the keys of reconciliation " + id, "SELECT toUnixTimestamp(hour), key, kind, "
        + "rule, measures, v1, v2, rows_v1, rows_v2 FROM " + tables + "reconciliation_keys WHERE id = ? ORDER BY rule != '', hour", rs -> {
          List<String> measures = strings(rs.getArray(5));
          List<Double> v1 = doubles(rs.getArray(6));
          List<Double> v2 = doubles(rs.getArray(7));
          Map<Identifier, Double> a = new LinkedHashMap<>();
          Map<Identifier, Double> b = new LinkedHashMap<>();
          for (int i = 0; i < measures.size(); i++) {
            a.put(Identifier.simple("measure", measures.get(i)), v1.get(i));
            b.put(Identifier.simple("measure", measures.get(i)), v2.get(i));
          }
          Diff.Kind kind = Diff.Kind.valueOf(rs.getString(3));
          return new Diff.KeyDiff(HourPartition.ofEpochSecond(rs.getLong(1)), strings(rs.getArray(2)), kind,
              rs.getLong(8), rs.getLong(9), a, b,
              rs.getString(4).isEmpty() ? Optional.empty() : Optional.of(rs.getString(4)));
        }, id);
    Map<HourPartition, Map<String, Long>> counts = new TreeMap<>();
    sql.query("read the counts of reconciliation " + id, "SELECT toUnixTimestamp(hour), class, keys FROM " + tables
        + "reconciliation_counts WHERE id = ?", rs -> counts.computeIfAbsent(HourPartition.ofEpochSecond(rs.getLong(1)),
            x -> new TreeMap<>()).put(rs.getString(2), rs.getLong(3)), id);
    List<Reconciliation.CoverageIssue> coverage = sql.query("read the coverage of reconciliation " + id, "SELECT "
        + "toUnixTimestamp(hour), kind, detail FROM " + tables + "reconciliation_coverage WHERE id = ? ORDER BY hour",
        rs -> new Reconciliation.CoverageIssue(HourPartition.ofEpochSecond(rs.getLong(1)), rs.getString(2),
            rs.getString(3)), id);
    // The acknowledgements it judged: in force when it was made, in hours where it found unexpected keys, each
    // lapsed as it found it then.
    Map<String, String> lapsed = new LinkedHashMap<>();
    sql.query("read the lapsed acknowledgements of reconciliation " + id, "SELECT toUnixTimestamp(hour), key, detail FROM "
        + tables + "reconciliation_lapsed WHERE id = ?", rs -> lapsed.put(rs.getLong(1) + " " + strings(rs.getArray(2)),
            rs.getString(3)), id);
    List<Reconciliation.Acknowledgement> used = repairAcks.stream().filter(a -> !a.at().isAfter(h.created()))
        .filter(a -> counts.getOrDefault(a.hour(), Map.of()).keySet().stream()
            .anyMatch(c -> c.startsWith(Reconciliation.UNEXPECTED)))
        .map(a -> {
          String why = lapsed.get(a.hour().epochSecond() + " " + a.key());
          return why == null || !a.holds() ? a : a.lapse(why);
        }).toList();
    return Optional.of(new Reconciliation(id, header.spec(), h.target(), h.scope(), h.repairId(), h.specSha256(),
        h.created(), h.window(), h.boundary(), h.verdict(), hours, keys, header.truncated(), counts, coverage, used, classes));
  }

  private static List<Diff.Total> totals(List<String> measures, List<Double> v1, List<Double> v2) {
    List<Diff.Total> totals = new ArrayList<>();
    for (int i = 0; i < measures.size(); i++) {
      totals.add(new Diff.Total(Identifier.simple("measure", measures.get(i)), v1.get(i), v2.get(i)));
    }
    return totals;
  }

  static List<String> strings(Array array) throws SQLException {
    Object value = array.getArray();
    if (value instanceof Object[] items) {
      return Arrays.stream(items).map(String::valueOf).toList();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(String::valueOf).toList();
    }
    return List.of();
  }

  private static List<Double> doubles(Array array) throws SQLException {
    Object value = array.getArray();
    if (value instanceof double[] items) {
      return Arrays.stream(items).boxed().toList();
    }
    if (value instanceof Object[] items) {
      return Arrays.stream(items).map(o -> ((Number) o).doubleValue()).toList();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(o -> ((Number) o).doubleValue()).toList();
    }
    return List.of();
  }
}
