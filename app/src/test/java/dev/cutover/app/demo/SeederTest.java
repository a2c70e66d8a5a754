package dev.cutover.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Statements;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.TestEngine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The seeded world on the real engine: a small scale and three days of history, ending on a Monday. */
class SeederTest {

  /** Friday noon to Monday noon: a weekend, with the Sunday maintenance window 02:00-06:00 UTC. */
  static final SeedOptions OPTIONS = new SeedOptions(7, 0.05, 3, Instant.parse("2026-11-30T12:00:00Z"));

  private static final List<Database> OPEN = new ArrayList<>();
  private static Database database;
  private static DemoWorld world;
  private static Sql sql;
  private static WorldChecks checks;
  private static SeedResult seeded;

  @BeforeAll
  static void seed() {
    database = open();
    world = DemoWorld.in(database.profile().database());
    sql = new Sql(Statements.over(database));
    checks = new WorldChecks(sql, world);
    List<String> phases = new ArrayList<>();
    seeded = new Seeder(Statements.over(database), world).seed(OPTIONS, (phase, done, total) -> {
      assertTrue(done > 0 && done <= total, phase + " " + done + "/" + total);
      if (done == total) {
        phases.add(phase);
      }
    });
    assertEquals(List.of("trades", "marks and FX rates", "pnl_v1", "incident"), phases);
  }

  @AfterAll
  static void close() {
    OPEN.forEach(Database::close);
  }

  static Database open() {
    Database db = TestEngine.freshDatabase(SeederTest.class);
    OPEN.add(db);
    return db;
  }

  @Test
  void seedsTheHistoryItWasAskedFor() {
    DemoState state = seeded.state();
    Instant start = Instant.parse("2026-11-27T12:00:00Z");
    Instant end = OPTIONS.end();
    assertTrue(seeded.created());
    assertEquals(start, state.historyStart());
    assertEquals(end, state.liveStart());
    assertEquals(end.plus(DemoState.ALLOWED_LATENESS), state.clock());
    assertEquals(end, state.watermark());
    assertTrue(state.v2From().isEmpty());

    long trades = checks.count(world.trades().sql());
    assertEquals(trades, seeded.trades());
    assertTrue(trades > 2_000, "trades: " + trades);
    assertEquals(trades, sql.queryLong("ids", "SELECT uniqExact(trade_id) FROM " + world.trades().sql()));
    assertEquals(0, checks.count(world.trades().sql() + " WHERE event_time < toDateTime(?, 'UTC') "
        + "OR event_time >= toDateTime(?, 'UTC')", start.getEpochSecond(), state.clock().getEpochSecond()));
    assertEquals(300, checks.count(world.instruments().sql()));
    assertEquals(300 * 73, checks.count(world.marks().sql()), "a mark per instrument at every hour end");
    assertEquals(6 * 73, checks.count(world.fxRates().sql()), "a fixing per currency at every hour");
    assertEquals(0, checks.count(world.pnlV2().sql()), "v2 exists and is empty");

    // The Sunday maintenance window has no trades, so its four hours have no rows in v1.
    long maintenance = Instant.parse("2026-11-29T02:00:00Z").getEpochSecond();
    assertEquals(0, checks.count(world.trades().sql() + " WHERE event_time >= toDateTime(?, 'UTC') "
        + "AND event_time < toDateTime(?, 'UTC')", maintenance, maintenance + 4 * 3600));
    assertEquals(72 - 4, seeded.v1Hours());

    // Every history hour is in the log once, written by the seed, empty ones with 0 rows.
    List<Instant> logged = checks.writes(PnlVersion.V1, Seeder.WRITER);
    assertEquals(72, logged.size());
    assertEquals(72, logged.stream().distinct().count());
    assertEquals(4, checks.count(world.writes().sql() + " WHERE writer = 'seed' AND rows = 0"));
  }

  @Test
  void v1AddsUpTheTradesOfEachHourOnceExceptTheIncidentHour() {
    Instant incident = seeded.state().incidentHour().orElseThrow();
    long end = OPTIONS.end().getEpochSecond();
    long tradesBeforeEnd = checks.count(world.trades().sql() + " WHERE event_time < toDateTime(?, 'UTC')", end);
    long incidentTrades = checks.count(world.trades().sql() + " WHERE toStartOfHour(event_time) = toDateTime(?, 'UTC')",
        incident.getEpochSecond());
    assertTrue(incidentTrades > 0);
    assertEquals(tradesBeforeEnd + incidentTrades, sql.queryLong("sum", "SELECT sum(trade_count) FROM "
        + world.pnlV1().sql()));
    assertTrue(incident.isBefore(OPTIONS.end().minus(Hours.ONE.multipliedBy(24))), "incident " + incident);
    assertEquals(List.of(incident), checks.writes(PnlVersion.V1, Seeder.RETRY_WRITER));
    assertEquals(0, sql.queryLong("keys", "SELECT count() FROM (SELECT hour, book, instrument, currency FROM "
        + world.pnlV1().sql() + " WHERE hour != toDateTime(?, 'UTC') GROUP BY ALL HAVING count() > 1)",
        incident.getEpochSecond()), "outside the incident, one row per key and hour");
  }

  @Test
  void v1DiffersFromAFreshV2ExactlyAsTheSpecSaysPlusTheIncident() {
    TableSpec spec = DemoSpec.load(world.database().name());
    TableName fresh = TableName.of(world.database(), "fresh_v2");
    checks.compute(PnlVersion.V2, fresh, seeded.state().historyStart(), OPTIONS.end());
    Instant incident = seeded.state().incidentHour().orElseThrow();

    Map<Long, Long> unexplained = checks.unexplained(database, spec, "fresh_v2", seeded.state().historyStart(), OPTIONS.end());
    long incidentRows = checks.count(fresh.sql() + " WHERE hour = toDateTime(?, 'UTC')", incident.getEpochSecond());
    assertEquals(Map.of(incident.getEpochSecond(), incidentRows), unexplained,
        "only the incident hour is unexplained, all of its keys (counted twice in v1)");

    // The rule is not vacuous: most rows really differ, by twice their fees, and fee-free rows do not.
    long differing = checks.count(world.pnlV1().sql() + " AS v1 JOIN " + fresh.sql() + " AS v2 USING (hour, book, "
        + "instrument, currency) WHERE v1.pnl_usd != v2.pnl_usd");
    assertTrue(differing > seeded.v1Rows() / 2, differing + " of " + seeded.v1Rows());
    assertEquals(0, checks.count(world.pnlV1().sql() + " AS v1 JOIN " + fresh.sql() + " AS v2 USING (hour, book, "
        + "instrument, currency) WHERE v2.fees_usd = 0 AND v1.pnl_usd != v2.pnl_usd"));
    assertTrue(checks.count(fresh.sql() + " WHERE fees_usd = 0") > 0, "internal books pay no fees");

    // In the incident hour v1 holds every row of the hour twice.
    assertEquals(0, checks.count("(SELECT book, instrument, currency, count() AS n, sum(trade_count) AS t FROM "
        + world.pnlV1().sql() + " WHERE hour = toDateTime(?, 'UTC') GROUP BY ALL) AS v1 FULL OUTER JOIN (SELECT "
        + "book, instrument, currency, trade_count FROM " + fresh.sql() + " WHERE hour = toDateTime(?, 'UTC')) AS v2 "
        + "USING (book, instrument, currency) WHERE v1.n != 2 OR v1.t != 2 * v2.trade_count",
        incident.getEpochSecond(), incident.getEpochSecond()));
  }

  @Test
  void theSameSeedMakesTheSameWorldAndAnotherSeedAnother() {
    Database twin = open();
    DemoWorld twinWorld = DemoWorld.in(twin.profile().database());
    SeedResult again = new Seeder(Statements.over(twin), twinWorld).seed(OPTIONS, SeedProgress.NONE);
    WorldChecks twinChecks = new WorldChecks(new Sql(Statements.over(twin)), twinWorld);
    assertEquals(seeded.state().incidentHour(), again.state().incidentHour());
    assertEquals(checks.checksums(world.trades(), "event_time"), twinChecks.checksums(twinWorld.trades(), "event_time"));
    assertEquals(checks.checksums(world.marks(), "mark_time"), twinChecks.checksums(twinWorld.marks(), "mark_time"));
    assertEquals(checks.checksums(world.fxRates(), "rate_time"), twinChecks.checksums(twinWorld.fxRates(), "rate_time"));
    Map<Long, Long> v1 = checks.checksums(world.pnlV1(), "hour");
    assertEquals(68, v1.size());
    assertEquals(v1, twinChecks.checksums(twinWorld.pnlV1(), "hour"));

    SeedResult other = new Seeder(Statements.over(twin), twinWorld).reset(new SeedOptions(8, 0.05, 3, OPTIONS.end()), SeedProgress.NONE);
    assertTrue(other.created());
    assertEquals(8, other.state().seed());
    Map<Long, Long> otherV1 = twinChecks.checksums(twinWorld.pnlV1(), "hour");
    assertNotEquals(v1, otherV1);
    assertFalse(v1.entrySet().stream().anyMatch(e -> e.getValue().equals(otherV1.get(e.getKey()))),
        "no hour is the same under another seed");
  }

  @Test
  void seedingASeededWorldWritesNothing() {
    long stateRows = checks.count(world.state().sql());
    long trades = checks.count(world.trades().sql());
    SeedResult again = new Seeder(Statements.over(database), world).seed(new SeedOptions(99, 2, 5, null), SeedProgress.NONE);
    assertFalse(again.created());
    assertEquals(seeded.state().seed(), again.state().seed());
    assertEquals(stateRows, checks.count(world.state().sql()));
    assertEquals(trades, checks.count(world.trades().sql()));
  }

  @Test
  void refusesADatabaseThatIsNotADemoWorld() {
    Database other = open();
    DemoWorld notDemo = DemoWorld.in(other.profile().database());
    new Sql(Statements.over(other)).execute("create a table", "CREATE TABLE " + notDemo.database().quoted() + ".orders (x UInt8) "
        + "ENGINE = Memory");
    Seeder seeder = new Seeder(Statements.over(other), notDemo);
    var refused = assertThrows(InvalidInputException.class, () -> seeder.seed(OPTIONS, SeedProgress.NONE));
    assertEquals("The database " + notDemo + " already holds tables that are not a demo world (orders); choose another "
        + "database for the demo.", refused.getMessage());
    assertThrows(InvalidInputException.class, seeder::drop);
    assertEquals(1, new Sql(Statements.over(other)).queryLong("tables", "SELECT count() FROM system.tables WHERE database = ?",
        notDemo.database().name()), "nothing was written or dropped");
  }
}
