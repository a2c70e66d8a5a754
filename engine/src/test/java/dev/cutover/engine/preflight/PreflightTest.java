package dev.cutover.engine.preflight;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.AcknowledgedDependent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.backfill.Planner;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every preflight check passes on a sound world, and each failure is provoked for real. */
class PreflightTest {

  private HourlyWorld world;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(PreflightTest.class), 2);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private PreflightReport run(TableSpec spec, List<AcknowledgedDependent> acknowledged) {
    Plan plan = new Planner(RepairContext.of(world.sql, store(), spec)).plan(Optional.empty(), Optional.empty(), Optional.empty(),
        BackfillSettings.from(spec.throttle()), false);
    return new Preflight(RepairContext.of(world.sql, store(), spec)).run(plan, acknowledged);
  }

  private StateStore store() {
    return new StateStore(world.sql, world.database);
  }

  private static Check check(PreflightReport report, String name) {
    return report.checks().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aSoundWorldPassesEveryCheckAndSaysTheTargetWillBeCreated() {
    PreflightReport report = run(world.spec(), List.of());
    assertTrue(report.passed(), report.toString());
    assertEquals(List.of("partition key", "transform", "rules", "roles", "boundary", "live writer", "reprocessing window",
        "side effects",
        "determinism", "privileges", "disk"), report.checks().stream().map(Check::name).toList());
    assertTrue(report.checks().stream().allMatch(c -> c.status() == Status.PASS), report.toString());
    assertEquals("visits_v2 does not exist yet; the backfill creates it with the structure, partitioning "
        + "(toStartOfHour(hour)) and ordering of visits_v1, and its staging tables from it.",
        check(report, "partition key").finding());
  }

  @Test
  void aTargetPartitionedByDayFails() {
    world.sql.execute("daily target", "CREATE TABLE visits_v2 AS visits_v1 ENGINE = MergeTree PARTITION BY toDate(hour) "
        + "ORDER BY (hour, site)");
    Check c = check(run(world.spec(), List.of()), "partition key");
    assertEquals(Status.FAIL, c.status());
    assertEquals(world.database + ".visits_v2 is partitioned by toDate(hour), not by toStartOfHour(hour), so an hour "
        + "cannot be replaced on its own.", c.finding());
  }

  /** A summing table merges by its sorting key: ordered by less than the hour and the keys, it folds two keys. */
  @Test
  void aSummingTargetOrderedByLessThanTheHourAndTheKeysFails() {
    world.sql.execute("summing target", "CREATE TABLE visits_v2 AS visits_v1 ENGINE = SummingMergeTree "
        + "PARTITION BY toStartOfHour(hour) ORDER BY hour");
    Check c = check(run(world.spec(), List.of()), "partition key");
    assertEquals(Status.FAIL, c.status());
    assertEquals(world.database + ".visits_v2 is a SummingMergeTree ordered by (hour): it merges the rows of one "
        + "sorting key, while Cutover compares one row per hour and key (hour, site), so the two would not agree on "
        + "what a row is.", c.finding());
    world.sql.execute("drop", "DROP TABLE visits_v2 SYNC");
    world.sql.execute("summing target by hour and site", "CREATE TABLE visits_v2 AS visits_v1 ENGINE = "
        + "SummingMergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, site)");
    assertEquals(Status.PASS, check(run(world.spec(), List.of()), "partition key").status());
  }

  @Test
  void aTransformMissingAColumnFails() {
    TableSpec spec = SpecLoader.parse(world.specYaml().replace("uniqExact(user_id) AS users, ", ""), "s.yaml");
    Check c = check(run(spec, List.of()), "transform");
    assertEquals(Status.FAIL, c.status());
    assertTrue(c.finding().endsWith("but visits_v1 needs [users] as well."), c.finding());
  }

  @Test
  void aMissingConsumerViewAndAViewAlreadyReadingTheTargetFail() {
    world.sql.execute("drop view", "DROP VIEW visits");
    Check missing = check(run(world.spec(), List.of()), "roles");
    assertEquals(Status.FAIL, missing.status());
    assertEquals("The consumer view " + world.database + ".visits does not exist.", missing.finding());

    world.sql.execute("target", "CREATE TABLE visits_v2 AS visits_v1");
    world.sql.execute("view over the target", "CREATE VIEW visits AS SELECT * FROM visits_v2");
    Check reading = check(run(world.spec(), List.of()), "roles");
    assertEquals(Status.FAIL, reading.status());
    assertTrue(reading.finding().startsWith("Consumers already read visits_v2 through visits"), reading.finding());
  }

  @Test
  void aSourceTtlShorterThanTheRangeFails() {
    world.sql.execute("ttl", "ALTER TABLE clicks MODIFY TTL ts + INTERVAL 1 DAY SETTINGS materialize_ttl_after_modify = 0");
    Check c = check(run(world.spec(), List.of()), "reprocessing window");
    assertEquals(Status.FAIL, c.status(), c.toString());
    assertTrue(c.finding().startsWith("Source clicks keeps rows for 1 days (TTL on ts): the hour " + world.first), c.finding());
    assertTrue(c.fix().contains("bound the repair to them (an affected window"), c.fix());
  }

  @Test
  void aRangeThatLeavesOutV1sOldestHoursWarnsThatConsumersWouldLoseThem() {
    TableSpec spec = world.spec();
    HourPartition from = world.first.plusHours(5);
    Plan late = new Planner(RepairContext.of(world.sql, store(), spec)).plan(Optional.of(from), Optional.empty(), Optional.empty(),
        BackfillSettings.from(spec.throttle()), false);
    PreflightReport report = new Preflight(RepairContext.of(world.sql, store(), spec)).run(late, List.of());
    Check c = check(report, "reprocessing window");
    assertEquals(Status.WARN, c.status(), c.toString());
    assertEquals("Every source holds the range " + late.range() + ", but visits_v1 holds hours from " + world.first
        + ", 5 hours before the range: visits_v2 will not hold them, so consumers no longer see them once they read "
        + "visits_v2 (the cutover gate stays closed while they remain).", c.finding());
    assertTrue(c.fix().startsWith("Start the range at " + world.first + ";"), c.fix());
    assertTrue(report.passed(), "a warning, not a refusal: " + report);
  }

  @Test
  void aBoundedRepairNeedsItsSourcesOnlyForTheAffectedHoursAndSamplesOneOfThem() {
    // Sources kept for a day, two days of history: only a repair bounded to recent hours can read what it recomputes.
    world.sql.execute("ttl", "ALTER TABLE clicks MODIFY TTL ts + INTERVAL 1 DAY SETTINGS materialize_ttl_after_modify = 0");
    TableSpec spec = world.spec();
    Planner planner = new Planner(RepairContext.of(world.sql, store(), spec));
    HourPartition b = planner.plan(Optional.empty(), Optional.empty(), Optional.empty(),
        BackfillSettings.from(spec.throttle()), false).boundary();
    HourRange affected = new HourRange(b.plusHours(-6), b);
    Plan bounded = planner.plan(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(affected),
        BackfillSettings.from(spec.throttle()), false);
    assertEquals(world.first, bounded.range().from(), "the repair still spans the whole history");
    PreflightReport report = new Preflight(RepairContext.of(world.sql, store(), spec)).run(bounded, List.of());
    Check window = check(report, "reprocessing window");
    assertEquals(Status.PASS, window.status(), window.toString());
    assertEquals("Every source holds the affected hours " + affected + " and no TTL removes it before the backfill "
        + "ends; the carried hours are copied from visits_v1 and read no source.", window.finding());
    // The transform runs only on the affected hours, so the determinism check samples one of them.
    Check determinism = check(report, "determinism");
    Matcher sampled = Pattern.compile("The hour (\\S+ \\S+) gave").matcher(determinism.finding());
    assertTrue(sampled.find(), determinism.finding());
    assertTrue(affected.contains(HourPartition.parse("hour", sampled.group(1))), determinism.finding());
  }

  @Test
  void theDeterminismCheckSamplesVOnesBusiestSettledHourCountingEveryPart() {
    // Two more rows for one hour of the middle of the history, in a part of their own: that hour is now the busiest.
    HourPartition busiest = world.busyHour(20);
    world.sql.execute("two more rows", "INSERT INTO visits_v1 SELECT hour, concat(site, '-again'), clicks, users, "
        + "duration_s FROM visits_v1 WHERE hour = toDateTime(?, 'UTC') LIMIT 2", busiest.epochSecond());
    Check determinism = check(run(world.spec(), List.of()), "determinism");
    Matcher sampled = Pattern.compile("The hour (\\S+ \\S+) gave").matcher(determinism.finding());
    assertTrue(sampled.find(), determinism.finding());
    assertEquals(busiest, HourPartition.parse("hour", sampled.group(1)), determinism.finding());
  }

  @Test
  void aMaterializedViewOnTheLiveTableBlocksUntilAcknowledged() {
    world.sql.execute("alerts", "CREATE TABLE alerts (hour DateTime, site String) ENGINE = MergeTree ORDER BY hour");
    world.sql.execute("mv", "CREATE MATERIALIZED VIEW alerts_mv TO alerts AS SELECT hour, site FROM visits_v1 WHERE clicks > 100");
    Check blocked = check(run(world.spec(), List.of()), "side effects");
    assertEquals(Status.FAIL, blocked.status());
    assertTrue(blocked.finding().startsWith("These dependents react to writes: " + world.database + ".alerts_mv (reads visits_v1)."),
        blocked.finding());
    assertEquals("Review each one, then acknowledge it by name with the reason replaying history through it is safe "
        + "(it goes to the audit trail when the backfill starts): " + world.database + ".alerts_mv.", blocked.fix());
    assertEquals(List.of(new PreflightReport.Dependent(world.database + ".alerts_mv", "visits_v1", Optional.empty())),
        run(world.spec(), List.of()).dependents(), "the dependents come as a list to acknowledge by name");
    String reason = "alerts carry the hour they are about; the pager drops those older than a day";
    PreflightReport again = run(world.spec(), List.of(new AcknowledgedDependent(world.database + ".alerts_mv", reason)));
    Check accepted = check(again, "side effects");
    assertEquals(Status.WARN, accepted.status());
    assertEquals("Acknowledged dependents, each with its reason: " + world.database + ".alerts_mv (reads visits_v1): "
        + reason + ". The backfill writes each to the audit trail before any hour.", accepted.finding());
    assertEquals(List.of(new PreflightReport.Dependent(world.database + ".alerts_mv", "visits_v1", Optional.of(reason))),
        again.dependents(), "the report says why each dependent was acknowledged");
  }

  @Test
  void aV1FedByAMaterializedViewIsNamedAndACorrectedViewCreatedAfterBIsRefused() {
    String transform = "SELECT toStartOfHour(ts) AS hour, toString(site) AS site, count() AS clicks, uniqExact(user_id) "
        + "AS users, sum(duration_ms) / 1000 AS duration_s FROM clicks GROUP BY hour, site";
    Check external = check(run(world.spec(), List.of()), "live writer");
    assertEquals(Status.PASS, external.status());
    assertTrue(external.finding().startsWith("No materialized view writes visits_v1: its live writer is a job outside "
        + "the database"), external.finding());

    world.sql.execute("v1 fed by a view", "CREATE MATERIALIZED VIEW visits_mv TO visits_v1 AS " + transform);
    Check fedByView = check(run(world.spec(), List.of()), "live writer");
    assertEquals(Status.WARN, fedByView.status());
    assertTrue(fedByView.finding().startsWith("visits_v1 is written by the materialized view " + world.database
        + ".visits_mv, and no view writes visits_v2: a corrected view created now would see only inserts from now on"),
        fedByView.finding());

    // The corrected view, created now: after B, which lies a few hours behind the live edge.
    world.sql.execute("v2", "CREATE TABLE visits_v2 AS visits_v1");
    world.sql.execute("the corrected view", "CREATE MATERIALIZED VIEW `visits v2 mv` TO visits_v2 AS " + transform);
    PreflightReport late = run(world.spec(), List.of());
    Check tooLate = check(late, "live writer");
    assertEquals(Status.FAIL, tooLate.status(), tooLate.toString());
    assertFalse(late.passed());
    assertTrue(tooLate.finding().startsWith("The materialized view " + world.database + ".visits v2 mv writes visits_v2 "
        + "since "), tooLate.finding());
    assertTrue(tooLate.fix().startsWith("Choose a boundary at or after "), tooLate.fix());
  }

  @Test
  void eachCheckIsReportedAsItStartsAndACancelledPreflightStopsBetweenChecks() {
    Plan plan = new Planner(RepairContext.of(world.sql, store(), world.spec())).plan(Optional.empty(), Optional.empty(), Optional.empty(),
        BackfillSettings.from(world.spec().throttle()), false);
    List<String> steps = new java.util.ArrayList<>();
    PreflightReport report = new Preflight(RepairContext.of(world.sql, store(), world.spec())).run(plan, List.of(),
        Progress.of((step, fraction) -> steps.add(step)));
    assertEquals(report.checks().size(), steps.size(), steps.toString());
    assertEquals("Checking partition key (1 of 11)", steps.getFirst());
    assertEquals("Checking disk (11 of 11)", steps.getLast());

    Progress cancelAfterTwo = new Progress() {
      private int seen;

      @Override
      public void update(String step, double fraction) {
        seen++;
      }

      @Override
      public boolean cancelled() {
        return seen >= 2;
      }
    };
    assertThrows(java.util.concurrent.CancellationException.class,
        () -> new Preflight(RepairContext.of(world.sql, store(), world.spec())).run(plan, List.of(), cancelAfterTwo));
  }

  @Test
  void aNonDeterministicTransformFailsAndASuspiciousOneWarns() {
    // An allowance lets the spec load; it does not make the transform deterministic, and the sample hour shows it.
    TableSpec random = SpecLoader.parse(world.specYaml().replace("count() AS clicks",
        "count() + rand() % 1000000 AS clicks") + "allow_nondeterministic:\n  - function: rand\n"
        + "    reason: claimed harmless\n", "s.yaml");
    Check failed = check(run(random, List.of()), "determinism");
    assertEquals(Status.FAIL, failed.status(), failed.toString());
    assertTrue(failed.finding().endsWith("; it calls [rand()]; the spec allows rand() (claimed harmless), but the rows "
        + "show otherwise."), failed.finding());

    TableSpec any = SpecLoader.parse(world.specYaml().replace("toString(site) AS site", "toString(any(site)) AS site_any, toString(site) AS site"), "s.yaml");
    Check warned = check(run(any, List.of()), "determinism");
    assertEquals(Status.WARN, warned.status(), warned.toString());
  }

  @Test
  void missingGrantsAreListed() {
    var privileges = new Privileges(world.sql, world.spec(), "cutover");
    Check c = privileges.check(List.of(new Privileges.Grant("SELECT", null, null)));
    assertEquals(Status.FAIL, c.status());
    assertEquals("User lacks CREATE TABLE ON " + world.database + ".*, INSERT ON " + world.database + ".*, TRUNCATE ON "
        + world.database + ".*, DROP TABLE ON " + world.database + ".*, ALTER DELETE ON " + world.database + ".visits_v2, "
        + "CREATE TABLE ON cutover.*, INSERT ON cutover.*, DROP TABLE ON cutover.*.", c.finding());
    assertEquals(Status.PASS, privileges.check().status(), "the embedded default user holds every grant");
  }

  @Test
  void tooLittleDiskFails() {
    long reserve = 64L << 20;
    assertEquals(Status.FAIL, DiskCheck.check(2L << 30, 1L << 30, 1L << 30, reserve).status());
    assertEquals("Not enough disk: about 2048 MiB needed (v1 holds 1024 MiB for the range) plus the reserve of 64 MiB "
        + "Cutover keeps free, 1024 MiB free.", DiskCheck.check(2L << 30, 1L << 30, 1L << 30, reserve).finding());
    assertEquals(Status.FAIL, DiskCheck.check(2L << 30, 1L << 30, (2L << 30) + reserve - 1, reserve).status(),
        "the backfill would eat into the reserve");
    assertEquals(Status.WARN, DiskCheck.check(2L << 30, 1L << 30, (2L << 30) + reserve, reserve).status());
    assertEquals(Status.PASS, DiskCheck.check(2L << 30, 1L << 30, 4L << 30, reserve).status());
  }

  @Test
  void aDiskThatHoldsV2ButNotItsStagingAndMergesFails() {
    // Six months of v1 in 4,392 hours, 30 GiB; the largest hour 40 MiB; batches of 24 hours, 4 at once.
    long v1 = 30L << 30;
    long needed = DiskCheck.needed(v1, 40L << 20, 4392, 24, 4);
    long oneBatch = v1 / 4392 * 24;
    assertEquals(v1 + 8 * oneBatch + (40L << 20), needed, "v2, each batch in flight twice, and a merge of the "
        + "largest hour");
    long free = v1 + 4 * oneBatch + (40L << 20) / 2;
    assertEquals(Status.FAIL, DiskCheck.check(needed, v1, free, 0).status(), "room for v2 and one copy of each "
        + "batch is not room for the backfill");
  }
}
