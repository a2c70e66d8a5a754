package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "status", mixinStandardHelpOptions = true,
    description = "The live writers' edges and lag, and the backfill runs of a spec's target with their ledgers.")
public final class StatusCommand extends EngineCommand {

  @Option(names = "--spec", paramLabel = "FILE", required = true, description = "The spec of the table.")
  java.nio.file.Path specFile;

  @Option(names = "--run", paramLabel = "ID", description = "Show this run (default: the newest).")
  String runId;

  @Override
  int run(Session session, Engine engine) {
    SpecOptions so = new SpecOptions();
    so.spec = specFile;
    TableSpec spec = so.load(engine);
    var live = engine.live(spec);
    List<RunRecord> runs = engine.runs(spec);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("live", Render.live(live));
    List<String> lines = new ArrayList<>();
    lines.add("live edge v1 " + live.liveEdge().map(Object::toString).orElse("none") + ", v2 "
        + live.targetEdge().map(Object::toString).orElse("none") + "; newest event "
        + live.newestEvent().map(Object::toString).orElse("none") + "; live writer lag " + Render.duration(live.lag()));
    RunRecord shown = runId == null ? runs.stream().findFirst().orElse(null)
        : engine.run(runId).orElseThrow(() -> new dev.cutover.engine.api.InvalidInputException("run",
            "There is no run " + runId + "; run status without --run to list them."));
    List<Object> runList = new ArrayList<>();
    runs.forEach(r -> runList.add(Render.run(r)));
    json.put("runs", runList);
    lines.add(runs.isEmpty() ? "No backfill run has written " + spec.database() + "." + spec.targetTable() + " yet." : "Runs:");
    runs.forEach(r -> lines.add(String.format("  %-28s %-10s %s .. %s  boundary %s  by %s@%s  %s", r.id(),
        r.state().name().toLowerCase(), r.range().from(), r.range().to(), r.boundary(), r.osUser(), r.host(), r.message())));
    if (shown != null) {
      var ledger = engine.ledger(shown.id());
      long written = ledger.values().stream().filter(e -> e.state() == LedgerEntry.State.WRITTEN).count();
      long emptied = ledger.values().stream().filter(e -> e.state() == LedgerEntry.State.EMPTIED).count();
      List<String> failed = ledger.values().stream().filter(e -> !e.complete()).map(e -> e.hour().toString()).toList();
      long rows = ledger.values().stream().mapToLong(LedgerEntry::rows).sum();
      long total = shown.range().hours();
      json.put("ledger", Render.ordered("run", shown.id(), "hours", total, "written", written, "emptied", emptied,
          "failed", failed, "pending", total - ledger.size(), "rows", rows));
      lines.add("Ledger of " + shown.id() + ": " + written + " written, " + emptied + " emptied (no corrected rows), "
          + failed.size() + " failed, " + (total - ledger.size()) + " pending of " + total + " hours; " + rows + " rows");
      if (!failed.isEmpty()) {
        lines.add("  failed hours: " + String.join(", ", failed.subList(0, Math.min(10, failed.size())))
            + (failed.size() > 10 ? " …" : ""));
      }
    }
    print(json, lines);
    return ExitCodes.OK;
  }
}
