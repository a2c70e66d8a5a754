package dev.cutover.app.cli;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.LiveWriter;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Session;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "status", mixinStandardHelpOptions = true,
    description = {"Where the repair stands: its phase, the pinned boundary B, where the corrected live writer starts, "
        + "the window the current verdict covers, and the exact next step; then the live writers' edges and lag, and "
        + "the backfill runs of the target with the ledger of the newest (or --run).",
        "A run whose process is gone shows as interrupted."})
public final class StatusCommand extends EngineCommand {

  @Option(names = "--spec", paramLabel = "FILE",
      description = "The spec of the table, or 'demo' for the demo world's (default: $CUTOVER_SPEC).")
  java.nio.file.Path specFile;

  @Option(names = "--run", paramLabel = "ID", description = "Show this run (default: the newest).")
  String runId;

  @Override
  int run(Session session, Engine engine) {
    SpecOptions so = new SpecOptions();
    so.spec = specFile;
    TableSpec spec = so.load(engine);
    RepairStatus status = engine.status(spec);
    var live = status.live();
    List<RunRecord> runs = engine.runs(spec);
    Map<String, Object> json = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>(repairLines(status, specFile.toString()));
    json.put("repair", repair(status, specFile.toString()));
    json.put("live", Render.live(live));
    lines.add("live edge v1 " + live.liveEdge().map(Object::toString).orElse("none") + ", v2 "
        + live.targetEdge().map(Object::toString).orElse("none") + "; newest event "
        + live.newestEvent().map(Object::toString).orElse("none") + "; live writer lag " + Render.duration(live.lag()));
    RunRecord shown = runId == null ? runs.stream().findFirst().orElse(null)
        : engine.run(runId).orElseThrow(() -> new dev.cutover.engine.api.InvalidInputException("run",
            "There is no run " + runId + "; run status without --run to list them."));
    Instant now = Instant.now();
    List<Object> runList = new ArrayList<>();
    runs.forEach(r -> {
      Map<String, Object> m = Render.run(r);
      m.put("state", r.shownState(now));
      m.put("repair", r.repairId());
      runList.add(m);
    });
    json.put("runs", runList);
    lines.add(runs.isEmpty() ? "No backfill run has written " + spec.database() + "." + spec.targetTable() + " yet." : "Runs:");
    runs.forEach(r -> lines.add(String.format("  %-28s %-11s %s .. %s  boundary %s  by %s@%s  %s", r.id(),
        r.shownState(now), r.range().from(), r.range().to(), r.boundary(), r.osUser(), r.host(), r.message())));
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

  static List<String> repairLines(RepairStatus s, String spec) {
    List<String> out = new ArrayList<>();
    if (s.repair().isEmpty()) {
      out.add("Repair of " + s.target() + ": none yet; the first backfill starts one and pins its boundary.");
    } else {
      var r = s.repair().get();
      out.add("Repair " + r.id() + " of " + s.target() + ": " + r.phase().words() + " (since " + r.at() + ", by "
          + r.by().user() + "@" + r.by().host() + ")" + r.operation().map(o -> "; held by the " + o.describe())
              .orElse(""));
      out.add("  boundary B   " + r.boundary().map(b -> b + " UTC, pinned: the live writer owns every hour from it on")
          .orElse("not pinned yet"));
      out.add("  live writer  " + s.liveWriter().map(LiveWriter::describe).orElse("not observed yet"));
      out.add("  verdict      " + s.verdict().map(v -> v.verdict().name().toLowerCase() + ", reconciliation " + v.id()
          + " over " + v.window() + (v.counts() ? "" : v.underThisSpec() ? " (made before the repair's window moved: "
              + "reconcile again)" : " (made under another spec: reconcile again)")).orElse("none over the whole repair "
                  + "yet"));
    }
    out.add("  next         " + s.next().sentence());
    if (!s.next().command().isEmpty()) {
      out.add("               " + s.next().command().replace("SPEC", spec));
    }
    return out;
  }

  static Map<String, Object> repair(RepairStatus s, String spec) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("target", s.target());
    s.repair().ifPresent(r -> {
      m.put("id", r.id());
      m.put("phase", r.phase().name().toLowerCase());
      m.put("boundary", r.boundary().map(Object::toString).orElse(null));
      m.put("first_hour", r.firstHour().map(Object::toString).orElse(null));
      m.put("held_by", r.operation().map(o -> o.describe()).orElse(null));
    });
    s.liveWriter().ifPresent(w -> m.put("live_writer", Render.ordered("start", w.start().map(Object::toString)
        .orElse(null), "starts_at_boundary", w.startsAtBoundary(), "hours", w.hours(), "below_boundary",
        w.belowBoundary().stream().map(Object::toString).toList(), "backfilled_from_boundary",
        w.backfilledFromBoundary().stream().map(Object::toString).toList(), "missed_from_boundary",
        w.missedFromBoundary().stream().map(Object::toString).toList())));
    s.verdict().ifPresent(v -> m.put("verdict", Render.ordered("id", v.id(), "verdict", v.verdict().name().toLowerCase(),
        "window", v.window().toString(), "counts", v.counts())));
    m.put("next", Render.ordered("kind", s.next().kind().name().toLowerCase(), "sentence", s.next().sentence(),
        "command", s.next().command().replace("SPEC", spec), "button", s.next().button()));
    return m;
  }
}
