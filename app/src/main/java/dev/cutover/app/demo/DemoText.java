package dev.cutover.app.demo;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Renders the demo's results for the command line; computes nothing. */
final class DemoText {

  private DemoText() {}

  static void seedResult(PrintWriter out, DemoWorld world, SeedResult result) {
    DemoState s = result.state();
    if (!result.created()) {
      out.printf("The demo world in %s is already seeded (seed %d, scale %s, %d days from %s); nothing was written. "
              + "Use 'cutover demo reset' to rebuild it.%n", world, s.seed(), number(s.scale()), s.historyDays(),
          Hours.readable(s.historyStart()));
    } else {
      out.printf("Seeded the demo world in %s in %s: %s trades from %s to %s (seed %d, scale %s); pnl_v1 has %s rows "
              + "in %s hours.%n", world, seconds(result.elapsed()), count(result.trades()),
          Hours.readable(s.historyStart()), Hours.readable(s.liveStart()), s.seed(), number(s.scale()),
          count(result.v1Rows()), count(result.v1Hours()));
      s.incidentHour().ifPresent(h -> out.printf("Incident: pnl_v1 holds the hour %s twice (a retried append).%n",
          Hours.readable(h)));
      if (s.bugFrom().isAfter(s.historyStart())) {
        out.printf("The fee bug shipped at %s: pnl_v1 is correct before it. Repair only the affected hours with "
            + "'cutover plan --spec demo --affected %s/<boundary>' (and the same on backfill).%n",
            Hours.readable(s.bugFrom()), Hours.iso(s.bugFrom()));
      }
    }
    out.flush();
  }

  static void status(PrintWriter out, DemoStatus status) {
    if (status.state().isEmpty()) {
      out.printf("The demo world in %s is not seeded; run 'cutover demo seed' to build it.%n", status.world());
      out.flush();
      return;
    }
    DemoState s = status.state().get();
    DemoStatus.Volumes v = status.volumes();
    out.printf("demo world %s: seed %d, scale %s, %d days of history from %s%n", status.world(), s.seed(),
        number(s.scale()), s.historyDays(), Hours.readable(s.historyStart()));
    out.printf("  trades       %13s%n", count(v.trades()));
    out.printf("  marks        %13s%n", count(v.marks()));
    out.printf("  fx_rates     %13s%n", count(v.fxRates()));
    out.printf("  pnl_v1       %13s rows in %s hours%n", count(v.v1Rows()), count(v.v1Hours()));
    out.printf("  pnl_v2       %13s rows in %s hours%n", count(v.v2Rows()), count(v.v2Hours()));
    out.printf("  pnl_alerts   %13s%n", count(v.alerts()));
    out.printf("live job: %s%n", status.writerActive() ? "running (" + s.writer() + ")" : "not running");
    out.printf("  clock        %s (simulated)%n", Hours.readable(s.clock()));
    out.printf("  watermark    %s: every hour before it is closed%n", Hours.readable(s.watermark()));
    LiveEdges edges = status.edges().orElseThrow();
    out.printf("  newest trade %s%n", edges.newestEvent().map(DemoText::readableSeconds).orElse("none"));
    out.printf("  v1 edge      %s%n", edge(edges.v1End(), edges.v1Lag()));
    out.printf("  v2 edge      %s%n", edge(edges.v2End(), edges.v2Lag()));
    out.printf("  v2 from      %s%n", s.v2From().map(b -> Hours.readable(b) + " (the live job writes v2 from here on)")
        .orElse("not deployed"));
    out.printf("incident: %s%n", s.incidentHour().map(h -> Hours.readable(h) + ": pnl_v1 holds this hour twice "
        + "(a retried append)").orElse("none"));
    out.printf("fee bug: %s%n", s.bugFrom().isAfter(s.historyStart()) ? "from " + Hours.readable(s.bugFrom())
        + " on (pnl_v1 is correct before it; --affected " + Hours.iso(s.bugFrom()) + "/<boundary>)"
        : "in the whole history");
    out.flush();
  }

  static void step(PrintWriter out, LiveStep step) {
    String written = step.written().isEmpty() ? "" : "; wrote " + step.written().stream()
        .map(w -> w.version().label() + " " + Hours.iso(w.hour()) + " (" + w.rows() + " rows)")
        .collect(Collectors.joining(", "));
    out.printf("clock %s, watermark %s%s%n", Hours.readable(step.to()), Hours.readable(step.watermark()), written);
    out.flush();
  }

  private static String edge(Optional<Instant> end, Optional<Duration> lag) {
    return end.map(e -> Hours.readable(e) + lag.map(l -> " (" + duration(l) + " behind the newest trade)").orElse(""))
        .orElse("none");
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  private static String duration(Duration d) {
    long s = Math.abs(d.toSeconds());
    String text = s >= 3600 ? (s / 3600) + "h" + String.format(Locale.ROOT, "%02dm", s % 3600 / 60)
        : s >= 60 ? (s / 60) + "m" + String.format(Locale.ROOT, "%02ds", s % 60) : s + "s";
    return d.isNegative() ? "-" + text : text;
  }

  private static String readableSeconds(Instant instant) {
    return instant.toString().replace('T', ' ').replace("Z", " UTC");
  }
}
