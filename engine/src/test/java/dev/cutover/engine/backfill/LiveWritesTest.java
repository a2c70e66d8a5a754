package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A run that yields to the live writer holds its next batch back while a statement writes v1, and only then. */
class LiveWritesTest {

  private HourlyWorld world;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(LiveWritesTest.class), 1);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void aBatchWaitsWhileTheLiveWriterWritesV1AndNotForItsOwnStatements() throws Exception {
    TableSpec spec = world.spec();
    LiveWrites writes = new LiveWrites(world.sql, spec);
    assertFalse(writes.holdBack(), "nothing writes v1");
    try (Database other = Database.open(world.db.profile())) {
      Sql live = new Sql(other.dataSource());
      // The run's own statements carry its mark and are not the live writer's.
      CompletableFuture<Void> own = slowInsert(live, "own", "log_comment = '" + BatchWriter.markerOf(spec) + "run 1'");
      waitUntilRunning("own");
      assertFalse(writes.holdBack(), "the run's own statement does not hold it back");
      own.get();
      CompletableFuture<Void> writer = slowInsert(live, "live", "log_comment = ''");
      waitUntilRunning("live");
      // The run asks every 50 ms while it holds back, as its dispatcher does.
      while (!writer.isDone()) {
        assertTrue(writes.holdBack(), "a statement writing v1 holds the next batch back");
        Thread.sleep(50);
      }
      writer.get();
      assertTrue(writes.holdBack(), "and the moment after it, for the writer's next statement");
      Thread.sleep(LiveWrites.QUIET.toMillis() + 100);
      assertFalse(writes.holdBack(), "then the batch goes");
    }
  }

  @Test
  void aStatementThatOnlyReadsV1IsNotTheLiveWriter() throws Exception {
    TableSpec spec = world.spec();
    LiveWrites writes = new LiveWrites(world.sql, spec);
    world.sql.execute("a copy", "CREATE TABLE visits_copy AS visits_v1");
    try (Database other = Database.open(world.db.profile())) {
      Sql reader = new Sql(other.dataSource());
      // As a copy of v1's parts or an export would: it names v1, and writes another table.
      CompletableFuture<Void> copy = CompletableFuture.runAsync(() -> reader.execute("copy v1 slowly", "INSERT INTO "
          + "visits_copy SELECT * FROM visits_v1 WHERE site != 'slow-copy' AND sleepEachRow(0.1) = 0 LIMIT 10 SETTINGS "
          + "max_block_size = 1, function_sleep_max_microseconds_per_block = 0"));
      waitUntilRunning("copy");
      assertFalse(writes.holdBack(), "a statement reading v1 into another table does not hold the run back");
      copy.get();
    }
  }

  @Test
  void theStatementsThatWriteV1OrATableNamedAfterItAreToldByTheirTextsBeginning() {
    String pattern = LiveWrites.writesPattern(Identifier.of("visits_v1"));
    for (String writes : List.of("INSERT INTO visits_v1 VALUES", "insert into `db`.`visits_v1` (hour) SELECT 1",
        "INSERT INTO TABLE db.visits_v1 FORMAT JSONEachRow", "/* live */ ALTER TABLE \"visits_v1\" REPLACE PARTITION 1 FROM s",
        "-- hourly\nALTER TABLE visits_v1 ON CLUSTER c DROP PARTITION 1", "INSERT INTO visits_v1(hour) VALUES",
        "INSERT INTO trading.visits_v1_live_staging SELECT 1", "ALTER TABLE `visits_v1_staging` REPLACE PARTITION 1 FROM s")) {
      assertTrue(matches(writes, pattern), writes);
    }
    for (String reads : List.of("ALTER TABLE copy ATTACH PARTITION ID '1' FROM visits_v1",
        "INSERT INTO archive SELECT * FROM visits_v1", "INSERT INTO old_visits_v1 VALUES", "ALTER TABLE v.x DELETE visits_v1",
        "INSERT INTO VISITS_V1 VALUES", "SELECT * FROM visits_v1")) {
      assertFalse(matches(reads, pattern), reads);
    }
    String odd = LiveWrites.writesPattern(Identifier.of("pnl.v1 (€)"));
    assertTrue(matches("INSERT INTO `pnl.v1 (€)` VALUES", odd), "a name with a dot, a space, brackets and a euro sign");
    assertFalse(matches("INSERT INTO `pnlXv1 (€)` VALUES", odd), "the dot is a dot");
    assertTrue(matches("INSERT INTO `pnl.v1 (€)_staging` VALUES", odd), "its staging table");
  }

  private boolean matches(String statement, String pattern) {
    return world.sql.queryLong("match", "SELECT match(?, ?)", statement, pattern) == 1;
  }

  /** A write of v1 that takes 0.8 s, its rows' site named {@code slow-<tag>}. */
  private CompletableFuture<Void> slowInsert(Sql live, String tag, String comment) {
    return CompletableFuture.runAsync(() -> live.execute("a slow write of v1", "INSERT INTO visits_v1 SELECT "
        + "toDateTime('2026-01-01 00:00:00', 'UTC'), 'slow-" + tag + "', 1, 1, 1 FROM numbers(8) WHERE "
        + "sleepEachRow(0.1) = 0 SETTINGS max_block_size = 1, " + comment));
  }

  /**
   * Until the server runs the insert tagged {@code tag}: an insert, so the question's own text, which names the
   * tag too, is not taken for it.
   */
  private void waitUntilRunning(String tag) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (world.sql.queryLong("running", "SELECT count() FROM system.processes WHERE query_kind = 'Insert' AND "
        + "position(query, ?) > 0", "'slow-" + tag + "'") == 0) {
      assertTrue(System.nanoTime() < deadline, "the slow write started");
      Thread.sleep(20);
    }
  }
}
