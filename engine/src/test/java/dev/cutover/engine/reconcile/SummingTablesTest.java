package dev.cutover.engine.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * v1 and v2 as a materialized view leaves them: SummingMergeTree tables holding, until their parts
 * merge, several rows per hour and key, each a partial sum. Compared by what the engine means (the
 * rows of a key summed), the repair is green: no key is counted twice and every hour differs only as
 * the rule explains. Read row by row, every key would be a duplicate.
 */
class SummingTablesTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;

  @BeforeEach
  void partialSumsInBothVersions() {
    world = HourlyWorld.create(TestEngine.freshDatabase(SummingTablesTest.class), 2);
    world.sql.execute("v1 as a view's target", "RENAME TABLE visits_v1 TO visits_plain");
    world.sql.execute("v1 summing", "CREATE TABLE visits_v1 AS visits_plain ENGINE = SummingMergeTree "
        + "PARTITION BY toStartOfHour(hour) ORDER BY (hour, site)");
    world.sql.execute("drop the plain v1", "DROP TABLE visits_plain SYNC");
    // Merges would fold the partial rows at a moment of their own: held, so that every hour stays partial.
    world.sql.execute("hold merges", "SYSTEM STOP MERGES visits_v1");
    writePartial("visits_v1", "100", world.first, world.liveEdge.plusHours(1));
    spec = world.spec();
    engine = new Engine(world.db);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  /** Two inserts per hour, users of even and of odd ids: each key's hour is two rows whose sum is the whole. */
  private void writePartial(String table, String divisor, HourPartition from, HourPartition to) {
    for (int parity = 0; parity < 2; parity++) {
      world.sql.execute("a partial write", "INSERT INTO " + table + " SELECT toStartOfHour(ts) AS hour, toString(site) "
              + "AS site, count() AS clicks, uniqExact(user_id) AS users, sum(duration_ms) / " + divisor + " AS duration_s "
              + "FROM clicks WHERE ts >= toDateTime(?, 'UTC') AND ts < toDateTime(?, 'UTC') AND user_id % 2 = ? "
              + "GROUP BY hour, site SETTINGS max_partitions_per_insert_block = 10000",
          from.epochSecond(), to.epochSecond(), parity);
    }
  }

  @Test
  void aRepairOfSummingTablesIsJudgedByTheirSumsNotTheirParts() throws Exception {
    HourPartition busy = world.busyHour(3);
    long rows = world.sql.queryLong("rows", "SELECT count() FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        busy.epochSecond());
    long keys = world.sql.queryLong("keys", "SELECT uniqExact(site) FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        busy.epochSecond());
    // One partial row per insert that had clicks of the key: two for most keys, one where a site's users of one parity
    // had no click in that hour.
    long partials = world.sql.queryLong("partial rows", "SELECT uniqExact(site, user_id % 2) FROM clicks WHERE "
        + "toStartOfHour(ts) = toDateTime(?, 'UTC')", busy.epochSecond());
    assertEquals(partials, rows, "every key of an hour is one partial row per insert");
    assertTrue(rows > keys, "keys of the hour are several partial rows");

    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(spec));
    dev.cutover.engine.api.RunRecord run = Procedure.backfill(engine, plan);
    assertEquals(dev.cutover.engine.api.RunState.SUCCEEDED, run.state(), run.message() + " "
        + engine.backfills().ledger(run.id()).values().stream().filter(e -> !e.complete()).findFirst());
    HourPartition b = plan.boundary();
    world.sql.execute("hold v2's merges", "SYSTEM STOP MERGES visits_v2");
    // The corrected view over v2 appends partial sums too.
    writePartial("visits_v2", "1000", b, world.liveEdge.plusHours(1));

    Reconciliation verdict = engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.GREEN, verdict.verdict(), verdict.coverage() + " " + verdict.counts());
    assertEquals(java.util.List.of(), verdict.coverage(), "no key counted twice, no gap");
    assertTrue(verdict.counts().values().stream().allMatch(c -> c.keySet().equals(java.util.Set.of("duration_units"))),
        "every differing key is explained by the rule: " + verdict.counts());
    assertTrue(verdict.expectedKeys() > 0);
    // Folded, each hour of both versions reads as one row per key.
    dev.cutover.engine.api.Diff.HourDiff hour = verdict.hours().stream().filter(h -> h.hour().equals(busy)).findFirst().orElseThrow();
    assertEquals(keys, hour.rowsV1());
    assertEquals(keys, hour.rowsV2());

    // Consumers of partial rows sum them per hour and key: the swap verifies the view against v2 folded so.
    world.sql.execute("a summing consumer view", "CREATE OR REPLACE VIEW visits AS SELECT hour, site, sum(clicks) AS "
        + "clicks, sum(users) AS users, sum(duration_s) AS duration_s FROM visits_v1 GROUP BY hour, site");
    engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    dev.cutover.engine.api.SwapResult swap = engine.cutovers().cutover(spec, "visits");
    assertTrue(swap.verified(), swap.verification());
    assertTrue(swap.verification().contains("folded per hour and key"), swap.verification());
  }

  /**
   * An AggregatingMergeTree holds states: a distinct count per key as a uniqExact state, sums as simple
   * aggregates. Read by their merge functions, two partial states of a key are the key's value.
   */
  @Test
  void aRepairOfAggregatingTablesIsJudgedByTheirMergedStates() throws Exception {
    world.sql.execute("drop the summing v1", "DROP TABLE visits_v1 SYNC");
    world.sql.execute("v1 of states", "CREATE TABLE visits_v1 (hour DateTime('UTC'), site String, "
        + "clicks SimpleAggregateFunction(sum, UInt64), users AggregateFunction(uniqExact, UInt32), "
        + "duration_s SimpleAggregateFunction(sum, Float64)) ENGINE = AggregatingMergeTree "
        + "PARTITION BY toStartOfHour(hour) ORDER BY (hour, site)");
    world.sql.execute("hold merges", "SYSTEM STOP MERGES visits_v1");
    for (int parity = 0; parity < 2; parity++) {
      world.sql.execute("a partial write of states", "INSERT INTO visits_v1 SELECT toStartOfHour(ts) AS hour, "
              + "toString(site) AS site, count() AS clicks, uniqExactState(user_id) AS users, sum(duration_ms) / 100 "
              + "AS duration_s FROM clicks WHERE ts >= toDateTime(?, 'UTC') AND ts < toDateTime(?, 'UTC') AND "
              + "user_id % 2 = ? GROUP BY hour, site SETTINGS max_partitions_per_insert_block = 10000",
          world.first.epochSecond(), world.liveEdge.plusHours(1).epochSecond(), parity);
    }
    TableSpec states = dev.cutover.engine.spec.SpecLoader.parse(world.specYaml().replace("uniqExact(user_id) AS users",
        "uniqExactState(user_id) AS users"), "visits.yaml");
    Plan plan = engine.plans().plan(states, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(states));
    dev.cutover.engine.api.RunRecord run = Procedure.backfill(engine, plan);
    assertEquals(dev.cutover.engine.api.RunState.SUCCEEDED, run.state(), run.message());
    world.sql.execute("hold v2's merges", "SYSTEM STOP MERGES visits_v2");
    for (int parity = 0; parity < 2; parity++) {
      world.sql.execute("the corrected view's partial states", "INSERT INTO visits_v2 SELECT toStartOfHour(ts) AS hour, "
              + "toString(site) AS site, count() AS clicks, uniqExactState(user_id) AS users, sum(duration_ms) / 1000 "
              + "AS duration_s FROM clicks WHERE ts >= toDateTime(?, 'UTC') AND ts < toDateTime(?, 'UTC') AND "
              + "user_id % 2 = ? GROUP BY hour, site", plan.boundary().epochSecond(),
          world.liveEdge.plusHours(1).epochSecond(), parity);
    }
    Reconciliation verdict = engine.reconciliations().reconcile(states, Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.GREEN, verdict.verdict(), verdict.coverage() + " " + verdict.counts());
    assertTrue(verdict.counts().values().stream().allMatch(c -> c.keySet().equals(java.util.Set.of("duration_units"))),
        "users and clicks merge to the same values in both versions: " + verdict.counts());
  }
}
