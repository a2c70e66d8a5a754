package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.Reconciliation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * A reconciliation as a report a reviewer can read: CSV (every hour and every key the reconciliation
 * kept) or one self-contained HTML file (a chart per differing measure, the keys by hour, coverage
 * and acknowledgements).
 *
 * <p>The HTML page shows a few hundred keys of a list at most. {@link #write} writes the CSV beside
 * it, under the same name, so that the page can say "the whole list is in report.csv" and be right;
 * {@link #html(Reconciliation)} returns the page alone, which then names the command that writes the
 * CSV.
 *
 * <pre>{@code
 * ExportedReport files = ReportExport.write(r, ReportColumns.read(database, spec), Path.of("report.html"));
 * // files.html() is report.html, files.csv() is report.csv
 * }</pre>
 */
public final class ReportExport {

  private ReportExport() {}

  /** The CSV of a reconciliation alone: key columns are numbered and values print as their shortest decimals. */
  public static String csv(Reconciliation r) {
    return csv(r, ReportColumns.unknown());
  }

  /** The CSV, with the key columns named and each value printed as its measure's type prints. */
  public static String csv(Reconciliation r, ReportColumns columns) {
    return ReportCsv.of(r, columns);
  }

  /** The HTML page of a reconciliation alone; where it cuts a list, it names the command that writes the CSV. */
  public static String html(Reconciliation r) {
    return ReportPage.render(r, ReportColumns.unknown(), Optional.empty());
  }

  /**
   * Writes the HTML page to {@code htmlFile} and the CSV beside it ({@code report.html} and
   * {@code report.csv}); the CSV first, so a page never names a CSV that is not there.
   */
  public static ExportedReport write(Reconciliation r, ReportColumns columns, Path htmlFile) {
    Path csvFile = companion(htmlFile);
    try {
      Files.writeString(csvFile, csv(r, columns));
      Files.writeString(htmlFile, ReportPage.render(r, columns, Optional.of(csvFile.getFileName().toString())));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the report to " + htmlFile + ": " + e.getMessage(), e);
    }
    return new ExportedReport(htmlFile, csvFile);
  }

  /** {@code report.html} → {@code report.csv}; a name without .html or .htm gets .csv appended. */
  static Path companion(Path htmlFile) {
    String name = htmlFile.getFileName().toString();
    String lower = name.toLowerCase(Locale.ROOT);
    String base = lower.endsWith(".html") ? name.substring(0, name.length() - 5)
        : lower.endsWith(".htm") ? name.substring(0, name.length() - 4) : name;
    Path csv = htmlFile.resolveSibling(base + ".csv");
    return csv.equals(htmlFile) ? htmlFile.resolveSibling(base + ".keys.csv") : csv;
  }
}
