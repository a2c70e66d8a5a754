package dev.cutover.engine.backfill;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Plans on real data, and every refusal of bad input before anything is written. */
class PlannerTest {

  private static HourlyWorld world;
  private static TableSpec spec;
  private static Planner planner;
  private static BackfillSettings settings;

  @BeforeAll
  static void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(PlannerTest.class), 3);
    spec = world.spec();
    planner = new Planner(RepairContext.of(world.sql, new dev.cutover.engine.ledger.StateStore(world.sql, world.database), spec));
    settings = BackfillSettings.from(spec.throttle());
  }

  private static dev.cutover.engine.ledger.StateStore store() {
    return new dev.cutover.engine.ledger.StateStore(world.sql, world.database);
  }

  @AfterAll
  static void close() {
    world.db.close();
  }

  private Plan plan(HourPartition from, HourPartition to, HourPartition boundary) {
    return planner.plan(Optional.ofNullable(from), Optional.ofNullable(to), Optional.ofNullable(boundary), settings, false);
  }

  @Test
  void byDefaultTheBoundaryIsTheLiveEdgeLessTheMarginAndTheRangeIsTheWholeWindow() {
    Plan plan = planner.plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, true);
    assertEquals(world.liveEdge, plan.liveEdge());
    assertEquals(world.liveEdge.plusHours(-3), plan.boundary());
    assertEquals(world.first, plan.range().from());
    assertEquals(plan.boundary(), plan.range().to());
    assertEquals(72 - 4, plan.hours().size(), "every hour before the boundary: the live edge and the three before it are the live writer's");
    assertTrue(plan.hours().stream().allMatch(h -> h.isBefore(plan.boundary())));
    assertEquals(plan.boundary(), plan.overlap().orElseThrow().from());
    assertEquals(world.liveEdge.plusHours(1), plan.overlap().orElseThrow().to());
    assertTrue(plan.estimates().sourceRows() > 0 && plan.estimates().sourceBytes() > 0);
    assertTrue(plan.estimates().sampleHour().toNanos() > 0);
    // v2 holds none of the first batch's hours: they go straight into it, without staging or a replace.
    assertTrue(plan.statements().stream().anyMatch(s -> s.startsWith("INSERT INTO `" + world.database
        + "`.`visits_v2` ")), plan.statements().toString());
    assertTrue(plan.statements().stream().noneMatch(s -> s.contains("REPLACE PARTITION")), plan.statements().toString());
    assertTrue(plan.statements().stream().anyMatch(s -> s.contains("ts >= toDateTime(" + world.first.epochSecond())));
  }

  @Test
  void hoursTheTargetAlreadyHoldsAreWrittenThroughStagingAndReplacedWhole() {
    world.sql.execute("v2", "CREATE TABLE visits_v2_held AS visits_v1");
    try {
      TableSpec held = dev.cutover.engine.spec.SpecLoader.parse(world.specYaml().replace("target: visits_v2",
          "target: visits_v2_held"), "held.yaml");
      world.sql.execute("one hour of v2", "INSERT INTO visits_v2_held SELECT * FROM visits_v1 WHERE hour = "
          + "toDateTime(?, 'UTC') LIMIT 1", world.first.epochSecond());
      Plan plan = new Planner(RepairContext.of(world.sql, store(), held)).plan(Optional.empty(), Optional.empty(), Optional.empty(),
          settings, false);
      assertTrue(plan.statements().stream().anyMatch(s -> s.startsWith("ALTER TABLE `" + world.database
          + "`.`visits_v2_held` REPLACE PARTITION ID '" + world.first.partitionId() + "' FROM")), plan.statements().toString());
    } finally {
      world.sql.execute("drop", "DROP TABLE visits_v2_held");
    }
  }

  @Test
  void aBoundaryCloserThanTheMarginIsRefused() {
    HourPartition tooClose = world.liveEdge.plusHours(-1);
    var e = assertThrows(InvalidInputException.class, () -> plan(null, null, tooClose));
    assertEquals("The boundary " + tooClose + " is 1 hour(s) behind the live edge " + world.liveEdge + ", less than "
        + "the safety margin of 3 hours; choose " + world.liveEdge.plusHours(-3) + " or earlier so the live writer "
        + "keeps every hour from the boundary on.", e.getMessage());
  }

  @Test
  void aBoundaryAheadOfTheLiveEdgeOrInTheFutureIsRefused() {
    var e = assertThrows(InvalidInputException.class, () -> plan(null, null, world.liveEdge.plusHours(1)));
    assertEquals("The boundary " + world.liveEdge.plusHours(1) + " is ahead of the live edge " + world.liveEdge
        + " (the newest hour the live writer has written); choose " + world.liveEdge.plusHours(-3) + " or earlier, at "
        + "least the safety margin of 3 hours behind it.", e.getMessage());
    var future = assertThrows(InvalidInputException.class, () -> plan(null, null, world.liveEdge.plusHours(48)));
    assertTrue(future.getMessage().startsWith("The boundary " + world.liveEdge.plusHours(48) + " is in the future"),
        future.getMessage());
  }

  @Test
  void aBoundaryNotOnTheHourIsRefusedWhenParsed() {
    var e = assertThrows(InvalidInputException.class, () -> HourPartition.parse("boundary", "2026-11-29T10:30"));
    assertEquals("The boundary 2026-11-29 10:30 is not on the hour; give a whole hour such as 2026-11-29 10:00.",
        e.getMessage());
  }

  @Test
  void aRangeEndPastTheBoundaryIsRefused() {
    HourPartition b = world.liveEdge.plusHours(-5);
    var e = assertThrows(InvalidInputException.class, () -> plan(null, b.plusHours(2), b));
    assertEquals("The range end " + b.plusHours(2) + " is after the boundary " + b + "; the backfill writes only hours "
        + "before the boundary (the live writer owns the rest). Leave the end out or give " + b + " or earlier.",
        e.getMessage());
  }

  @Test
  void aRangeStartBeforeTheReprocessingWindowNamesTheLimitingSource() {
    HourPartition early = world.first.plusHours(-24);
    var e = assertThrows(InvalidInputException.class, () -> plan(early, null, null));
    assertEquals("The range start " + early + " is before the reprocessing window, which starts at " + world.first
        + " (the sources hold data clicks from " + world.first + "); start at " + world.first + " or later, or bound "
        + "the repair to the hours the bug touched (an affected window): the other hours are carried from visits_v1 "
        + "and need no source.", e.getMessage());
  }

  @Test
  void aBoundedRepairReachesBackAsFarAsV1WhereTheSourcesNoLongerDo() {
    HourlyWorld trimmed = HourlyWorld.create(TestEngine.freshDatabase(PlannerTest.class), 3);
    try {
      // The sources' oldest day has expired; v1 still holds its hours.
      trimmed.sql.execute("expire a day of clicks", "ALTER TABLE clicks DROP PARTITION '"
          + trimmed.first.toString().substring(0, 10) + "'");
      TableSpec s = trimmed.spec();
      Planner p = new Planner(RepairContext.of(trimmed.sql, new dev.cutover.engine.ledger.StateStore(trimmed.sql, trimmed.database), s));
      BackfillSettings st = BackfillSettings.from(s.throttle());
      Plan whole = p.plan(Optional.empty(), Optional.empty(), Optional.empty(), st, false);
      HourPartition sourcesFrom = whole.range().from();
      assertTrue(trimmed.first.isBefore(sourcesFrom), "a full recompute starts where the sources do: " + sourcesFrom);

      HourRange affected = new HourRange(whole.boundary().plusHours(-6), whole.boundary());
      Plan bounded = p.plan(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(affected), st, false);
      assertEquals(trimmed.first, bounded.range().from(), "v1's oldest hour: the hours before the sources are carried");
      assertEquals(6, bounded.computed().size());
      assertEquals(bounded.range().hours() - 6, bounded.carried().size());

      HourRange expired = new HourRange(trimmed.first, trimmed.first.plusHours(2));
      var e = assertThrows(InvalidInputException.class, () -> p.plan(Optional.empty(), Optional.empty(),
          Optional.empty(), Optional.of(expired), st, false));
      assertEquals("The affected window " + expired + " starts before the reprocessing window, which starts at "
          + sourcesFrom + " (the sources hold data clicks from " + sourcesFrom + "): those hours can no longer be "
          + "recomputed. Start the affected window at " + sourcesFrom + " or later.", e.getMessage());

      HourPartition early = trimmed.first.plusHours(-5);
      var before = assertThrows(InvalidInputException.class, () -> p.plan(Optional.of(early), Optional.empty(),
          Optional.empty(), Optional.of(affected), st, false));
      assertEquals("The range start " + early + " is before the oldest hour of visits_v1, " + trimmed.first + ": a "
          + "bounded repair carries v1's hours and has nothing to carry before it; start at " + trimmed.first
          + " or later.", before.getMessage());
    } finally {
      trimmed.db.close();
    }
  }

  @Test
  void fromAfterToIsRefused() {
    var e = assertThrows(InvalidInputException.class, () -> plan(world.first.plusHours(10), world.first.plusHours(5), null));
    assertEquals("The range starts at " + world.first.plusHours(10) + " and ends at " + world.first.plusHours(5)
        + ", so it holds no hour; give a start before the end.", e.getMessage());
  }

  @Test
  void nothingIsWrittenByPlanning() {
    plan(null, null, null);
    assertEquals(0L, world.sql.queryLong("count tables", "SELECT count() FROM system.tables WHERE database = ? "
        + "AND name LIKE 'visits_v2%'", world.database));
  }

  @Test
  void unknownTablesAndColumnsAreNamedBeforeAnythingIsRead() {
    var table = assertThrows(InvalidInputException.class, () -> new Planner(RepairContext.of(world.sql, store(),
        dev.cutover.engine.spec.SpecLoader.parse(world.specYaml().replace("- table: clicks", "- name: clicks\n    table: clickz"), "s.yaml")))
        .plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, false));
    assertEquals("The spec names source table " + world.database + ".clickz, which does not exist; check "
        + "sources[0].table and database.", table.getMessage());
    var column = assertThrows(InvalidInputException.class, () -> new Planner(RepairContext.of(world.sql, store(),
        dev.cutover.engine.spec.SpecLoader.parse(world.specYaml().replace("keys: [site]", "keys: [region]"), "s.yaml")))
        .plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, false));
    assertEquals("The spec names column region, which visits_v1 does not have (it has [hour, site, clicks, users, "
        + "duration_s]); check time_column, keys and measures.", column.getMessage());
  }

  @Test
  void aTransformWithCommentsPlansAndMeasuresItsSampleHour() {
    // An apostrophe in a comment once hid the window's bound values from the JDBC driver.
    String yaml = world.specYaml().replace("transform: |\n  ", "transform: |\n  -- the site's clicks per hour "
        + "(corrected: milliseconds / 1000)\n  /* the window's start is bound, not this: ? */\n  ");
    Plan plan = new Planner(RepairContext.of(world.sql, store(), dev.cutover.engine.spec.SpecLoader.parse(yaml, "s.yaml")))
        .plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, true);
    assertTrue(plan.estimates().sampleHour().toNanos() > 0);
    assertEquals(plan.boundary(), plan.range().to());
  }

  @Test
  void theDefaultThrottleLeavesHalfTheServersThreadsToTheLiveJob() {
    var engine = new dev.cutover.engine.Engine(world.db);
    long server = world.sql.queryLong("max_threads", "SELECT getSetting('max_threads')");
    BackfillSettings adaptive = engine.plans().defaults(world.spec());
    assertEquals(2, adaptive.concurrency(), "the spec's concurrency");
    assertEquals(Math.max(1, server / 4), adaptive.maxThreads(), "half of " + server + " threads over 2 batches");
    assertTrue(adaptive.concurrency() * adaptive.maxThreads() <= Math.max(2, server / 2));

    TableSpec explicit = dev.cutover.engine.spec.SpecLoader.parse(world.specYaml().replace("  concurrency: 2\n",
        "  concurrency: 2\n  max_threads: 3\n"), "explicit.yaml");
    assertEquals(3, engine.plans().defaults(explicit).maxThreads(), "a max_threads the spec gives is kept");
  }
}
