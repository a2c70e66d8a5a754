package dev.cutover.app.demo;

import dev.cutover.app.output.Text;
import dev.cutover.app.output.TextTable;
import dev.cutover.app.output.TextTable.Align;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Renders the demo's results for people; computes nothing. */
final class DemoText {

  private DemoText() {}

  static List<String> seedResult(DemoWorld world, SeedResult result) {
    DemoState s = result.state();
    if (!result.created()) {
      return List.of("The demo world in " + world + " is already seeded (seed " + s.seed() + ", scale "
          + number(s.scale()) + ", " + s.historyDays() + " days from " + Hours.readable(s.historyStart())
          + "); nothing was written. Use './cutover demo reset' to rebuild it.");
    }
    List<String> out = new ArrayList<>();
    out.add("Seeded the demo world in " + world + " in " + Text.duration(result.elapsed()) + ": "
        + Text.count(result.trades()) + " trades from " + Hours.readable(s.historyStart()) + " to "
        + Hours.readable(s.liveStart()) + " (seed " + s.seed() + ", scale " + number(s.scale()) + "); pnl_v1 has "
        + Text.count(result.v1Rows()) + " rows in " + Text.hours(result.v1Hours()) + ".");
    if (s.viewFed()) {
      out.add("pnl_v1 is a SummingMergeTree fed by one materialized view per source: pnl_v1_mv on trades and "
          + "pnl_v1_fees_mv on fees, which has the fee bug. Deploy the corrected views with './cutover "
          + world.shard().map(o -> "--shards " + o.count() + " ").orElse("") + "deploy-live --spec demo --confirm': "
          + "they write pnl_v2 from one boundary in the future, and the backfill writes the hours before it once that "
          + "boundary has closed.");
    }
    s.incidentHour().ifPresent(h -> out.add("Incident: pnl_v1 holds the hour " + Hours.readable(h)
        + " twice (a retried append)."));
    if (s.bugFrom().isAfter(s.historyStart())) {
      out.add("The fee bug shipped at " + Hours.readable(s.bugFrom()) + ": pnl_v1 is correct before it. Repair only "
          + "the affected hours with './cutover " + world.shard().map(o -> "--shards " + o.count() + " cluster ")
          .orElse("") + "plan --spec demo --affected " + Hours.iso(s.bugFrom())
          + "/<boundary>' (and the same on backfill).");
    }
    return out;
  }

  static List<String> status(DemoStatus status) {
    if (status.state().isEmpty()) {
      return List.of("The demo world in " + status.world() + " is not seeded; run './cutover demo seed' to build it.");
    }
    DemoState s = status.state().get();
    DemoStatus.Volumes v = status.volumes();
    List<String> out = new ArrayList<>();
    out.add("demo world " + status.world() + ": seed " + s.seed() + ", scale " + number(s.scale()) + ", "
        + s.historyDays() + " days of history from " + Hours.readable(s.historyStart()));
    TextTable volumes = new TextTable("  ", Align.LEFT, Align.RIGHT, Align.LEFT);
    volumes.row("trades", Text.count(v.trades()), "rows");
    volumes.row("marks", Text.count(v.marks()), "rows");
    volumes.row("fx_rates", Text.count(v.fxRates()), "rows");
    volumes.row("pnl_v1", Text.count(v.v1Rows()), "rows in " + Text.hours(v.v1Hours()));
    volumes.row("pnl_v2", Text.count(v.v2Rows()), "rows in " + Text.hours(v.v2Hours()));
    volumes.row("pnl_alerts", Text.count(v.alerts()), "rows");
    out.addAll(volumes.lines());
    out.add("live job: " + (status.writerActive() ? "running (" + s.writer() + ")" : "not running"));
    LiveEdges edges = status.edges().orElseThrow();
    TextTable live = new TextTable("  ", Align.LEFT, Align.LEFT);
    live.row("clock", Hours.readable(s.clock()) + " (simulated)");
    live.row("watermark", Hours.readable(s.watermark()) + ": every hour before it is closed");
    live.row("newest trade", edges.newestEvent().map(Text::time).orElse("none"));
    live.row("v1 edge", edge(edges.v1End(), edges.v1Lag()));
    live.row("v2 edge", edge(edges.v2End(), edges.v2Lag()));
    live.row("v2 from", s.v2From().map(b -> Hours.readable(b) + " (the live job writes v2 from here on)")
        .orElse("not deployed"));
    out.addAll(live.lines());
    out.add("incident: " + s.incidentHour().map(h -> Hours.readable(h) + ": pnl_v1 holds this hour twice (a retried "
        + "append)").orElse("none"));
    out.add("fee bug: " + (s.bugFrom().isAfter(s.historyStart()) ? "from " + Hours.readable(s.bugFrom())
        + " on (pnl_v1 is correct before it; --affected " + Hours.iso(s.bugFrom()) + "/<boundary>)"
        : "in the whole history"));
    return out;
  }

  static void step(PrintWriter out, LiveStep step) {
    String written = step.written().isEmpty() ? "" : "; wrote " + step.written().stream()
        .map(w -> w.version().label() + " " + Hours.readable(w.hour()) + " (" + Text.count(w.rows()) + " rows)")
        .collect(Collectors.joining(", "));
    out.printf("clock %s, watermark %s%s%n", Hours.readable(step.to()), Hours.readable(step.watermark()), written);
    out.flush();
  }

  private static String edge(Optional<Instant> end, Optional<Duration> lag) {
    return end.map(e -> Hours.readable(e) + lag.map(l -> " (" + Text.duration(l) + " behind the newest trade)")
        .orElse("")).orElse("none");
  }

  static String count(long n) {
    return Text.count(n);
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
