package dev.cutover.engine.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a view running a transform would do, read from the server's parse of it: which sources it reads (a
 * join or a subquery counts, a name in a string does not), and what in it removes duplicates, which a view
 * does per insert block only.
 */
class TransformSourcesTest {

  private static Database db;

  @BeforeAll
  static void server() {
    db = TestEngine.freshDatabase(TransformSourcesTest.class);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static TransformSources of(String transform) {
    TableSpec spec = SpecLoader.parse("""
        spec: 1
        name: visits
        database: shop
        tables:
          live: visits_v1
          target: visits_v2
          consumer_view: visits
        time_column: hour
        keys: [site]
        measures: [clicks, users]
        sources:
          - table: clicks
            time_column: ts
          - table: views
            time_column: ts
        transform: |
          %s
        """.formatted(transform.strip().replace("\n", "\n  ")), "visits.yaml");
    return new TransformSources(db.sql(), spec);
  }

  private static final String WINDOW = "ts >= {window_start:DateTime} AND ts < {window_end:DateTime}";

  @Test
  void oneSourceCountedPlainlyIsOneViewWithoutWarning() {
    TransformSources t = of("SELECT toStartOfHour(ts) AS hour, site, count() AS clicks, sum(users) AS users "
        + "FROM {clicks} WHERE " + WINDOW + " AND site != 'views DISTINCT uniqExact(x)' GROUP BY hour, site");
    assertEquals(List.of("clicks"), t.read().stream().map(s -> s.table().name()).toList());
    assertTrue(t.whyNotOneView().isEmpty());
    assertEquals(List.of(), t.deduplicating(), "words in a string remove nothing");
    assertTrue(t.blockBound().isEmpty());
  }

  @Test
  void aSecondSourceInAJoinOrASubqueryIsRead() {
    for (String second : List.of(
        "LEFT JOIN (SELECT toStartOfHour(ts) AS hour, site, count() AS users FROM {views} WHERE " + WINDOW
            + " GROUP BY hour, site) AS v USING (hour, site)",
        "WHERE site IN (SELECT site FROM {views} WHERE " + WINDOW + ")")) {
      TransformSources t = of("SELECT c.hour AS hour, c.site AS site, c.clicks AS clicks, 0 AS users FROM (SELECT "
          + "toStartOfHour(ts) AS hour, site, count() AS clicks FROM {clicks} WHERE " + WINDOW + " GROUP BY hour, "
          + "site) AS c " + second);
      assertEquals(List.of("clicks", "views"), t.read().stream().map(s -> s.table().name()).toList(), second);
      String why = t.whyNotOneView().orElseThrow();
      assertTrue(why.startsWith("The transform reads 2 sources (clicks, views), and a materialized view fires only on "
          + "inserts into the first table of its query (clicks)"), why);
    }
  }

  @Test
  void whatRemovesDuplicatesIsNamed() {
    String from = " FROM {clicks} WHERE " + WINDOW;
    assertEquals(List.of("uniqExact()"), of("SELECT toStartOfHour(ts) AS hour, site, count() AS clicks, "
        + "uniqExact(user) AS users" + from + " GROUP BY hour, site").deduplicating());
    assertEquals(List.of("countDistinct()", "argMax()"), of("SELECT toStartOfHour(ts) AS hour, site, count(DISTINCT "
        + "click_id) AS clicks, argMax(users, ts) AS users" + from + " GROUP BY hour, site").deduplicating());
    assertEquals(List.of("DISTINCT"), of("SELECT hour, site, count() AS clicks, 0 AS users FROM (SELECT DISTINCT "
        + "click_id, toStartOfHour(ts) AS hour, site" + from + ") GROUP BY hour, site").deduplicating());
    assertEquals(List.of("LIMIT … BY"), of("SELECT hour, site, count() AS clicks, 0 AS users FROM (SELECT click_id, "
        + "toStartOfHour(ts) AS hour, site" + from + " LIMIT 1 BY click_id) GROUP BY hour, site").deduplicating());
    String warning = of("SELECT toStartOfHour(ts) AS hour, site, count() AS clicks, uniq(user) AS users" + from
        + " GROUP BY hour, site").blockBound().orElseThrow();
    assertTrue(warning.startsWith("The transform removes duplicates (uniq()), and a materialized view runs it on each "
        + "insert block alone: an event inserted again in a later block, such as a retried insert, counts twice in "
        + "visits_v2 from B"), warning);
  }

  /**
   * The verdict names the measures the deduplication moves: the one whose alias sits above the function (nested
   * in another expression too), every measure for DISTINCT or LIMIT … BY, and every one when the function's value
   * reaches no measure by name.
   */
  @Test
  void theMeasuresWhatRemovesDuplicatesMovesAreNamed() {
    String from = " FROM {clicks} WHERE " + WINDOW;
    assertEquals(List.of("users"), of("SELECT toStartOfHour(ts) AS hour, site, count() AS clicks, "
        + "uniqExact(user) AS users" + from + " GROUP BY hour, site").deduplicatedMeasures());
    assertEquals(List.of("clicks"), of("SELECT toStartOfHour(ts) AS hour, site, toUInt64(count(DISTINCT click_id) "
        + "* 1) AS clicks, sum(users) AS users" + from + " GROUP BY hour, site").deduplicatedMeasures(),
        "an alias above the function names its measure");
    assertEquals(List.of("clicks", "users"), of("SELECT hour, site, count() AS clicks, 0 AS users FROM (SELECT "
        + "DISTINCT click_id, toStartOfHour(ts) AS hour, site" + from + ") GROUP BY hour, site")
        .deduplicatedMeasures(), "DISTINCT moves every measure");
    assertEquals(List.of("clicks", "users"), of("SELECT hour, site, sum(last) AS clicks, 0 AS users FROM (SELECT "
        + "toStartOfHour(ts) AS hour, site, argMax(n, ts) AS last" + from + " GROUP BY hour, site, click_id) GROUP "
        + "BY hour, site").deduplicatedMeasures(), "a value that reaches no measure by name moves any of them");
    assertEquals(List.of(), of("SELECT toStartOfHour(ts) AS hour, site, count() AS clicks, sum(users) AS users"
        + from + " GROUP BY hour, site").deduplicatedMeasures());
  }
}
