package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourClass;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * A reconciliation as CSV, in four sections separated by an empty line, each with its own header:
 * one row per hour (owner, status, rows, and v1, v2 and v2 − v1 of every measure), one per key the
 * reconciliation kept, the count of differing keys per hour and class, and the coverage problems.
 *
 * <p>The first columns of each section are those of earlier reports, in the same order, so scripts
 * that read them keep working; a key row then adds its key columns one per cell and each measure's
 * v1 and v2. Every value is printed by {@link MeasureFormat}, as ClickHouse prints it.
 */
final class ReportCsv {

  private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get();

  private ReportCsv() {}

  static String of(Reconciliation r, ReportColumns columns) {
    List<Identifier> measures = ReportMeasures.of(r, columns).all();
    StringWriter out = new StringWriter();
    try (CSVPrinter csv = new CSVPrinter(out, FORMAT)) {
      hours(csv, r, columns, measures);
      csv.println();
      keys(csv, r, columns, measures);
      csv.println();
      csv.printRecord("section", "hour", "class", "keys");
      for (var hour : r.counts().entrySet()) {
        for (var cls : hour.getValue().entrySet()) {
          String name = cls.getKey().startsWith(Reconciliation.UNEXPECTED) ? "unexpected " + cls.getKey()
              .substring(Reconciliation.UNEXPECTED.length()).toLowerCase(Locale.ROOT) : cls.getKey();
          csv.printRecord("count", hour.getKey(), name, cls.getValue());
        }
      }
      csv.println();
      csv.printRecord("section", "hour", "kind", "detail");
      for (Reconciliation.CoverageIssue c : r.coverage()) {
        csv.printRecord("coverage", c.hour(), c.kind(), c.detail());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void hours(CSVPrinter csv, Reconciliation r, ReportColumns columns, List<Identifier> measures)
      throws IOException {
    List<String> header = new ArrayList<>(List.of("section", "hour", "owner", "status", "rows_v1", "rows_v2"));
    measures.forEach(m -> header.addAll(List.of(m.name() + "_v1", m.name() + "_v2", m.name() + "_delta")));
    csv.printRecord(header);
    Map<HourPartition, HourClass> classes = new HashMap<>();
    r.classes().forEach(c -> classes.put(c.hour(), c));
    for (Diff.HourDiff h : r.hours()) {
      HourClass c = classes.get(h.hour());
      List<Object> row = new ArrayList<>(List.of("hour", h.hour(), c == null ? "" : c.owner(), c == null ? ""
          : c.status(), h.rowsV1(), h.rowsV2()));
      for (Identifier m : measures) {
        String type = columns.type(m);
        Diff.Total t = h.totals().stream().filter(x -> x.measure().equals(m)).findFirst().orElse(null);
        Number v1 = t == null ? null : t.v1();
        Number v2 = t == null ? null : t.v2();
        row.add(MeasureFormat.format(v1, type));
        row.add(MeasureFormat.format(v2, type));
        row.add(t == null ? "" : MeasureFormat.format(MeasureFormat.delta(v1, v2, type), type));
      }
      csv.printRecord(row);
    }
  }

  private static void keys(CSVPrinter csv, Reconciliation r, ReportColumns columns, List<Identifier> measures)
      throws IOException {
    int keyColumns = r.keys().stream().mapToInt(k -> k.key().size()).max().orElse(columns.keys().size());
    List<String> header = new ArrayList<>(List.of("section", "hour", "key", "kind", "classification", "rule"));
    measures.forEach(m -> header.add(m.name() + "_delta"));
    for (int i = 0; i < keyColumns; i++) {
      header.add("key_" + (i < columns.keys().size() ? columns.keys().get(i).name() : Integer.toString(i + 1)));
    }
    measures.forEach(m -> header.addAll(List.of(m.name() + "_v1", m.name() + "_v2")));
    // A comparison over a sharded table's every shard names the shard that holds each key, last.
    boolean sharded = r.keys().stream().anyMatch(k -> k.shard().isPresent());
    if (sharded) {
      header.add("shard");
    }
    csv.printRecord(header);
    for (Diff.KeyDiff k : r.keys()) {
      boolean acked = r.acknowledged().stream().anyMatch(a -> Reconciliation.covers(a, k));
      List<Object> row = new ArrayList<>(List.of("key", k.hour(), String.join("|", k.key()), k.kind(),
          k.expected() ? "expected" : acked ? "acknowledged" : "unexpected", k.rule().orElse("")));
      for (Identifier m : measures) {
        String type = columns.type(m);
        row.add(MeasureFormat.format(MeasureFormat.delta(k.v1().get(m), k.v2().get(m), type), type));
      }
      for (int i = 0; i < keyColumns; i++) {
        row.add(i < k.key().size() ? k.key().get(i) : "");
      }
      for (Identifier m : measures) {
        String type = columns.type(m);
        row.add(MeasureFormat.format(k.v1().get(m), type));
        row.add(MeasureFormat.format(k.v2().get(m), type));
      }
      if (sharded) {
        row.add(k.shard().map(on -> on.toString()).orElse(""));
      }
      csv.printRecord(row);
    }
  }
}
