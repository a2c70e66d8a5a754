package dev.cutover.engine.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hours v2 never held are written into it directly, without staging: safe only if no statement of a
 * gone process is still writing them. The server keeps running an INSERT whose client died, so a run
 * first stops every backfill statement of its target still running, and only then asks which hours
 * v2 holds.
 */
class DeadWriterTest {

  private HourlyWorld world;
  private Engine engine;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(DeadWriterTest.class), 2);
    engine = new Engine(world.db);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  /**
   * An INSERT into v2 fires every materialized view that reads it; a REPLACE PARTITION fires none. With
   * a view reading v2 (an alert on the corrected numbers, say), the run writes every hour through
   * staging, and the view hears nothing of the history.
   */
  @Test
  void aViewThatReadsV2HearsNothingOfTheHistory() throws Exception {
    TableSpec spec = world.spec();
    world.sql.execute("v2", "CREATE TABLE visits_v2 AS visits_v1");
    world.sql.execute("alerts", "CREATE TABLE v2_alerts (hour DateTime('UTC'), site String) ENGINE = MergeTree ORDER BY hour");
    world.sql.execute("alerting view", "CREATE MATERIALIZED VIEW v2_alerts_mv TO v2_alerts AS SELECT hour, site FROM "
        + "visits_v2");
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    RunRecord run = Procedure.backfill(engine, plan);
    assertEquals(RunState.SUCCEEDED, run.state(), run.message());
    assertTrue(world.sql.queryLong("v2", "SELECT count() FROM visits_v2") > 0, "the history was written");
    assertEquals(0L, world.sql.queryLong("alerts", "SELECT count() FROM v2_alerts"), "and no view fired for it");
    assertEquals(world.expected(plan.range().from(), plan.range().to()),
        world.checksums("visits_v2", plan.range().from(), plan.range().to()));
  }

  @Test
  void anInsertOfAGoneProcessStillRunningIsStoppedBeforeTheResumedRunWritesAndLeavesNoRow() throws Exception {
    TableSpec spec = world.spec();
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec).withBatchHours(1).withRowsPerSecond(3000).withConcurrency(1));
    var first = Procedure.start(engine, plan);
    first.cancel();
    RunRecord cancelled = first.await();
    assertEquals(RunState.CANCELLED, cancelled.state(), cancelled.message());
    HourPartition hour = plan.hours().getLast();
    assertTrue(!new dev.cutover.engine.ledger.StateStore(world.sql, world.database).hours().ledger(cancelled.id())
        .containsKey(hour), "the last hour is still to be written");
    // The ghost of the run's killed process: its insert of the last hour, one row every 300 ms, each row its own part,
    // which the server goes on running.
    String ghostMark = BatchWriter.markerOf(spec) + cancelled.id() + " " + hour.epochSecond();
    CompletableFuture<Void> ghost;
    try (Database other = Database.open(world.db.profile())) {
      Sql ghostSql = new Sql(other.dataSource());
      ghost = CompletableFuture.runAsync(() -> {
        try {
          ghostSql.execute("ghost", "INSERT INTO visits_v2 SELECT toDateTime(?, 'UTC'), 'ghost', 1, 1, 1 FROM numbers(40) "
              + "WHERE sleepEachRow(0.3) = 0 SETTINGS max_block_size = 1, min_insert_block_size_rows = 1, log_comment = ?",
              hour.epochSecond(), ghostMark);
        } catch (RuntimeException stopped) {
          // stopped by the run, as it should be
        }
      });
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (world.sql.queryLong("ghost rows", "SELECT count() FROM visits_v2 WHERE site = 'ghost'") == 0) {
        assertTrue(System.nanoTime() < deadline, "the ghost insert wrote its first rows");
        Thread.sleep(100);
      }
      Plan resumed = engine.plans().planResume(spec, cancelled.id(), p -> p.withRowsPerSecond(0));
      RunRecord end = Procedure.backfill(engine, resumed);
      assertEquals(RunState.SUCCEEDED, end.state(), end.message());
      assertTrue(ghost.isDone(), "the run stopped the ghost before it wrote");
    }
    Thread.sleep(500);
    assertEquals(0L, world.sql.queryLong("ghost rows", "SELECT count() FROM visits_v2 WHERE site = 'ghost'"),
        "the hour the ghost wrote into was replaced whole, and the ghost wrote nothing after");
    assertEquals(world.expected(plan.range().from(), plan.range().to()),
        world.checksums("visits_v2", plan.range().from(), plan.range().to()),
        "v2 holds what an uninterrupted run writes");
  }

}
