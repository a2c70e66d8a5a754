package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.HourClass;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** A reconciliation as CSV (one row per hour, then one per differing key) or as one self-contained HTML file. */
public final class ReportExport {

  private ReportExport() {}

  public static String csv(Reconciliation r) {
    StringBuilder out = new StringBuilder();
    List<String> measures = r.hours().isEmpty() ? List.of()
        : r.hours().getFirst().totals().stream().map(t -> t.measure().name()).toList();
    out.append("section,hour,owner,status,rows_v1,rows_v2");
    measures.forEach(m -> out.append(',').append(m).append("_v1,").append(m).append("_v2,").append(m).append("_delta"));
    out.append('\n');
    Map<Object, HourClass> classes = new TreeMap<>();
    r.classes().forEach(c -> classes.put(c.hour(), c));
    for (Diff.HourDiff h : r.hours()) {
      HourClass c = classes.get(h.hour());
      out.append("hour,").append(h.hour()).append(',').append(c == null ? "" : c.owner()).append(',')
          .append(c == null ? "" : c.status()).append(',').append(h.rowsV1()).append(',').append(h.rowsV2());
      h.totals().forEach(t -> out.append(',').append(num(t.v1())).append(',').append(num(t.v2())).append(',')
          .append(num(t.delta())));
      out.append('\n');
    }
    out.append("\nsection,hour,key,kind,classification,rule");
    measures.forEach(m -> out.append(',').append(m).append("_delta"));
    out.append('\n');
    for (Diff.KeyDiff k : r.keys()) {
      boolean acked = r.acknowledged().stream().anyMatch(a -> Reconciliation.covers(a, k));
      out.append("key,").append(k.hour()).append(',').append(cell(String.join("|", k.key()))).append(',')
          .append(k.kind()).append(',').append(k.expected() ? "expected" : acked ? "acknowledged" : "unexpected").append(',')
          .append(cell(k.rule().orElse("")));
      k.v1().keySet().forEach(m -> out.append(',').append(num(k.delta(m))));
      out.append('\n');
    }
    out.append("\nsection,hour,class,keys\n");
    r.counts().forEach((hour, byClass) -> byClass.forEach((cls, n) -> out.append("count,").append(hour).append(',')
        .append(cls.startsWith(Reconciliation.UNEXPECTED) ? "unexpected " + cls.substring(1).toLowerCase(Locale.ROOT) : cls)
        .append(',').append(n).append('\n')));
    out.append("\nsection,hour,kind,detail\n");
    r.coverage().forEach(c -> out.append("coverage,").append(c.hour()).append(',').append(c.kind()).append(',')
        .append(cell(c.detail())).append('\n'));
    return out.toString();
  }

  public static String html(Reconciliation r) {
    StringBuilder b = new StringBuilder();
    b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reconciliation ").append(esc(r.id()))
        .append("</title><style>body{font:14px system-ui,sans-serif;margin:24px;color:#1d2329}h1{font-size:20px}"
            + ".GREEN{color:#1a7f37}.ACKNOWLEDGED{color:#9a6700}.RED{color:#cf222e}table{border-collapse:collapse;margin:12px 0}"
            + "td,th{border:1px solid #d7dce1;padding:3px 8px;text-align:right}th{background:#f4f6f8}"
            + "td.l,th.l{text-align:left}</style></head><body>");
    b.append("<h1>Reconciliation of ").append(esc(r.target())).append(" — <span class=\"").append(r.verdict()).append("\">")
        .append(r.verdict().name().toLowerCase(Locale.ROOT)).append("</span></h1>");
    b.append("<p>Spec ").append(esc(r.spec())).append(", report ").append(esc(r.id())).append(", made ").append(r.created())
        .append(". Window ").append(esc(r.window().toString())).append(", boundary ").append(r.boundary())
        .append(" UTC (backfill below, live writer from it on).</p>");
    long differing = r.hours().stream().filter(h -> !h.identical()).count();
    b.append("<p>").append(r.hours().size()).append(" hours compared, ").append(differing).append(" differ; ")
        .append(r.expectedKeys()).append(" keys differ as the rules expect, ")
        .append(r.unexpectedKeys()).append(" unexpectedly, ").append(r.acknowledged().size()).append(" acknowledged; ")
        .append(r.coverage().size()).append(" coverage issues.").append(r.keysTruncated() ? " Only the first unexpected keys are listed." : "")
        .append("</p>");
    b.append(chart(r));
    if (!r.coverage().isEmpty()) {
      b.append("<h2>Coverage</h2><table><tr><th class=l>hour</th><th class=l>kind</th><th class=l>detail</th></tr>");
      r.coverage().forEach(c -> b.append("<tr><td class=l>").append(c.hour()).append("</td><td class=l>").append(esc(c.kind()))
          .append("</td><td class=l>").append(esc(c.detail())).append("</td></tr>"));
      b.append("</table>");
    }
    if (!r.acknowledged().isEmpty()) {
      b.append("<h2>Acknowledged</h2><table><tr><th class=l>hour</th><th class=l>key</th><th class=l>reason</th><th class=l>by</th></tr>");
      r.acknowledged().forEach(a -> b.append("<tr><td class=l>").append(a.hour()).append("</td><td class=l>")
          .append(esc(a.key().isEmpty() ? "(whole hour)" : String.join(", ", a.key()))).append("</td><td class=l>")
          .append(esc(a.reason())).append("</td><td class=l>").append(esc(a.by())).append("</td></tr>"));
      b.append("</table>");
    }
    b.append("<h2>Unexpected differences</h2><table><tr><th class=l>hour</th><th class=l>key</th><th class=l>kind</th>"
        + "<th class=l>deltas (v2 − v1)</th></tr>");
    r.keys().stream().filter(k -> !k.expected()).limit(500).forEach(k -> b.append("<tr><td class=l>").append(k.hour())
        .append("</td><td class=l>").append(esc(String.join(", ", k.key()))).append("</td><td class=l>")
        .append(k.kind().name().toLowerCase(Locale.ROOT)).append("</td><td class=l>")
        .append(esc(k.v1().keySet().stream().map(m -> m + " " + num(k.delta(m))).collect(Collectors.joining(", "))))
        .append("</td></tr>"));
    b.append("</table></body></html>\n");
    return b.toString();
  }

  /** Hourly v2 − v1 of the first measure as bars, coloured by each hour's status. */
  private static String chart(Reconciliation r) {
    if (r.hours().isEmpty() || r.hours().getFirst().totals().isEmpty()) {
      return "";
    }
    int n = r.classes().size();
    double width = 960;
    double height = 160;
    Map<Object, Double> delta = new TreeMap<>();
    r.hours().forEach(h -> delta.put(h.hour(), h.totals().getLast().delta()));
    double max = delta.values().stream().mapToDouble(Math::abs).max().orElse(1);
    StringBuilder s = new StringBuilder("<h2>v2 − v1 of " + esc(r.hours().getFirst().totals().getLast().measure().name())
        + " per hour</h2><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + (int) width + "\" height=\"" + (int) height
        + "\" style=\"background:#fafbfc;border:1px solid #d7dce1\">");
    double w = width / Math.max(1, n);
    for (int i = 0; i < n; i++) {
      HourClass c = r.classes().get(i);
      double d = delta.getOrDefault(c.hour(), 0.0);
      double h = max == 0 ? 0 : Math.abs(d) / max * (height / 2 - 4);
      double y = d >= 0 ? height / 2 - h : height / 2;
      String color = switch (c.status()) {
        case IDENTICAL -> "#8c959f";
        case EXPECTED -> "#1f6feb";
        case ACKNOWLEDGED -> "#bf8700";
        default -> "#cf222e";
      };
      s.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>%s %s</title></rect>",
          i * w, y, Math.max(0.5, w), Math.max(h, c.status() == Reconciliation.HourStatus.GAP ? height / 2 : 0.5), color,
          c.hour(), c.status().name().toLowerCase(Locale.ROOT)));
    }
    return s.append("</svg><p>blue: expected · amber: acknowledged · red: unexpected, gap or duplicate · grey: identical</p>")
        .toString();
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6f", v);
  }

  private static String cell(String text) {
    return text.contains(",") || text.contains("\"") || text.contains("\n") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
  }

  private static String esc(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
