package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The measures of a report, split into those that differ somewhere in the window (in an hour's total
 * or in a listed key) and those that are identical everywhere. Only the first are charted and get
 * columns in the key tables: a flat zero line says nothing a sentence cannot.
 *
 * @param all every measure, in the spec's order
 * @param differing the measures that differ in at least one hour or listed key
 * @param identical the others
 */
record ReportMeasures(List<Identifier> all, List<Identifier> differing, List<Identifier> identical) {

  ReportMeasures {
    all = List.copyOf(all);
    differing = List.copyOf(differing);
    identical = List.copyOf(identical);
  }

  static ReportMeasures of(Reconciliation r, ReportColumns columns) {
    Set<Identifier> all = new LinkedHashSet<>();
    r.hours().forEach(h -> h.totals().forEach(t -> all.add(t.measure())));
    // Key values are maps without an order: sorted, after the measures the hours name in the spec's order.
    r.keys().stream().flatMap(k -> k.v1().keySet().stream()).sorted().forEach(all::add);
    List<Identifier> differing = new ArrayList<>();
    List<Identifier> identical = new ArrayList<>();
    for (Identifier m : all) {
      (differs(r, m, columns.type(m)) ? differing : identical).add(m);
    }
    return new ReportMeasures(new ArrayList<>(all), differing, identical);
  }

  private static boolean differs(Reconciliation r, Identifier m, String type) {
    for (Diff.HourDiff h : r.hours()) {
      for (Diff.Total t : h.totals()) {
        Number v1 = t.v1();
        Number v2 = t.v2();
        if (t.measure().equals(m) && MeasureFormat.differs(v1, v2, type)) {
          return true;
        }
      }
    }
    return r.keys().stream().anyMatch(k -> MeasureFormat.differs(k.v1().get(m), k.v2().get(m), type));
  }

  /** One sentence on what is not charted, or empty when every measure differs. */
  String identicalSentence() {
    if (all.isEmpty()) {
      return "The reconciliation holds no measure to chart.";
    }
    if (differing.isEmpty()) {
      return "No measure differs in any hour or listed key: " + Words.list(names(identical)) + " "
          + (identical.size() == 1 ? "is" : "are") + " identical everywhere, so there is nothing to chart.";
    }
    if (identical.isEmpty()) {
      return "";
    }
    return Words.list(names(identical)) + " " + (identical.size() == 1 ? "is" : "are") + " identical in every hour "
        + "and every listed key, so only " + Words.list(names(differing)) + " "
        + (differing.size() == 1 ? "is" : "are") + " charted and listed.";
  }

  private static List<String> names(List<Identifier> measures) {
    return measures.stream().map(Identifier::name).toList();
  }
}
