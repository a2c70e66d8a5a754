package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.ExportedReport;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the reconciliation report of a repaired {@link FeeWorld} (six months by default) on the real
 * embedded engine, for a look at the page as a reviewer gets it: {@code tools/report-screenshot.sh}
 * runs it and screenshots the page.
 *
 * <pre>{@code
 * java -cp ... dev.cutover.engine.reconcile.ReportSample target/report.html 183
 * }</pre>
 */
public final class ReportSample {

  private ReportSample() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: ReportSample FILE.html [DAYS]");
      System.exit(2);
    }
    Path html = Path.of(args[0]).toAbsolutePath();
    int days = args.length > 1 ? Integer.parseInt(args[1]) : 183;
    Files.createDirectories(html.getParent());
    long started = System.nanoTime();
    FeeWorld world = FeeWorld.repaired(TestEngine.freshDatabase(ReportSample.class), days);
    Reconciliation r = world.reconcile(10_000);
    ExportedReport files = ReportExport.write(r, ReportColumns.read(world.db, world.spec), html);
    System.out.printf("%d days reconciled (%s) in %d s: %s and %s%n", days, r.verdict().name().toLowerCase(
        java.util.Locale.ROOT), (System.nanoTime() - started) / 1_000_000_000, files.html(), files.csv());
    world.db.close();
    System.exit(0);
  }
}
