package dev.cutover.engine.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.CorrectedWriter;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.SqlText;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpecLoaderTest {

  static final String VALID = """
      spec: 1
      name: visits
      database: web
      tables:
        live: visits_v1
        target: visits_v2
        consumer_view: visits
      time_column: hour
      keys: [site]
      measures: [clicks, duration_s]
      sources:
        - table: clicks
          time_column: ts
      transform: |
        SELECT toStartOfHour(ts) AS hour, site, count() AS clicks, sum(ms) / 1000 AS duration_s
        FROM clicks WHERE ts >= {window_start:DateTime} AND ts < {window_end:DateTime} GROUP BY hour, site
      expected_differences:
        - name: units
          where: v1.duration_s != 0
          delta:
            duration_s: -0.9 * v1.duration_s
          tolerance: 0.001
          why: milliseconds were divided by 100
      throttle:
        concurrency: 3
      retention:
        consumers:
          - name: dashboards
            cache_lifetime: 12h
      """;

  private static InvalidInputException refused(String yaml) {
    return assertThrows(InvalidInputException.class, () -> SpecLoader.parse(yaml, "s.yaml"));
  }

  @Test
  void aValidSpecLoadsWithDefaultsForWhatItLeavesOut() {
    TableSpec spec = SpecLoader.parse(VALID, "s.yaml");
    assertEquals("visits", spec.name());
    assertEquals(Identifier.of("visits_v2"), spec.targetTable());
    assertEquals("`web`.`visits_v2`", spec.qualified(spec.targetTable()));
    assertEquals(3, spec.throttle().concurrency());
    assertEquals(24, spec.throttle().batchHours());
    assertEquals(Duration.ofHours(3), spec.safetyMargin());
    assertEquals(Duration.ofHours(24), spec.minimumOverlap());
    assertEquals("-0.9 * v1.duration_s", spec.expectedDifferences().getFirst().expectedDelta().get(Identifier.of("duration_s")));
    assertEquals(Duration.ofHours(12), spec.consumers().getFirst().cacheLifetime());
    assertEquals(64, spec.sha256().length());
  }

  @Test
  void theBackfillsThreadPriorityIsTheServersUnlessTheSpecLowersItAndAnOutOfRangeValueIsNamed() {
    assertEquals(0, SpecLoader.parse(VALID, "s.yaml").throttle().nice());
    TableSpec nice = SpecLoader.parse(VALID.replace("concurrency: 3", "concurrency: 3\n  nice: 19"), "s.yaml");
    assertEquals(19, nice.throttle().nice());
    assertEquals(" SETTINGS os_thread_priority = 19", dev.cutover.engine.api.BackfillSettings.from(nice.throttle())
        .settingsClause(), "the backfill's statements carry it");
    var e = refused(VALID.replace("concurrency: 3", "concurrency: 3\n  nice: 20"));
    assertEquals("In the spec s.yaml, field 'throttle.nice' is '20'; expected a whole number from 0 to 19.", e.getMessage());
  }

  @Test
  void theBackfillRestsAfterEachBatchOnlyWhenTheSpecSaysHowLong() {
    assertEquals(0, SpecLoader.parse(VALID, "s.yaml").throttle().restPercent());
    TableSpec resting = SpecLoader.parse(VALID.replace("concurrency: 3", "concurrency: 3\n  rest_percent: 150"), "s.yaml");
    var settings = dev.cutover.engine.api.BackfillSettings.from(resting.throttle());
    assertEquals(150, settings.restPercent());
    assertEquals(Duration.ofMillis(300), settings.restAfter(Duration.ofMillis(200)), "one and a half times the batch");
    var e = refused(VALID.replace("concurrency: 3", "concurrency: 3\n  rest_percent: 1001"));
    assertEquals("In the spec s.yaml, field 'throttle.rest_percent' is '1001'; expected a whole number from 0 to 1000.",
        e.getMessage());
    var flag = assertThrows(InvalidInputException.class, () -> settings.withRestPercent(-1));
    assertEquals("The rest after each batch, in percent of its length, is -1; give a whole number from 0 to 1000.",
        flag.getMessage());
  }

  @Test
  void aMissingFieldIsNamed() {
    var e = refused(VALID.replace("time_column: hour\n", ""));
    assertEquals("In the spec s.yaml, field 'time_column' is missing; expected a value (see docs/SPEC.md).", e.getMessage());
  }

  @Test
  void aWrongTypeIsNamedWithItsValue() {
    var e = refused(VALID.replace("concurrency: 3", "concurrency: three"));
    assertEquals("In the spec s.yaml, field 'throttle.concurrency' is 'three'; expected a whole number from 1 to 32.", e.getMessage());
    e = refused(VALID.replace("concurrency: 3", "concurrency: 0"));
    assertEquals("In the spec s.yaml, field 'throttle.concurrency' is '0'; expected a whole number from 1 to 32.", e.getMessage());
  }

  @Test
  void aClusterNamesTheDistributedTableOverV1V2AndEverySource() {
    String cluster = "cluster:\n  name: prod_shards\n  live: visits_v1_all\n  target: visits_v2_all\n"
        + "  sources:\n    clicks: clicks_all\n";
    TableSpec spec = SpecLoader.parse(VALID + cluster, "s.yaml");
    TableSpec.Cluster c = spec.cluster().orElseThrow();
    assertEquals("prod_shards", c.name());
    assertEquals(Identifier.of("visits_v1_all"), spec.consumerLive());
    assertEquals(Identifier.of("visits_v2_all"), spec.consumerTarget());
    assertEquals(java.util.Map.of("clicks", Identifier.of("clicks_all")), c.sources());
    assertEquals(Identifier.of("visits_v1"), SpecLoader.parse(VALID, "s.yaml").consumerLive(), "one server: the table");

    var missing = refused(VALID + cluster.replace("    clicks: clicks_all\n", "    {}\n").replace("sources:\n", "sources:"));
    assertEquals("In the spec s.yaml, field 'cluster.sources.clicks' is 'nothing'; expected the Distributed table over "
        + "the source clicks (its sharding key tells whether each shard's hours are complete from its own rows), or the "
        + "source's name in cluster.copied when every shard holds it whole.",
        missing.getMessage());
    TableSpec copied = SpecLoader.parse(VALID + cluster.replace("    clicks: clicks_all\n", "    {}\n")
        .replace("sources:\n", "sources:").concat("  copied: [clicks]\n"), "s.yaml");
    assertEquals(List.of("clicks"), copied.cluster().orElseThrow().copied());
    var same = refused(VALID + cluster.replace("target: visits_v2_all", "target: visits_v1_all"));
    assertEquals("spec.cluster.target", same.field());

    assertEquals(TableSpec.Total.NONE, c.total(), "no totals: each shard keeps its own throttle alone");
    TableSpec.Total total = SpecLoader.parse(VALID + cluster + "  throttle:\n    concurrency: 6\n"
        + "    rows_per_second: 900000\n", "s.yaml").cluster().orElseThrow().total();
    assertEquals(new TableSpec.Total(6, 900_000), total);
    var unknown = refused(VALID + cluster + "  throttle:\n    batch_hours: 6\n");
    assertEquals("spec.cluster.throttle.batch_hours", unknown.field(), unknown.getMessage());
  }

  @Test
  void anUnknownFieldIsRefusedRatherThanIgnored() {
    var e = refused(VALID.replace("keys: [site]", "keys: [site]\nmeasure: [x]"));
    assertEquals("In the spec s.yaml, field 'measure' is not a known field; expected one of [affected, "
        + "allow_nondeterministic, boundary, cluster, database, description, expected_differences, hooks, keys, "
        + "live_views, measures, name, reconciliation, retention, sources, spec, tables, throttle, time_column, "
        + "transform] (see docs/SPEC.md).",
        e.getMessage());
  }

  @Test
  void theTargetCannotBeTheLiveTableOrTheConsumerView() {
    var e = refused(VALID.replace("target: visits_v2", "target: visits_v1"));
    assertEquals("In the spec s.yaml, field 'tables.target' is 'visits_v1'; expected a table other than tables.live "
        + "(visits_v1): the backfill never writes the live version.", e.getMessage());
    e = refused(VALID.replace("target: visits_v2", "target: visits"));
    assertEquals("In the spec s.yaml, field 'tables.target' is 'visits'; expected a table other than "
        + "tables.consumer_view (visits): consumers must not read history while it is rewritten.", e.getMessage());
  }

  @Test
  void aCorrectedViewIsNamedUnderTablesAndIsNoneOfTheOthers() {
    assertEquals(new CorrectedWriter.Job(), SpecLoader.parse(VALID, "s.yaml").correctedWriter());
    String withView = VALID.replace("consumer_view: visits", "consumer_view: visits\n  live_view: visits_v2_mv");
    assertEquals(List.of(new CorrectedWriter.View(Identifier.of("visits_v2_mv"), java.util.Optional.empty(),
        java.util.Optional.empty())), SpecLoader.parse(withView, "s.yaml").correctedWriter().views());
    var e = refused(VALID.replace("consumer_view: visits", "consumer_view: visits\n  live_view: visits_v2"));
    assertEquals("In the spec s.yaml, field 'tables.live_view' is 'visits_v2'; expected a name of its own for the "
        + "corrected materialized view, other than tables.live, tables.target and tables.consumer_view.",
        e.getMessage());
  }

  /** A table fed by two sources, each through its own view: the corrected writer is one view per source. */
  static final String TWO_SOURCES = VALID.replace("""
      sources:
        - table: clicks
          time_column: ts
      """, """
      sources:
        - table: clicks
          time_column: ts
        - table: views
          time_column: ts
      live_views:
        - name: visits_v2_clicks_mv
          source: clicks
          select: |
            SELECT toStartOfHour(ts) AS hour, site, count() AS clicks, toFloat64(0) AS duration_s FROM {clicks}
            WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site
        - name: visits_v2_views_mv
          source: views
          select: |
            SELECT toStartOfHour(ts) AS hour, site, toUInt64(0) AS clicks, sum(ms) / 1000 AS duration_s FROM {views}
            WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site
      """);

  @Test
  void aCorrectedWriterOfOneViewPerSourceNamesEachViewItsSourceAndItsOwnQuery() {
    TableSpec spec = SpecLoader.parse(TWO_SOURCES, "s.yaml");
    assertEquals(List.of(Identifier.of("visits_v2_clicks_mv"), Identifier.of("visits_v2_views_mv")),
        ((CorrectedWriter.Views) spec.correctedWriter()).names());
    assertEquals(List.of("clicks", "views"), spec.correctedWriter().views().stream().map(v -> v.source().orElseThrow())
        .toList());
    assertTrue(spec.correctedWriter().views().getFirst().select().orElseThrow().contains("{window_start:DateTime}"),
        "placeholders are written as the transform's are");
    assertNotEquals(SpecLoader.parse(TWO_SOURCES.replace("count() AS clicks, toFloat64", "count() * 2 AS clicks, "
        + "toFloat64"), "s.yaml").transformSha256(), spec.transformSha256(), "a view's query determines v2's rows");

    var both = refused(TWO_SOURCES.replace("consumer_view: visits", "consumer_view: visits\n  live_view: visits_mv"));
    assertTrue(both.getMessage().contains("no list beside tables.live_view"), both.getMessage());
    var other = refused(TWO_SOURCES.replace("FROM {clicks}", "FROM {views}"));
    assertTrue(other.getMessage().contains("live_views[0].select") && other.getMessage().contains("{views}"),
        "a view's query names its own source alone: " + other.getMessage());
    var twice = refused(TWO_SOURCES.replace("source: views", "source: clicks"));
    assertTrue(twice.getMessage().contains("a source no other view fires on"), twice.getMessage());
    var missing = refused(TWO_SOURCES.replace("""
            - name: visits_v2_views_mv
              source: views
              select: |
                SELECT toStartOfHour(ts) AS hour, site, toUInt64(0) AS clicks, sum(ms) / 1000 AS duration_s FROM {views}
                WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site
            """.stripIndent().indent(2), ""));
    assertTrue(missing.getMessage().contains("a view for every source, [views] too"), missing.getMessage());
    var noWindow = refused(TWO_SOURCES.replace("WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site\n"
        + "  - name: visits_v2_views_mv", "GROUP BY hour, site\n  - name: visits_v2_views_mv"));
    assertEquals("spec.live_views[0].select", noWindow.field(), noWindow.getMessage());
  }

  @Test
  void aTableNameThatTriesSqlInjectionIsRefused() {
    var e = refused(VALID.replace("target: visits_v2", "target: \"pnl`; DROP TABLE x\""));
    assertEquals("The name 'pnl`; DROP TABLE x' in spec field 'tables.target' is not a simple name; use ASCII "
        + "letters, digits and underscores, starting with a letter or underscore.", e.getMessage());
  }

  @Test
  void theTransformMustBeOneSelectOverTheWindow() {
    var e = refused(VALID.replace("WHERE ts >= {window_start:DateTime} AND ts < {window_end:DateTime}", "WHERE 1"));
    assertEquals("In the spec s.yaml, the transform never uses {window_start} outside quotes and comments; expected a "
        + "query that filters its sources to the hour window with {window_start} and {window_end} (the engine binds "
        + "both).", e.getMessage());
    e = refused(VALID.replace("GROUP BY hour, site", "GROUP BY hour, site; DROP TABLE clicks"));
    assertEquals("spec.transform", e.field());
  }

  @Test
  void placeholdersMustNameASource() {
    var e = refused(VALID.replace("FROM clicks", "FROM {clickz}"));
    assertEquals("In the spec s.yaml, the transform names {clickz} at line 2, column 6 of the transform; expected "
        + "{window_start}, {window_end} or the name of a source [clicks] (it stands for that source's table).",
        e.getMessage());
    TableSpec spec = SpecLoader.parse(VALID.replace("FROM clicks", "FROM {clicks}"), "s.yaml");
    assertEquals(true, dev.cutover.engine.tables.Transform.bind(spec, dev.cutover.engine.api.HourPartition.parse("h",
        "2026-01-01T00:00"), dev.cutover.engine.api.HourPartition.parse("h", "2026-01-01T01:00")).sql()
        .contains("FROM `web`.`clicks` WHERE"));
  }

  @Test
  void commentsAreDroppedBeforeBindingSoAnApostropheInOneHidesNothing() {
    TableSpec spec = SpecLoader.parse(VALID.replace("transform: |\n", "transform: |\n  -- the site's clicks; a '?' here\n"
        + "  /* and 'here' */\n"), "s.yaml");
    var bound = dev.cutover.engine.tables.Transform.bind(spec, dev.cutover.engine.api.HourPartition.parse("h",
        "2026-01-01T00:00"), dev.cutover.engine.api.HourPartition.parse("h", "2026-01-01T01:00"));
    assertEquals(false, bound.sql().contains("site's"), bound.sql());
    assertEquals(2, bound.sql().chars().filter(c -> c == '?').count(), bound.sql());
    assertEquals("SELECT 'a -- b', `x--y` ", SqlText.withoutComments("SELECT 'a -- b', `x--y` -- note"));
  }

  @Test
  void aRuleMustNameAMeasure() {
    var e = refused(VALID.replace("duration_s: -0.9", "pnl: -0.9"));
    assertEquals("In the spec s.yaml, field 'expected_differences[0].delta.pnl' is 'pnl'; expected one of the "
        + "measures [clicks, duration_s].", e.getMessage());
  }

  /**
   * A tolerance of 1e308 passed the loader and failed in the reconciliation's SQL. Every tolerance,
   * a rule's or a measure's, is now a number from 0 to 1e15 with at most 18 decimal places, checked
   * when the spec loads, without a server.
   */
  @Test
  void aToleranceIsBoundedWhenTheSpecLoads() {
    String expected = "expected a number from 0 to 1000000000000000 (1e15) with at most 18 decimal places, such as "
        + "0.000001 (the reconciliation compares within it as a decimal of at most 38 digits).";
    var rule = refused(VALID.replace("tolerance: 0.001", "tolerance: 1e308"));
    assertEquals("spec.expected_differences[0].tolerance", rule.field());
    assertEquals("In the spec s.yaml, field 'expected_differences[0].tolerance' is '1.0E308'; " + expected,
        rule.getMessage());
    String measure = "measures: [clicks, {name: duration_s, tolerance: %s}]";
    var wide = refused(VALID.replace("measures: [clicks, duration_s]", measure.formatted("1000000000000001")));
    assertEquals("spec.measures[1].tolerance", wide.field());
    assertEquals("In the spec s.yaml, field 'measures[1].tolerance' is '1000000000000001'; " + expected,
        wide.getMessage());
    for (String outside : List.of("1e16", "0.0000000000000000001", "1.5e-18", "-0.001", "'0.1'", ".inf", ".nan",
        "184467440737095516150")) {
      var e = refused(VALID.replace("tolerance: 0.001", "tolerance: " + outside));
      assertEquals(true, e.getMessage().endsWith(expected), outside + ": " + e.getMessage());
      var m = refused(VALID.replace("measures: [clicks, duration_s]", measure.formatted(outside)));
      assertEquals(true, m.getMessage().endsWith(expected), outside + ": " + m.getMessage());
    }
    for (String inside : List.of("0", "1e15", "1000000000000000", "0.000000000000000001", "1.2e-17", "0.001")) {
      TableSpec spec = SpecLoader.parse(VALID.replace("tolerance: 0.001", "tolerance: " + inside), "s.yaml");
      assertEquals(0, new java.math.BigDecimal(inside).compareTo(spec.expectedDifferences().getFirst().tolerance()
          .orElseThrow()), inside);
      TableSpec measured = SpecLoader.parse(VALID.replace("measures: [clicks, duration_s]", measure.formatted(inside)),
          "s.yaml");
      assertEquals(0, new java.math.BigDecimal(inside).compareTo(measured.tolerances().get(Identifier.of("duration_s"))),
          inside);
    }
  }

  @Test
  void brokenYamlSaysWhere() {
    var e = refused("spec: 1\nname: [unclosed\n");
    assertEquals("spec", e.field());
    assertEquals(true, e.getMessage().startsWith("The spec s.yaml is not valid YAML ("), e.getMessage());
  }
}
