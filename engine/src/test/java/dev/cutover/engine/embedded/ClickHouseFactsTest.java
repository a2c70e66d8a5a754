package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cutover.engine.api.ServerVersion;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.sql.Sql;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded engine does what the procedure relies on. */
class ClickHouseFactsTest {

  private static Database db;
  private static Sql sql;

  @BeforeAll
  static void connect() {
    db = TestEngine.freshDatabase(ClickHouseFactsTest.class);
    sql = db.sql();
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void startsAndReportsAVersionOfAtLeast26_7() {
    ServerVersion version = db.server().version();
    assertTrue(version.compareTo(new ServerVersion(26, 7, 0, 0)) >= 0, "version " + version);
    assertEquals("Atomic", db.server().databaseEngine());
    assertEquals(version.toString(), value("SELECT version()"));
  }

  @Test
  void createsAnAtomicDatabase() {
    run("CREATE DATABASE IF NOT EXISTS facts_atomic ENGINE = Atomic");
    assertEquals("Atomic", value("SELECT engine FROM system.databases WHERE name = 'facts_atomic'"));
    run("DROP DATABASE facts_atomic");
  }

  @Test
  void replacePartitionMovesOneHourFromStaging() {
    createHourly("rp_target");
    createHourly("rp_staging");
    run("INSERT INTO rp_target VALUES ('2026-06-01 10:00:00', 'a', 1), ('2026-06-01 11:00:00', 'a', 2)");
    run("INSERT INTO rp_staging VALUES ('2026-06-01 10:00:00', 'a', 10), ('2026-06-01 10:00:00', 'b', 20)");

    run("ALTER TABLE rp_target REPLACE PARTITION '2026-06-01 10:00:00' FROM rp_staging");

    assertEquals(30L, sumFor("rp_target", "2026-06-01 10:00:00"), "hour 10 now holds staging's rows");
    assertEquals(2L, sumFor("rp_target", "2026-06-01 11:00:00"), "hour 11 is untouched");
    assertEquals(30L, sumFor("rp_staging", "2026-06-01 10:00:00"), "staging keeps its copy");
  }

  @Test
  void replaceFromAnEmptySourceIsRefusedUnlessAllowedAndThenEmptiesTheTarget() {
    createHourly("empty_target");
    createHourly("empty_staging");
    run("INSERT INTO empty_target VALUES ('2026-06-01 10:00:00', 'a', 1)");

    var refused = assertThrows(QueryFailedException.class, () ->
        run("ALTER TABLE empty_target REPLACE PARTITION '2026-06-01 10:00:00' FROM empty_staging"));
    assertEquals(36, refused.errorCode(), refused.getMessage());
    assertEquals(1L, sumFor("empty_target", "2026-06-01 10:00:00"), "a refused replace changes nothing");

    run("ALTER TABLE empty_target REPLACE PARTITION '2026-06-01 10:00:00' FROM empty_staging "
        + "SETTINGS allow_replace_partition_from_empty_source = 1");
    assertEquals(0L, ((Number) value("SELECT count() FROM empty_target")).longValue());
  }

  @Test
  void exchangeTablesSwapsWhatTwoViewsReturn() {
    run("CREATE TABLE ex_v1 (x UInt8) ENGINE = Memory");
    run("CREATE TABLE ex_v2 (x UInt8) ENGINE = Memory");
    run("INSERT INTO ex_v1 VALUES (1)");
    run("INSERT INTO ex_v2 VALUES (2)");
    run("CREATE VIEW ex_view AS SELECT x FROM ex_v1");
    run("CREATE VIEW ex_view__next AS SELECT x FROM ex_v2");

    run("EXCHANGE TABLES ex_view AND ex_view__next");

    assertEquals(2, ((Number) value("SELECT x FROM ex_view")).intValue());
    assertEquals(1, ((Number) value("SELECT x FROM ex_view__next")).intValue());
  }

  private static void createHourly(String name) {
    run("CREATE TABLE " + name + " (hour DateTime, key String, value UInt64) "
        + "ENGINE = MergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, key)");
  }

  private static long sumFor(String table, String hour) {
    return ((Number) value("SELECT sum(value) FROM " + table + " WHERE hour = toDateTime(?)", hour)).longValue();
  }

  private static void run(String statement) {
    sql.execute("run a statement of this test", statement);
  }

  private static Object value(String query, Object... values) {
    return sql.queryOne("read a value", query, rs -> rs.getObject(1), values);
  }
}
