package dev.cutover.app.cli;

import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.RunRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns engine results into maps for --json, and into lines for people. */
final class Render {

  private Render() {}

  static Map<String, Object> plan(Plan p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("spec", p.spec().name());
    m.put("target", p.spec().database() + "." + p.spec().targetTable());
    m.put("from", p.range().from().toString());
    m.put("to", p.range().to().toString());
    m.put("boundary", p.boundary().toString());
    m.put("live_edge", p.liveEdge().toString());
    m.put("hours", p.hours().size());
    m.put("overlap", p.overlap().map(Object::toString).orElse(null));
    m.put("source_rows_estimate", p.estimates().sourceRows());
    m.put("source_bytes_estimate", p.estimates().sourceBytes());
    m.put("sample_hour_seconds", p.estimates().sampleHour());
    m.put("duration_estimate_seconds", p.estimates().duration());
    m.put("settings", ordered("concurrency", p.settings().concurrency(), "batch_hours", p.settings().batchHours(),
        "rows_per_second", p.settings().rowsPerSecond(), "max_live_lag_minutes", p.settings().maxLiveLag().toMinutes()));
    m.put("allowed_nondeterministic", p.spec().allowedNondeterministic().stream()
        .map(a -> ordered("function", a.function(), "reason", a.reason())).toList());
    m.put("statements", p.statements());
    return m;
  }

  static List<String> planLines(Plan p) {
    List<String> out = new ArrayList<>();
    out.add("Plan for " + p.spec().name() + ": recompute " + p.spec().database() + "." + p.spec().targetTable()
        + " from " + p.spec().liveTable() + "'s sources");
    out.add("  range      " + p.range() + ", " + p.hours().size() + " hours");
    p.affected().ifPresent(a -> out.add("  affected   " + a + ": " + p.computed().size() + " hours recomputed; "
        + p.carried().size() + " carried unchanged from " + p.spec().liveTable()
        + " by REPLACE PARTITION (no recompute)"));
    out.add("  boundary   " + p.boundary() + " UTC (live edge " + p.liveEdge() + "); the live writer owns every hour from it on");
    out.add("  overlap    " + p.overlap().map(Object::toString).orElse("none yet"));
    out.add("  sources    ~" + String.format("%,d", p.estimates().sourceRows()) + " rows, ~"
        + (p.estimates().sourceBytes() >> 20) + " MiB");
    out.add("  estimate   one hour computes in " + p.estimates().sampleHour().toMillis() + " ms; the run about "
        + duration(p.estimates().duration()) + " at concurrency " + p.settings().concurrency() + ", "
        + p.settings().batchHours() + " hours per batch");
    p.spec().allowedNondeterministic().forEach(a -> out.add("  allowed    " + a.function() + "(), non-deterministic, "
        + "allowed by the spec: " + a.reason()));
    out.add("Statements of the first batch:");
    p.statements().forEach(s -> out.add("  " + s.replaceAll("\\s+", " ").strip() + ";"));
    return out;
  }

  static Map<String, Object> preflight(PreflightReport r) {
    List<Object> checks = new ArrayList<>();
    r.checks().forEach(c -> checks.add(ordered("name", c.name(), "status", c.status().name().toLowerCase(),
        "finding", c.finding(), "fix", c.fix())));
    return ordered("passed", r.passed(), "checks", checks);
  }

  static List<String> preflightLines(PreflightReport r) {
    List<String> out = new ArrayList<>();
    for (var c : r.checks()) {
      out.add(String.format("%-5s %-20s %s", c.status(), c.name(), c.finding()));
      if (!c.fix().isEmpty()) {
        out.add(String.format("      %-20s fix: %s", "", c.fix()));
      }
    }
    out.add(r.passed() ? "Preflight passed." : "Preflight failed: " + r.failures().size() + " check(s) block the backfill.");
    return out;
  }

  static Map<String, Object> diff(Diff d) {
    List<Object> hours = new ArrayList<>();
    for (var h : d.hours()) {
      Map<String, Object> hm = new LinkedHashMap<>();
      hm.put("hour", h.hour().toString());
      hm.put("rows_v1", h.rowsV1());
      hm.put("rows_v2", h.rowsV2());
      hm.put("identical", h.identical());
      Map<String, Object> totals = new LinkedHashMap<>();
      h.totals().forEach(t -> totals.put(t.measure().name(), ordered("v1", t.v1(), "v2", t.v2(), "delta", t.delta())));
      hm.put("totals", totals);
      hours.add(hm);
    }
    List<Object> keys = new ArrayList<>();
    for (var k : d.keys()) {
      Map<String, Object> km = new LinkedHashMap<>();
      km.put("hour", k.hour().toString());
      km.put("key", k.key());
      km.put("kind", k.kind().name().toLowerCase());
      km.put("expected", k.expected());
      km.put("rule", k.rule().orElse(null));
      Map<String, Object> deltas = new LinkedHashMap<>();
      k.v1().keySet().forEach(m -> deltas.put(m.name(), k.delta(m)));
      km.put("deltas", deltas);
      keys.add(km);
    }
    return ordered("hours", hours, "keys", keys, "expected_keys", d.expectedKeys(), "unexpected_keys", d.unexpectedKeys(),
        "keys_truncated", d.keysTruncated());
  }

  static Map<String, Object> run(RunRecord r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.id());
    m.put("state", r.state().name().toLowerCase());
    m.put("message", r.message());
    m.put("target", r.target());
    m.put("from", r.range().from().toString());
    m.put("to", r.range().to().toString());
    m.put("boundary", r.boundary().toString());
    m.put("spec", r.specName());
    m.put("spec_sha256", r.specHash());
    m.put("user", r.osUser());
    m.put("host", r.host());
    m.put("created", r.created());
    m.put("heartbeat", r.heartbeat());
    m.put("parameters", r.parameters());
    return m;
  }

  static Map<String, Object> live(LiveStatus s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("live_edge", s.liveEdge().map(Object::toString).orElse(null));
    m.put("target_edge", s.targetEdge().map(Object::toString).orElse(null));
    m.put("newest_event", s.newestEvent().orElse(null));
    m.put("live_lag_seconds", s.lag());
    return m;
  }

  /** A map that keeps the order its keys are given in: key, value, key, value, … */
  static Map<String, Object> ordered(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  static String duration(Duration d) {
    long s = d.toSeconds();
    return s < 60 ? s + " s" : s < 3600 ? (s / 60) + " min " + (s % 60) + " s" : (s / 3600) + " h " + (s % 3600 / 60) + " min";
  }
}
