package dev.cutover.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.testing.TestEngine;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reconciliation report as a reviewer reads it, on a real repair of {@link FeeWorld}: a fee fix
 * that changes two decimal measures, an unexpected incident of 707 keys and an acknowledged one. The
 * page is parsed as HTML and checked for what a reviewer looks at: a chart per differing measure and
 * none for the identical ones, dated axes with round values, B and the overlap, exact decimals, lists
 * by hour with keys in their own cells, and a cut list that says where the whole list is.
 */
class ReportTest {

  private static FeeWorld world;
  private static Reconciliation report;
  private static ReportColumns columns;

  @BeforeAll
  static void repairedWorld() throws InterruptedException {
    world = FeeWorld.repaired(TestEngine.freshDatabase(ReportTest.class), 3);
    report = world.reconcile(10_000);
    columns = ReportColumns.read(world.db, world.spec);
  }

  @AfterAll
  static void close() {
    world.db.close();
  }

  private static long unexpectedInIncident() {
    return FeeWorld.BULK_BOOKS + FeeWorld.BOOKS + 1;
  }

  @Test
  void theWorldIsWhatTheReportDescribes() {
    assertEquals(Reconciliation.Verdict.RED, report.verdict());
    assertEquals(unexpectedInIncident(), report.unexpectedKeys());
    assertFalse(report.keysTruncated());
    assertEquals("Decimal(18, 4)", columns.type(dev.cutover.engine.api.Identifier.of("pnl")));
    Diff.KeyDiff alpha = report.keys().stream().filter(k -> k.key().equals(List.of("alpha"))).findFirst().orElseThrow();
    Number v1 = alpha.v1().get(dev.cutover.engine.api.Identifier.of("pnl"));
    Number v2 = alpha.v2().get(dev.cutover.engine.api.Identifier.of("pnl"));
    assertFalse(v2.doubleValue() - v1.doubleValue() == -18.56, "the binary difference is not -18.56");
  }

  @Test
  void everyDifferingMeasureIsChartedWithDatedAxesTheBoundaryAndTheOverlap(@TempDir Path dir) throws IOException {
    Document page = Jsoup.parse(ReportExport.write(report, columns, dir.resolve("report.html")).html());

    List<Element> charts = page.select("svg.chart[data-view=window]");
    assertEquals(Set.of("fees", "pnl"), charts.stream().map(c -> c.attr("data-measure")).collect(Collectors.toSet()),
        "one chart per measure that differs, none for trade_count or notional");
    assertEquals("trade_count and notional are identical in every hour and every listed key, so only fees and pnl "
        + "are charted and listed.", page.selectFirst("#identical").text());

    for (Element chart : charts) {
      String measure = chart.attr("data-measure");
      List<String> dates = chart.select("text.time-tick tspan").eachText();
      assertTrue(dates.contains(world.first.toString().substring(0, 10)) || dates.stream().anyMatch(d -> d.matches(
          "\\d{4}-\\d{2}-\\d{2}")), measure + ": the time axis carries dates: " + dates);
      assertTrue(dates.stream().anyMatch(d -> d.matches("\\d{2}:00")), measure + ": and hours: " + dates);
      for (String panel : List.of("values", "delta")) {
        List<String> ticks = chart.select("text.value-tick." + panel).eachText();
        assertTrue(ticks.size() >= 3, measure + " " + panel + ": a value axis with ticks: " + ticks);
        assertTrue(ticks.stream().allMatch(t -> t.matches("-?\\d+(\\.\\d{1,2})?[kMBT]?")),
            measure + " " + panel + ": round tick values: " + ticks);
      }
      Element b = chart.selectFirst("line.boundary");
      assertNotNull(b, measure + ": B is marked");
      assertTrue(chart.selectFirst("text.boundary-label").text().startsWith("B " + world.boundary + " UTC"),
          chart.selectFirst("text.boundary-label").text());
      Element overlap = chart.selectFirst("rect.overlap");
      assertNotNull(overlap, measure + ": the overlap is shaded");
      assertEquals(b.attr("x1"), overlap.attr("x"), "the overlap starts at B");
      assertTrue(Double.parseDouble(overlap.attr("width")) > 0);
      long overlapHours = (world.liveEdge.plusHours(1).epochSecond() - world.boundary.epochSecond()) / 3600;
      assertTrue(chart.selectFirst("text.overlap-label").text().startsWith("overlap since B (" + overlapHours
          + " hours)"), chart.selectFirst("text.overlap-label").text());
      for (String status : List.of("unexpected", "acknowledged")) {
        Element mark = chart.selectFirst("rect.mark." + status);
        assertNotNull(mark, measure + ": the " + status + " hour is marked");
        assertTrue(Double.parseDouble(mark.attr("width")) >= 3, measure + ": never thinner than 3 px");
      }
      assertFalse(chart.select("polyline.series.v1").attr("points").isBlank());
      assertFalse(chart.select("polyline.series.v2").attr("points").isBlank());
      assertFalse(chart.select("path.delta.expected").attr("d").isBlank(), "v2 − v1 bars of the expected hours");
    }
    assertTrue(page.select("script").isEmpty() && page.select("[src]").isEmpty()
        && page.select("a[href^=http]").isEmpty(), "the page is self-contained");
  }

  @Test
  void keysAreListedByHourInTheirOwnCellsWithExactDecimals(@TempDir Path dir) throws IOException {
    Document page = Jsoup.parse(ReportExport.write(report, columns, dir.resolve("report.html")).html());
    Element unexpected = page.selectFirst("section#unexpected");
    assertNotNull(unexpected);
    Element heading = unexpected.selectFirst("h3.hour");
    assertEquals(world.incident + " UTC " + unexpectedInIncident() + " unexpected keys: " + unexpectedInIncident()
        + " changed · " + KeyLists.SHOWN + " shown here", heading.text());
    Element table = unexpected.selectFirst("table.keys");
    assertEquals(List.of("book"), table.select("thead th.key").eachText(), "the key column is named and alone");
    assertEquals(List.of("fees Decimal(18, 4)", "pnl Decimal(18, 4)"), table.select("thead th.measure").eachText());
    Element alpha = table.select("tbody tr").stream().filter(tr -> tr.selectFirst("td.key").text().equals("alpha"))
        .findFirst().orElseThrow(() -> new AssertionError("alpha is listed first in its hour"));
    List<String> cells = alpha.select("td").eachText();
    assertEquals(List.of("alpha", "changed", "18.56", "18.56", "0", "1234.56", "1216", "-18.56"), cells,
        "key, kind, then v1, v2 and v2 − v1 of fees and of pnl, as ClickHouse prints them");
    assertTrue(page.select("td").eachText().stream().noneMatch(t -> t.matches("-?\\d+\\.\\d{5,}")),
        "no value prints with more digits than its Decimal(18, 4) has");

    Element acknowledged = page.selectFirst("section#acknowledged");
    assertTrue(acknowledged.selectFirst("h3.hour").text().startsWith(world.acknowledged + " UTC " + FeeWorld.BOOKS
        + " acknowledged keys: " + FeeWorld.BOOKS + " changed"), acknowledged.selectFirst("h3.hour").text());
    assertTrue(acknowledged.selectFirst("p.note").text().contains("dropped the fees of this hour"));
    assertEquals(FeeWorld.BOOKS, acknowledged.select("tbody tr").size());
  }

  @Test
  void aCutListSaysHowManyOfHowManyAndTheCsvBesideItHoldsThemAll(@TempDir Path dir) throws IOException {
    ExportedReport files = ReportExport.write(report, columns, dir.resolve("report.html"));
    assertEquals(dir.resolve("report.csv"), files.csv());
    Document page = Jsoup.parse(files.html());
    Element cut = page.selectFirst("section#unexpected p.cut");
    assertEquals("Showing " + KeyLists.SHOWN + " of " + unexpectedInIncident() + " unexpected keys; the whole list is "
        + "in report.csv.", cut.text());
    assertEquals("report.csv", cut.selectFirst("a").attr("href"));
    assertEquals(KeyLists.SHOWN, page.select("section#unexpected tbody tr").size());

    List<CSVRecord> keyRows = CSVFormat.DEFAULT.parse(new StringReader(Files.readString(files.csv()))).getRecords()
        .stream().filter(row -> row.get(0).equals("key")).toList();
    List<CSVRecord> unexpected = keyRows.stream().filter(row -> row.get(4).equals("unexpected")).toList();
    assertEquals(unexpectedInIncident(), unexpected.size(), "the CSV holds every unexpected key");
    CSVRecord header = CSVFormat.DEFAULT.parse(new StringReader(Files.readString(files.csv()))).getRecords().stream()
        .filter(row -> row.get(0).equals("section") && row.get(2).equals("key")).findFirst().orElseThrow();
    int pnlDelta = header.toList().indexOf("pnl_delta");
    int book = header.toList().indexOf("key_book");
    CSVRecord alpha = unexpected.stream().filter(row -> row.get(book).equals("alpha")).findFirst().orElseThrow();
    assertEquals("-18.56", alpha.get(pnlDelta));
    assertTrue(Files.readString(files.csv()).startsWith("section,hour,owner,status,rows_v1,rows_v2,trade_count_v1,"),
        "the CSV begins as it always did");
  }

  @Test
  void aReconciliationThatKeptFewerKeysSaysSoAndHowToListEveryOne(@TempDir Path dir) throws IOException {
    Reconciliation kept = world.reconcile(400);
    assertTrue(kept.keysTruncated());
    Document written = Jsoup.parse(ReportExport.write(kept, columns, dir.resolve("kept.html")).html());
    assertEquals("Showing " + KeyLists.SHOWN + " of " + unexpectedInIncident() + " unexpected keys; the reconciliation "
        + "kept 400 of them, all in kept.csv; a reconciliation that keeps at least "
        + String.format(java.util.Locale.ROOT, "%,d", unexpectedInIncident() + FeeWorld.BOOKS)
        + " keys, exported again, lists every one.", written.selectFirst("section#unexpected p.cut").text());
    assertTrue(written.selectFirst("section#acknowledged p.cut").text().startsWith("Showing 0 of " + FeeWorld.BOOKS
        + " acknowledged keys; the reconciliation kept none of them"), "the incident's keys filled the limit first");

    Document alone = Jsoup.parse(ReportExport.html(report));
    assertEquals("Showing " + KeyLists.SHOWN + " of " + unexpectedInIncident() + " unexpected keys; an export of this "
        + "reconciliation as CSV writes the whole list.", alone.selectFirst("section#unexpected p.cut").text());
    assertEquals(List.of("key 1"), alone.selectFirst("section#unexpected table.keys").select("thead th.key")
        .eachText(), "without the spec, key columns are numbered");
    assertTrue(alone.select("section#unexpected td.delta").eachText().contains("-18.56"),
        "without the types, decimals still print exactly");
  }
}
