package dev.cutover.app.cli;

import dev.cutover.app.output.ProgressOptions;
import dev.cutover.app.output.ProgressOutput;
import dev.cutover.engine.Engine;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Safety;
import dev.cutover.engine.api.TableSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = {"Compare v1 and v2 over the whole repair (default), the overlap since B, the history before it, or "
        + "a range; store the report; exit 6 when red. Only a reconciliation of the whole repair can open the gate.",
        Safety.RECONCILE})
public final class ReconcileCommand extends EngineCommand {

  @Mixin SpecFile specFile;
  @Mixin ProgressOptions progressOptions;

  @Option(names = "--window", paramLabel = "WHICH", defaultValue = "all",
      description = "all (the whole repair), overlap (from the boundary on), history (before it) or range (--from, "
          + "--to). Default: ${DEFAULT-VALUE}.")
  String window;

  @Option(names = "--from", paramLabel = "HOUR", description = "First hour of a range, UTC (with --window range).")
  String from;

  @Option(names = "--to", paramLabel = "HOUR", description = "End of a range, exclusive, UTC (with --window range).")
  String to;

  @Option(names = "--export", arity = "2", paramLabel = "FORMAT FILE", hideParamSyntax = true,
      description = "Also write the report: csv FILE, or html FILE (with the keys in a CSV of the same name beside "
          + "it).")
  List<String> export;

  @Option(names = "--keys", paramLabel = "N", defaultValue = "10000",
      description = "Most unexpected keys to list (all are counted; default: ${DEFAULT-VALUE}).")
  int keys;

  @Override
  int run(Session session, Engine engine) throws Exception {
    TableSpec spec = specFile.loadAny(session, engine);
    // On a sharded table every shard is reconciled, read as one verdict over the cluster, as the console shows it.
    return onRepair(engine, spec, (repair, finished) -> reconcile(spec, repair.reconciliations()));
  }

  /** On one server's table, or over every shard of a sharded one: the same verdict, words, document and exit. */
  private int reconcile(TableSpec spec, dev.cutover.engine.ReconcileSteps steps) {
    Reconciliation.Scope which = switch (window.toLowerCase(Locale.ROOT)) {
      case "all", "repair" -> Reconciliation.Scope.REPAIR;
      case "overlap" -> Reconciliation.Scope.OVERLAP;
      case "history" -> Reconciliation.Scope.HISTORY;
      case "range" -> Reconciliation.Scope.RANGE;
      default -> throw new InvalidInputException("window", "--window is '" + window + "'; give all, overlap, history "
          + "or range.");
    };
    Optional<HourRange> range = Optional.empty();
    if (which == Reconciliation.Scope.RANGE) {
      if (from == null || to == null) {
        throw new InvalidInputException("window", "--window range needs --from and --to.");
      }
      range = Optional.of(new HourRange(HourPartition.parse("range start (--from)", from),
          HourPartition.parse("range end (--to)", to)));
    } else if (from != null || to != null) {
      throw new InvalidInputException("window", "--from and --to go with --window range.");
    }
    Path exportFile = null;
    String format = null;
    if (export != null) {
      format = export.get(0).toLowerCase(Locale.ROOT);
      if (!format.equals("csv") && !format.equals("html")) {
        throw new InvalidInputException("export", "--export takes csv or html before the file name, not '" + export.get(0) + "'.");
      }
      exportFile = Path.of(export.get(1));
      if (exportFile.getParent() != null && !Files.isDirectory(exportFile.getParent())) {
        throw new InvalidInputException("export", "The folder " + exportFile.getParent() + " does not exist; export into an existing folder.");
      }
    }
    Reconciliation r;
    try (ProgressOutput progress = progressOptions.open("reconcile", err())) {
      r = steps.reconcile(which, range, Math.max(1, keys), new StepProgress(progress, "Reconcile"));
    }
    Path keysFile = null;
    if (exportFile != null) {
      if (format.equals("csv")) {
        steps.exportCsv(r, exportFile);
      } else {
        // The page lists a few hundred keys of each list; the CSV beside it holds every key the reconciliation kept.
        keysFile = steps.exportHtml(r, exportFile).csv();
      }
    }
    List<Diff.KeyDiff> open = Differences.openKeys(r);
    List<String> lines = new ArrayList<>(ReconcileText.lines(r, open));
    // Measures a corrected view deduplicates per insert block: the verdict names them.
    var blockBound = steps.blockBound();
    blockBound.ifPresent(b -> lines.add(1, "  " + b.sentence()));
    if (keysFile != null) {
      lines.add("Report written to " + exportFile + ", and its keys to " + keysFile);
    } else if (exportFile != null) {
      lines.add("Report written to " + exportFile);
    }
    if (r.verdict() == Reconciliation.Verdict.RED) {
      lines.add("Accept an explained difference with ./cutover ack --spec " + specFile.path + " --hour HOUR --reason "
          + "\"…\".");
    }
    var export = exportFile == null ? null : new ReconcileDocuments.Export(format, exportFile.toString(),
        keysFile == null ? null : keysFile.toString());
    print(ReconcileDocuments.ReconcileDocument.of(r, open, export, blockBound), lines);
    return r.verdict() == Reconciliation.Verdict.RED ? ExitCodes.BLOCKED : ExitCodes.OK;
  }
}
