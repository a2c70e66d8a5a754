package dev.cutover.app.cli;

import dev.cutover.app.output.Text;
import dev.cutover.app.output.TextTable;
import dev.cutover.app.output.TextTable.Align;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import java.util.ArrayList;
import java.util.List;

/** Turns engine results that several commands show into lines for people. */
final class Render {

  private Render() {}

  static List<String> planLines(Plan p) {
    List<String> out = new ArrayList<>();
    out.add("Plan for " + p.spec().name() + ": recompute " + p.spec().database() + "." + p.spec().targetTable()
        + " from " + p.spec().liveTable() + "'s sources");
    TextTable t = new TextTable("  ", Align.LEFT, Align.LEFT);
    t.row("range", Text.window(p.range()) + ", " + Text.hours(p.hours().size()));
    p.affected().ifPresent(a -> t.row("affected", Text.window(a) + ": " + Text.hours(p.computed().size())
        + " recomputed; " + Text.hours(p.carried().size()) + " carried unchanged from " + p.spec().liveTable()
        + " by hard links of its parts (no recompute)"));
    t.row("boundary", Text.hour(p.boundary()) + (p.pinned() ? ", pinned by the repair" : "") + " (live edge "
        + Text.hour(p.liveEdge()) + "); the live writer owns every hour from it on");
    t.row("overlap", p.overlap().map(Text::window).orElse("none yet"));
    t.row("sources", "~" + Text.count(p.estimates().sourceRows()) + " rows, ~"
        + Text.count(p.estimates().sourceBytes() >> 20) + " MiB");
    t.row("estimate", "one hour computes in " + Text.duration(p.estimates().sampleHour()) + "; the run about "
        + Text.duration(p.estimates().duration()) + " at concurrency " + p.settings().concurrency() + ", "
        + p.settings().batchHours() + " hours per batch");
    p.spec().allowedNondeterministic().forEach(a -> t.row("allowed", a.function() + "(), non-deterministic, "
        + "allowed by the spec: " + a.reason()));
    out.addAll(t.lines());
    out.add("Statements of the first batch:");
    p.statements().forEach(s -> out.add("  " + s.replaceAll("\\s+", " ").strip() + ";"));
    return out;
  }

  static List<String> preflightLines(PreflightReport r) {
    TextTable t = new TextTable("", Align.LEFT, Align.LEFT, Align.LEFT);
    for (var c : r.checks()) {
      t.row(c.status(), c.name(), c.finding());
      if (!c.fix().isEmpty()) {
        t.row("", "", "fix: " + c.fix());
      }
    }
    List<String> out = new ArrayList<>(t.lines());
    List<String> open = r.dependents().stream().filter(d -> !d.acknowledged()).map(d -> "--acknowledge " + d.name())
        .toList();
    if (!open.isEmpty()) {
      // The engine names the dependents; the options that acknowledge them are this command line's words.
      out.add("To acknowledge " + (open.size() == 1 ? "it" : "them") + " here, add " + String.join(" ", open)
          + " --reason \"…\" with why replaying history through " + (open.size() == 1 ? "it" : "them") + " is safe.");
    }
    r.dependents().forEach(d -> d.reason().ifPresent(reason -> out.add("Acknowledged " + d.name() + " (reads "
        + d.reads() + "): " + reason)));
    out.add(r.passed() ? "Preflight passed." : "Preflight failed: " + r.failures().size()
        + (r.failures().size() == 1 ? " check blocks" : " checks block") + " the backfill.");
    return out;
  }
}
