package dev.cutover.engine.reconcile;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.Reconciliation;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The HTML report: one self-contained file (styles inline, charts as inline SVG, no script) that a
 * reviewer can open anywhere, mail, or attach to a change request. This class gathers the page's
 * facts and hands them to the templates {@code report.html.mustache} and {@code chart.svg.mustache}
 * beside it; the templates escape every value, so a key or a reason cannot break the page.
 */
final class ReportPage {

  private static final String FOLDER = "/dev/cutover/engine/reconcile/";
  private static final DateTimeFormatter MADE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
      .withZone(ZoneOffset.UTC);
  private static final Template PAGE = Mustache.compiler().emptyStringIsFalse(true).withLoader(name ->
      reader(name + ".svg.mustache")).compile(reader("report.html.mustache"));

  /** What the page template shows. */
  record Page(String target, String verdict, String spec, String id, String created, String scope, String window,
      String boundarySentence, String countsSentence, String identical, List<ReportChart.Chart> charts,
      List<String> keyHeaders, List<MeasureHeader> measureHeaders, List<KeyLists.KeyList> lists,
      boolean hasAcknowledgements, List<AcknowledgementRow> acknowledgements, String coverageSentence,
      boolean hasCoverage, List<Reconciliation.CoverageIssue> coverage) {}

  /** A measure's name and ClickHouse type over its three columns in the key tables. */
  record MeasureHeader(String name, String type) {}

  /** One acknowledgement, as the table of acknowledgements shows it. */
  /** One acknowledgement the verdict judged: what it accepted, and whether that still holds. */
  record AcknowledgementRow(String hour, String key, String reason, String by, String at, String accepted,
      String standing) {}

  private ReportPage() {}

  /**
   * The page of {@code r}. {@code csv} names the CSV written beside it, which the page then points to
   * for every list it cuts; when empty, it points to the command that writes one.
   */
  static String render(Reconciliation r, ReportColumns columns, Optional<String> csv) {
    ReportMeasures measures = ReportMeasures.of(r, columns);
    KeyLists lists = new KeyLists(r, columns, measures, csv);
    KeyLists.KeyList unexpected = lists.unexpected();
    KeyLists.KeyList acknowledged = lists.acknowledged();
    List<ReportChart.Chart> charts = new ArrayList<>();
    for (Identifier m : r.window().hours() == 0 ? List.<Identifier>of() : measures.differing()) {
      charts.add(ReportChart.of(r, m, columns.type(m)));
      charts.addAll(ReportChart.aroundBoundary(r, m, columns.type(m)));
    }
    long differing = r.hours().stream().filter(h -> !h.identical()).count();
    String counts = Words.count(r.hours().size(), "hour", "hours") + " compared, " + Words.count(differing) + " "
        + (differing == 1 ? "differs" : "differ") + ": " + Words.count(r.expectedKeys(), "key", "keys")
        + " as the rules expect, " + Words.count(unexpected.total()) + " unexpectedly, "
        + Words.count(acknowledged.total()) + " acknowledged; " + Words.count(r.coverage().size(),
            "coverage problem", "coverage problems") + ".";
    Page page = new Page(r.target(), r.verdict().name().toLowerCase(Locale.ROOT), r.spec(), r.id(),
        MADE.format(r.created()), capitalized(r.scope().words()), r.window().toString(), boundary(r), counts,
        measures.identicalSentence(), charts, lists.keyHeaders(), measures.differing().stream()
            .map(m -> new MeasureHeader(m.name(), columns.type(m))).toList(),
        List.of(unexpected, acknowledged, lists.expected()), !r.acknowledged().isEmpty(),
        r.acknowledged().stream().map(a -> new AcknowledgementRow(a.hour().toString(), a.key().isEmpty()
            ? "(the whole hour)" : String.join(", ", a.key()), a.reason(), a.by(), MADE.format(a.at()),
            a.seen().map(Reconciliation.Fingerprint::describe).orElse("not recorded"),
            a.holds() ? "holds" : "lapsed: " + a.lapsed().orElse("it accepts nothing"))).toList(),
        coverage(r), !r.coverage().isEmpty(), r.coverage());
    return PAGE.execute(page);
  }

  /** Where B lies, which writer owns which hours, and the overlap since B that this window holds. */
  private static String boundary(Reconciliation r) {
    HourRange w = r.window();
    HourPartition b = r.boundary();
    String out = "The boundary B is " + b + " UTC: the backfill wrote v2's hours before it, the corrected live "
        + "writer those from it on. " + carried(r);
    HourPartition start = b.isBefore(w.from()) ? w.from() : b;
    if (!start.isBefore(w.to())) {
      return out + "This window ends at or before B, so it holds no hour of the overlap.";
    }
    long hours = (w.to().epochSecond() - start.epochSecond()) / 3600;
    return out + "The overlap since B, " + Words.count(hours, "hour", "hours") + " from " + start + " to " + w.to()
        + " UTC, holds the hours both versions wrote live; it is shaded on the charts.";
  }

  /** For a bounded repair: how many backfilled hours were recomputed and how many carried from v1. */
  private static String carried(Reconciliation r) {
    long carried = r.classes().stream().filter(c -> c.owner() == Reconciliation.Owner.CARRIED).count();
    if (carried == 0) {
      return "";
    }
    long computed = r.classes().stream().filter(c -> c.owner() == Reconciliation.Owner.BACKFILL).count();
    return "This was a bounded repair: " + Words.count(computed, "affected hour was", "affected hours were")
        + " recomputed and " + Words.count(carried, "hour was", "hours were") + " carried unchanged from v1 by "
        + "hard link, proven identical by checksum alone. ";
  }

  private static String coverage(Reconciliation r) {
    if (r.coverage().isEmpty()) {
      return "Every hour of the window is in v2 once, written by the one writer that owns it, with no key counted "
          + "twice.";
    }
    return Words.count(r.coverage().size(), "coverage problem keeps", "coverage problems keep")
        + " the verdict red until v2 is repaired:";
  }

  private static String capitalized(String words) {
    return words.isEmpty() ? words : Character.toUpperCase(words.charAt(0)) + words.substring(1);
  }

  private static Reader reader(String name) {
    InputStream in = ReportPage.class.getResourceAsStream(FOLDER + name);
    if (in == null) {
      throw new UncheckedIOException(new IOException("The report template " + name + " is missing from the "
          + "engine's jar; rebuild the engine."));
    }
    return new InputStreamReader(in, StandardCharsets.UTF_8);
  }
}
