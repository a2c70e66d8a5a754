package dev.cutover.engine.spec;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.CorrectedWriter;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.TableSpec.Allowance;
import dev.cutover.engine.api.TableSpec.Consumer;
import dev.cutover.engine.api.TableSpec.ExpectedDifference;
import dev.cutover.engine.api.TableSpec.Source;
import dev.cutover.engine.api.TableSpec.Throttle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a spec from YAML and validates every field once. Each refusal names the field, the value
 * and what is expected, for example {@code spec field 'throttle.concurrency' is 0; expected a whole
 * number from 1 to 32}. The format is documented in {@code docs/SPEC.md}.
 */
public final class SpecLoader {

  private static final Set<String> TOP = Set.of("spec", "name", "database", "tables", "time_column", "keys",
      "measures", "sources", "transform", "expected_differences", "throttle", "boundary", "reconciliation",
      "retention", "description", "allow_nondeterministic", "affected", "cluster", "live_views", "hooks");

  private SpecLoader() {}

  /**
   * Loads the spec in {@code file}: a regular file of at most 1 MiB in UTF-8 (see {@link SpecFiles}),
   * and a transform file it names under the same limits.
   */
  public static TableSpec load(Path file) {
    return parse(SpecFiles.read(file, "spec file", "spec"), file.toString());
  }

  /** Parses YAML text; {@code origin} names it in sentences (a file path or a resource). */
  public static TableSpec parse(String yaml, String origin) {
    Object root = YamlText.load(yaml, origin);
    Fields f = new Fields(origin, "", asMap(origin, "", root));
    f.allowOnly(TOP);
    int version = f.integer("spec", 1, 1, 1);
    if (version != 1) {
      throw f.error("spec", version, "1 (the only format version so far)");
    }
    Fields tables = f.child("tables");
    tables.allowOnly(Set.of("live", "target", "consumer_view", "live_view"));
    Identifier live = tables.identifier("live");
    Identifier target = tables.identifier("target");
    Identifier view = tables.identifier("consumer_view");
    if (target.equals(live)) {
      throw tables.error("target", target, "a table other than tables.live (" + live + "): the backfill never "
          + "writes the live version");
    }
    if (target.equals(view)) {
      throw tables.error("target", target, "a table other than tables.consumer_view (" + view + "): consumers "
          + "must not read history while it is rewritten");
    }
    java.util.Optional<Identifier> liveView = tables.keys().contains("live_view")
        ? java.util.Optional.of(tables.identifier("live_view")) : java.util.Optional.empty();
    if (liveView.filter(v -> v.equals(live) || v.equals(target) || v.equals(view)).isPresent()) {
      throw tables.error("live_view", liveView.get(), "a name of its own for the corrected materialized view, other "
          + "than tables.live, tables.target and tables.consumer_view");
    }
    if (view.equals(live)) {
      throw tables.error("consumer_view", view, "a view distinct from tables.live: consumers read a view that "
          + "the cutover can swap");
    }
    Identifier time = f.identifier("time_column");
    List<Identifier> keys = f.identifiers("keys");
    Map<Identifier, java.math.BigDecimal> tolerances = new LinkedHashMap<>();
    List<Identifier> measures = measures(f, tolerances);
    Set<Identifier> overlap = new LinkedHashSet<>(keys);
    overlap.retainAll(new java.util.HashSet<>(measures));
    if (!overlap.isEmpty()) {
      throw f.error("measures", overlap, "columns that are not also keys");
    }
    if (keys.contains(time) || measures.contains(time)) {
      throw f.error("keys", keys, "key columns other than the time column " + time + " (it is always part of the key)");
    }

    List<Source> sources = new ArrayList<>();
    List<Fields> sourceFields = f.list("sources");
    if (sourceFields.isEmpty()) {
      throw f.error("sources", "[]", "at least one source table");
    }
    Set<String> sourceNames = new LinkedHashSet<>();
    for (Fields s : sourceFields) {
      s.allowOnly(Set.of("name", "table", "time_column", "description"));
      Identifier table = s.identifier("table");
      String name = s.keys().contains("name") ? Identifier.simple("spec field '" + s.path("name") + "'", s.text("name")).name()
          : table.name();
      if (!sourceNames.add(name)) {
        throw s.error("name", name, "a name no other source uses");
      }
      sources.add(new Source(name, table, s.identifier("time_column")));
    }

    List<Allowance> allowed = allowances(f);
    String transformFile = f.isMapping("transform") ? f.child("transform").text("file") : null;
    String transform = new TransformCheck(origin, transformFile, transformText(f, origin), sourceNames)
        .check(allowed);

    List<ExpectedDifference> rules = ExpectedDifferences.read(f, measures);

    Fields t = f.optionalChild("throttle");
    t.allowOnly(Set.of("concurrency", "batch_hours", "max_threads", "priority", "max_memory_usage_bytes",
        "rows_per_second", "max_live_lag", "nice", "rest_percent"));
    Throttle throttle = new Throttle(
        t.integer("concurrency", 2, 1, 32),
        t.integer("batch_hours", 24, 1, 96),
        t.integer("max_threads", 0, 0, 256),
        t.integer("priority", 0, 0, 100),
        t.longInteger("max_memory_usage_bytes", 0, 0, Long.MAX_VALUE),
        t.longInteger("rows_per_second", 0, 0, Long.MAX_VALUE),
        t.duration("max_live_lag", Duration.ZERO, Duration.ofDays(7)),
        t.integer("nice", BackfillSettings.DEFAULT_NICE, 0, 19),
        t.integer("rest_percent", 0, 0, BackfillSettings.MOST_REST_PERCENT));

    Fields b = f.optionalChild("boundary");
    b.allowOnly(Set.of("safety_margin_hours"));
    Duration margin = Duration.ofHours(b.integer("safety_margin_hours", 3, 1, 168));
    Fields rc = f.optionalChild("reconciliation");
    rc.allowOnly(Set.of("minimum_overlap_hours"));
    Duration overlapMin = Duration.ofHours(rc.integer("minimum_overlap_hours", 24, 1, 24 * 90));
    Fields rt = f.optionalChild("retention");
    rt.allowOnly(Set.of("consumers", "safety_margin"));
    List<Consumer> consumers = new ArrayList<>();
    for (Fields c : rt.optionalList("consumers")) {
      c.allowOnly(Set.of("name", "cache_lifetime", "description"));
      consumers.add(new Consumer(c.text("name"), c.duration("cache_lifetime", Duration.ZERO, Duration.ofDays(365))));
    }
    Duration retentionMargin = rt.duration("safety_margin", Duration.ofHours(24), Duration.ofDays(365));

    CorrectedWriter writer = correctedWriter(f, origin, liveView, Set.of(live, target, view), sourceNames, allowed);
    String external = (f.isMapping("transform") ? "\n--- transform ---\n" + transform : "")
        + writer.views().stream().map(v -> v.select().map(s -> "\n--- " + v.name() + " ---\n" + s).orElse(""))
            .collect(java.util.stream.Collectors.joining());
    // The views per source write v2 from B: their queries determine its rows as the transform does below B.
    String determines = String.join("\n", f.text("database"), live.name(), target.name(), time.name(),
        keys.toString(), sources.toString(), transform) + writer.views().stream().flatMap(v -> v.select().stream())
        .map(s -> "\n" + s).collect(java.util.stream.Collectors.joining());
    return new TableSpec(f.text("name"), f.identifier("database"), live, target, view, time, keys, measures,
        tolerances, sources, transform, allowed, rules, throttle, margin, overlapMin, consumers, retentionMargin,
        sha256(HookFields.withoutHooks(yaml) + external), sha256(determines), affected(f), writer, HookFields.hooks(f),
        ClusterSection.read(f, live, target, view, sources));
  }

  /**
   * {@code affected: {from: 2026-06-03, to: 2026-06-05T12:00}}: the hours a bounded bug touched, whole
   * hours in UTC, the end exclusive. Whether they lie inside a repair's range is the planner's to say.
   */
  private static java.util.Optional<HourRange> affected(Fields f) {
    if (!f.keys().contains("affected")) {
      return java.util.Optional.empty();
    }
    if (!f.isMapping("affected")) {
      throw f.error("affected", "not a mapping", "a mapping {from: 2026-06-03T00:00, to: 2026-06-05T00:00} of "
          + "whole hours in UTC");
    }
    Fields a = f.child("affected");
    a.allowOnly(Set.of("from", "to"));
    HourPartition from = HourPartition.parse("spec field '" + a.path("from") + "'", a.text("from"));
    HourPartition to = HourPartition.parse("spec field '" + a.path("to") + "'", a.text("to"));
    if (!from.isBefore(to)) {
      throw a.error("to", to, "an hour after affected.from (" + from + "), since the end is exclusive");
    }
    return java.util.Optional.of(new HourRange(from, to));
  }

  /**
   * The measures: names, or mappings {@code {name: duration_s, tolerance: 0.000001}} for a
   * floating-point measure whose tolerance the spec states.
   */
  private static List<Identifier> measures(Fields f, Map<Identifier, java.math.BigDecimal> tolerances) {
    List<Identifier> out = new ArrayList<>();
    Set<Identifier> seen = new java.util.HashSet<>();
    for (Fields.Item item : f.items("measures")) {
      Identifier m;
      if (item.fields().isPresent()) {
        Fields mf = item.fields().get();
        mf.allowOnly(Set.of("name", "tolerance"));
        m = mf.identifier("name");
        if (mf.keys().contains("tolerance")) {
          tolerances.put(m, mf.tolerance("tolerance"));
        }
      } else {
        m = Identifier.simple("spec field '" + item.path() + "'", item.text());
      }
      if (!seen.add(m)) {
        throw f.error("measures", m, "each column once");
      }
      out.add(m);
    }
    return out;
  }

  /**
   * {@code allow_nondeterministic: [{function: now, reason: "..."}]}: the non-deterministic functions
   * the transform may call, each once, each with a reason.
   */
  private static List<Allowance> allowances(Fields f) {
    List<Allowance> out = new ArrayList<>();
    for (Fields a : f.optionalList("allow_nondeterministic")) {
      a.allowOnly(Set.of("function", "reason"));
      String written = a.text("function").strip().replaceFirst("\\(\\)$", "");
      String function = Determinism.canonical(written).filter(Determinism.REFUSED::contains).orElseThrow(
          () -> a.error("function", written, "one of the non-deterministic functions Cutover refuses without a "
              + "reason, such as now or rand (the list is in docs/SPEC.md)"));
      if (out.stream().anyMatch(x -> x.function().equals(function))) {
        throw a.error("function", written, "a function no other allowance names");
      }
      out.add(new Allowance(function, a.text("reason").strip()));
    }
    return out;
  }

  /**
   * The corrected live writer: {@code tables.live_view}, the transform as one view; or {@code live_views}, one view
   * per source, each {@code {name, source, select}} whose query reads its own source alone (the transform's rules
   * and placeholders, the other sources' names refused), every source with its view; or neither, a job outside the
   * database.
   */
  private static CorrectedWriter correctedWriter(Fields f, String origin, java.util.Optional<Identifier> liveView,
      Set<Identifier> tables, Set<String> sourceNames, List<Allowance> allowed) {
    List<Fields> each = f.optionalList("live_views");
    if (liveView.isPresent() && !each.isEmpty()) {
      throw f.error("live_views", "a list", "no list beside tables.live_view: give the corrected view once, as "
          + "tables.live_view when the transform reads one source, or as live_views with one view per source");
    }
    if (liveView.isPresent()) {
      return new CorrectedWriter.Views(List.of(new CorrectedWriter.View(liveView.get(), java.util.Optional.empty(),
          java.util.Optional.empty())));
    }
    if (!f.keys().contains("live_views")) {
      return new CorrectedWriter.Job();
    }
    if (each.isEmpty()) {
      throw f.error("live_views", "[]", "one view per source, each {name, source, select}; leave live_views out "
          + "when the corrected live writer is a job outside the database");
    }
    List<CorrectedWriter.View> views = new ArrayList<>();
    Set<Identifier> names = new LinkedHashSet<>();
    Set<String> covered = new LinkedHashSet<>();
    for (Fields v : each) {
      v.allowOnly(Set.of("name", "source", "select", "description"));
      Identifier name = v.identifier("name");
      if (tables.contains(name) || !names.add(name)) {
        throw v.error("name", name, "a name of its own for the corrected view, other than the spec's tables and "
            + "the other views");
      }
      String source = v.text("source");
      if (!sourceNames.contains(source)) {
        throw v.error("source", source, "one of the sources' names " + sourceNames);
      }
      if (!covered.add(source)) {
        throw v.error("source", source, "a source no other view fires on: two views on one source would write its "
            + "rows twice");
      }
      String file = v.isMapping("select") ? v.child("select").text("file") : null;
      String field = "spec." + v.path("select");
      String text = sqlText(v, "select", origin);
      String select = new TransformCheck(origin, field, file == null ? field.substring("spec.".length())
          : "the file " + file + " of " + field.substring("spec.".length()), file == null ? field : file, text,
          Set.of(source)).check(allowed);
      views.add(new CorrectedWriter.View(name, java.util.Optional.of(source), java.util.Optional.of(select)));
    }
    Set<String> missing = new LinkedHashSet<>(sourceNames);
    missing.removeAll(covered);
    if (!missing.isEmpty()) {
      throw f.error("live_views", covered, "a view for every source, " + missing + " too: inserts into a source "
          + "without a view would never reach the target from B");
    }
    return new CorrectedWriter.Views(views);
  }

  /** The transform inline, or {@code transform: {file: path}} relative to the spec file. */
  private static String transformText(Fields f, String origin) {
    return sqlText(f, "transform", origin);
  }

  /** A query inline at {@code key}, or {@code key: {file: path}} relative to the spec file. */
  private static String sqlText(Fields f, String key, String origin) {
    if (!f.isMapping(key)) {
      return f.text(key);
    }
    Fields t = f.child(key);
    t.allowOnly(Set.of("file"));
    String file = t.text("file");
    java.nio.file.Path path;
    try {
      java.nio.file.Path base = java.nio.file.Path.of(origin).toAbsolutePath().getParent();
      path = base == null ? java.nio.file.Path.of(file) : base.resolve(file);
    } catch (java.nio.file.InvalidPathException e) {
      throw t.error("file", file, "the path of an SQL file next to the spec");
    }
    return SpecFiles.read(path, key.equals("transform") ? "transform file" : "query file", "spec." + t.path("file"));
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(String origin, String path, Object value) {
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), v));
      return out;
    }
    if (path.isEmpty()) {
      // The whole document: never quoted, as a file named by mistake (a key, a password file) is one text.
      throw new InvalidInputException("spec", "The spec " + origin + " is " + (value == null ? "empty"
          : value instanceof List<?> ? "a YAML list" : "a single YAML value") + ", not a mapping of spec fields; "
          + "check that it is the spec file (see docs/SPEC.md).");
    }
    throw new InvalidInputException("spec", "In the spec " + origin + ", field '" + path + "' is "
        + Fields.describe(value) + "; expected a mapping of keys to values.");
  }
}
