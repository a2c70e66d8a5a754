package dev.cutover.engine.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.PlanSteps;
import dev.cutover.engine.Preflighted;
import dev.cutover.engine.TargetRepair;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.TestEngine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A view-fed table with two sources, as many hourly tables are: {@code visits_v1} is a SummingMergeTree fed by one
 * materialized view per source ({@code clicks} and {@code reads}), each appending partial rows; the reads view
 * doubles the read time (the bug). The corrected live writer is one view per source ({@code live_views}), deployed
 * together from one B, while both sources keep receiving inserts.
 */
class ViewsPerSourceTest {

  private Database db;
  private Sql sql;
  private String database;
  private HourPartition first;
  private HourPartition edge;

  @BeforeEach
  void world() {
    db = TestEngine.freshDatabase(ViewsPerSourceTest.class);
    sql = new Sql(db.dataSource());
    database = db.server().database();
    edge = HourPartition.containing(Instant.now()).plusHours(-1);
    first = edge.plusHours(-23);
    sql.execute("create clicks", "CREATE TABLE clicks (ts DateTime('UTC'), site LowCardinality(String), id UInt64) "
        + "ENGINE = MergeTree ORDER BY ts");
    sql.execute("create reads", "CREATE TABLE reads (ts DateTime('UTC'), site LowCardinality(String), ms UInt64) "
        + "ENGINE = MergeTree ORDER BY ts");
    sql.execute("create visits_v1", "CREATE TABLE visits_v1 (hour DateTime('UTC'), site String, clicks UInt64, "
        + "read_ms UInt64) ENGINE = SummingMergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, site)");
    sql.execute("create visits", "CREATE VIEW visits AS SELECT * FROM visits_v1");
    sql.execute("v1's view of clicks", "CREATE MATERIALIZED VIEW visits_v1_clicks_mv TO visits_v1 AS SELECT "
        + "toStartOfHour(ts) AS hour, toString(site) AS site, count() AS clicks, toUInt64(0) AS read_ms FROM clicks "
        + "GROUP BY hour, site");
    sql.execute("v1's view of reads, with the bug", "CREATE MATERIALIZED VIEW visits_v1_reads_mv TO visits_v1 AS "
        + "SELECT toStartOfHour(ts) AS hour, toString(site) AS site, toUInt64(0) AS clicks, sum(ms) * 2 AS read_ms "
        + "FROM reads GROUP BY hour, site");
    insert(first, edge.plusHours(1), 0);
  }

  @AfterEach
  void close() {
    db.close();
  }

  /** Events in every hour of {@code [from, to)} into both sources, each hour's in several insert blocks. */
  private void insert(HourPartition from, HourPartition to, int salt) {
    for (HourPartition h = from; h.isBefore(to); h = h.plusHours(1)) {
      for (int block = 0; block < 2; block++) {
        sql.execute("clicks of " + h, "INSERT INTO clicks SELECT toDateTime(?, 'UTC') + (number * 37 + ?) % 3600, "
            + "['a', 'b', 'c'][number % 3 + 1], number FROM numbers(?)", h.epochSecond(), block + salt, 20 + block);
        sql.execute("reads of " + h, "INSERT INTO reads SELECT toDateTime(?, 'UTC') + (number * 53 + ?) % 3600, "
            + "['a', 'b', 'c'][number % 2 + 1], number * 10 + 7 FROM numbers(?)", h.epochSecond(), block + salt,
            15 + block);
      }
    }
  }

  private static final String ONE_SOURCE_EACH = """
      live_views:
        - name: visits_v2_clicks_mv
          source: clicks
          select: |
            SELECT toStartOfHour(ts) AS hour, toString(site) AS site, count() AS clicks, toUInt64(0) AS read_ms
            FROM {clicks} WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site
        - name: visits_v2_reads_mv
          source: reads
          select: |
            SELECT toStartOfHour(ts) AS hour, toString(site) AS site, toUInt64(0) AS clicks, sum(ms) AS read_ms
            FROM {reads} WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site
      """;

  private TableSpec spec(String writer) {
    return SpecLoader.parse(yaml(writer), "visits.yaml");
  }

  private String yaml(String writer) {
    return """
        spec: 1
        name: visits
        database: %s
        tables:
          live: visits_v1
          target: visits_v2
          consumer_view: visits
        time_column: hour
        keys: [site]
        measures: [clicks, read_ms]
        sources:
          - table: clicks
            time_column: ts
          - table: reads
            time_column: ts
        transform: |
          SELECT hour, site, sum(clicks) AS clicks, sum(read_ms) AS read_ms FROM (
            SELECT toStartOfHour(ts) AS hour, toString(site) AS site, count() AS clicks, toUInt64(0) AS read_ms
            FROM {clicks} WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site
            UNION ALL
            SELECT toStartOfHour(ts) AS hour, toString(site) AS site, toUInt64(0) AS clicks, sum(ms) AS read_ms
            FROM {reads} WHERE ts >= {window_start} AND ts < {window_end} GROUP BY hour, site)
          GROUP BY hour, site
        %s
        expected_differences:
          - name: read-time-halved
            where: v1.read_ms != 0
            delta:
              read_ms: -0.5 * v1.read_ms
            why: v1's view of reads doubled the read time
        boundary:
          safety_margin_hours: 1
        reconciliation:
          minimum_overlap_hours: 1
        """.formatted(database, writer);
  }

  /** Each hour and site of {@code table} in {@code [from, to)}, its partial rows folded: "clicks/read_ms". */
  private Map<String, String> folded(String table, HourPartition from, HourPartition to) {
    return rows("SELECT toString(hour) || ' ' || site, toString(sum(clicks)) || '/' || toString(sum(read_ms)) FROM "
        + table + " WHERE hour >= toDateTime(?, 'UTC') AND hour < toDateTime(?, 'UTC') GROUP BY hour, site",
        from, to);
  }

  /** The corrected transform over the sources, per hour and site, as {@link #folded} shows a table. */
  private Map<String, String> corrected(HourPartition from, HourPartition to) {
    return rows("SELECT toString(hour) || ' ' || site, toString(sum(c)) || '/' || toString(sum(r)) FROM ("
        + "SELECT toStartOfHour(ts) AS hour, toString(site) AS site, count() AS c, toUInt64(0) AS r FROM clicks "
        + "GROUP BY hour, site UNION ALL SELECT toStartOfHour(ts) AS hour, toString(site) AS site, toUInt64(0) AS c, "
        + "sum(ms) AS r FROM reads GROUP BY hour, site) WHERE hour >= toDateTime(?, 'UTC') AND hour < "
        + "toDateTime(?, 'UTC') GROUP BY hour, site", from, to);
  }

  private Map<String, String> rows(String query, HourPartition from, HourPartition to) {
    Map<String, String> out = new TreeMap<>();
    sql.query("rows per hour and site", query, rs -> out.put(rs.getString(1), rs.getString(2)), from.epochSecond(),
        to.epochSecond());
    return out;
  }

  private long views(String like) {
    return sql.queryLong("views", "SELECT count() FROM system.tables WHERE database = ? AND name LIKE ?", database,
        like);
  }

  @Test
  void oneViewPerSourceWritesV2FromOneBoundaryAndTheRepairRunsToACutoverAndBack() throws Exception {
    Engine engine = new Engine(db);
    TableSpec spec = spec(ONE_SOURCE_EACH);
    try (TargetRepair repair = engine.repair(spec)) {
      // Both sources keep receiving events while the views are deployed: events of the current hour, before B.
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Throwable> failed = new ArrayList<>();
      Thread live = Thread.ofPlatform().start(() -> {
        int salt = 100;
        while (writing.get()) {
          try {
            insert(edge, edge.plusHours(1), salt++);
          } catch (RuntimeException e) {
            failed.add(e);
            return;
          }
        }
      });
      LiveDeployment planned = repair.backfills().liveDeployment();
      assertEquals(2, planned.statements().size(), planned.statement());
      assertTrue(planned.statement().contains("CREATE MATERIALIZED VIEW `" + database + "`.`visits_v2_reads_mv` TO `"
          + database + "`.`visits_v2`"), planned.statement());
      LiveDeployment deployed = repair.backfills().deployLive(Optional.empty());
      writing.set(false);
      live.join();
      assertEquals(List.of(), failed);
      assertTrue(deployed.exists(), deployed.toString());
      assertEquals(2, views("visits_v2_%_mv"), "both views, from one B");
      HourPartition b = deployed.boundary();
      assertEquals(List.of("visits_v2_clicks_mv", "visits_v2_reads_mv"), repair.plans().openRepair().orElseThrow()
          .liveViews().stream().map(v -> v.name()).toList(), "the repair records every view it deployed");

      // Events keep arriving across B: the views write v2 from B alone, the backfill the hours before it.
      insert(edge.plusHours(1), b.plusHours(3), 7);
      PlanSteps plans = repair.plans();
      Plan plan = plans.plan(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), s -> s);
      assertEquals(b, plan.boundary(), "the boundary the views pinned");
      Preflighted checked = plans.preflight(plan, List.of(), Progress.NONE);
      assertTrue(checked.passed(), checked.failures().toString());
      RunRecord ended = repair.backfills().start(checked, BackfillEvent.Listener.NONE).await();
      assertEquals(RunState.SUCCEEDED, ended.state(), ended.message());

      // v2, its partial rows folded, is the corrected transform of both sources on both sides of B: no hour counted
      // twice through the views, none missing.
      assertEquals(corrected(first, b.plusHours(3)), folded("visits_v2", first, b.plusHours(3)));
      assertEquals(corrected(b, b.plusHours(3)).size(), folded("visits_v2", b, b.plusHours(3)).size());

      Reconciliation verdict = repair.reconciliations().reconcile(Reconciliation.Scope.REPAIR, Optional.empty(),
          1000, Progress.NONE);
      assertTrue(verdict.verdict().allowsCutover(), verdict.verdict() + " " + verdict.keys());
      SwapResult cut = repair.cutovers().cutover("visits", Progress.NONE, (n, r) -> {});
      assertTrue(cut.verified(), cut.verification());
      assertEquals(Gate.Version.V2, cut.after());
      SwapResult back = repair.cutovers().rollback("visits", Optional.of("checking the reads fix"), Progress.NONE,
          (n, r) -> {});
      assertTrue(back.verified(), back.verification());
      // A rollback drops every view the repair deployed: nothing writes v2 live any more.
      assertEquals(0, views("visits_v2_%_mv"));
      var status = engine.repairs().status(spec);
      assertEquals(RepairPhase.ROLLED_BACK, status.repair().orElseThrow().phase());
      assertTrue(!status.correctedViewExists(), "status says the views are gone");
    }
  }

  @Test
  void aViewWhoseQueryReadsAnotherSourceAndOneViewOverBothSourcesAreRefusedBeforeAnythingIsCreated() {
    Engine engine = new Engine(db);
    TableSpec crossing = spec(ONE_SOURCE_EACH.replace("FROM {clicks} WHERE ts >= {window_start}",
        "FROM {clicks} WHERE site IN (SELECT site FROM reads) AND ts >= {window_start}"));
    var refused = assertThrows(InvalidInputException.class, () -> engine.repair(crossing).backfills()
        .deployLive(Optional.empty()));
    assertTrue(refused.getMessage().startsWith("The corrected view visits_v2_clicks_mv fires on inserts into clicks, "
        + "but its query reads clicks, reads"), refused.getMessage());

    TableSpec oneView = SpecLoader.parse(yaml("").replace("consumer_view: visits", "consumer_view: visits\n  "
        + "live_view: visits_v2_mv"), "visits.yaml");
    var one = assertThrows(InvalidInputException.class, () -> engine.repair(oneView).backfills()
        .deployLive(Optional.empty()));
    assertTrue(one.getMessage().startsWith("The transform reads 2 sources (clicks, reads), and a materialized view "
        + "fires only on inserts into the first table of its query (clicks)"), one.getMessage());
    assertTrue(one.getMessage().contains("live_views"), "the sentence says how to write one view per source: "
        + one.getMessage());
    assertEquals(0, views("visits_v2%"), "no view was created");
    assertEquals(Optional.empty(), engine.repairs().current(crossing), "no repair was started");
  }

  /**
   * A view that removes duplicates does so within one insert block: the verdict names the measures it moves (one
   * view's uniqExact moves clicks alone), and names none for views that remove nothing.
   */
  @Test
  void theMeasuresAViewDeduplicatesPerBlockAreNamedForTheVerdict() {
    Engine engine = new Engine(db);
    assertEquals(Optional.empty(), engine.repair(spec(ONE_SOURCE_EACH)).reconciliations().blockBound());
    TableSpec retried = spec(ONE_SOURCE_EACH.replace("count() AS clicks", "uniqExact(id) AS clicks"));
    var named = engine.repair(retried).reconciliations().blockBound().orElseThrow();
    assertEquals(List.of("clicks"), named.measures());
    assertEquals(List.of("uniqExact()"), named.by());
    assertTrue(named.sentence().startsWith("The corrected view deduplicates clicks (uniqExact()) within one insert "
        + "block only: from B, a difference in it can be an event inserted again in a later block"), named.sentence());
  }
}
