package dev.cutover.engine.cutover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.GateClosedException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PhaseRefusedException;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Progress;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.SwapResult;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reconcile, gate, cutover, rollback, retention and cleanup on a real world with both writers. */
class ReconcileAndCutoverTest {

  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;
  private Plan plan;

  @BeforeEach
  void backfilledWorldWithTheCorrectedLiveWriter() throws Exception {
    world = HourlyWorld.create(TestEngine.freshDatabase(ReconcileAndCutoverTest.class), 3);
    spec = world.spec();
    engine = new Engine(world.db);
    plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), engine.plans().defaults(spec));
    assertEquals(RunState.SUCCEEDED, dev.cutover.engine.testing.Procedure.backfill(engine, plan).state());
    world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  @Test
  void aCleanRepairIsGreenWithEveryDifferenceExplained() {
    Reconciliation r = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.GREEN, r.verdict(), r.coverage() + " " + r.unexpectedKeys());
    assertEquals(world.first, r.window().from());
    assertEquals(world.liveEdge.plusHours(1), r.window().to());
    assertTrue(r.coverage().isEmpty(), r.coverage().toString());
    assertEquals(0, r.unexpectedKeys());
    assertTrue(r.keys().size() > 100 && r.keys().stream().allMatch(k -> k.rule().orElseThrow().equals("duration_units")));
    assertTrue(r.classes().stream().filter(c -> c.hour().isBefore(plan.boundary()))
        .allMatch(c -> c.owner() == Reconciliation.Owner.BACKFILL));
    assertTrue(r.classes().stream().filter(c -> !c.hour().isBefore(plan.boundary()))
        .allMatch(c -> c.owner() == Reconciliation.Owner.LIVE));
    assertEquals(r.id(), engine.reconciliations().stored(spec).getFirst().id(), "the report is stored");
  }

  @Test
  void reconciliationReportsItsStepsAndACancelledOneRecordsNothing() {
    List<Double> fractions = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<String> steps = new java.util.concurrent.CopyOnWriteArrayList<>();
    Reconciliation done = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000, Progress.of((step, fraction) -> {
      steps.add(step);
      fractions.add(fraction);
    }));
    // Every hour of this world differs: the sample says so, and one read compares every hour key by key.
    assertEquals("Sampling 24 hours of both versions", steps.getFirst());
    assertTrue(steps.contains("Comparing keys of every hour: 0 of " + done.window().hours()), steps.toString());
    // The verdict is stored first; what only the report shows follows it.
    assertEquals(List.of("Saving the report", "Verdict stored (green); reading examples of explained keys for the report"),
        steps.subList(steps.size() - 2, steps.size()));
    for (int i = 1; i < fractions.size(); i++) {
      assertTrue(fractions.get(i) >= fractions.get(i - 1), "progress only moves forward: " + fractions);
    }
    int before = engine.reconciliations().stored(spec).size();

    Progress giveUpWhenComparing = new Progress() {
      private volatile boolean cancelled;

      @Override
      public void update(String step, double fraction) {
        cancelled |= step.startsWith("Comparing keys");
      }

      @Override
      public boolean cancelled() {
        return cancelled;
      }
    };
    var stopped = assertThrows(java.util.concurrent.CancellationException.class,
        () -> engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000, giveUpWhenComparing));
    assertTrue(stopped.getMessage().contains("nothing was recorded"), stopped.getMessage());
    assertEquals(before, engine.reconciliations().stored(spec).size(), "a cancelled reconciliation stores no report");
  }

  @Test
  void aRemovedHourAndADoubledHourInV2AreCaught() {
    HourPartition removed = world.busyHour(5);
    HourPartition doubled = world.liveEdge.plusHours(-1);
    world.sql.execute("remove", "ALTER TABLE visits_v2 DROP PARTITION ID '" + removed.partitionId() + "'");
    world.sql.execute("double", "INSERT INTO visits_v2 SELECT * FROM visits_v2 WHERE hour = toDateTime(?, 'UTC')",
        doubled.epochSecond());

    Reconciliation r = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);

    assertEquals(Reconciliation.Verdict.RED, r.verdict());
    assertTrue(r.coverage().stream().anyMatch(c -> c.hour().equals(removed) && c.kind().equals("owner")), r.coverage().toString());
    assertTrue(r.coverage().stream().anyMatch(c -> c.hour().equals(doubled) && c.kind().equals("duplicate")), r.coverage().toString());
    assertTrue(r.keys().stream().anyMatch(k -> k.hour().equals(removed) && k.kind() == Diff.Kind.ONLY_IN_V1));
    assertTrue(r.keys().stream().anyMatch(k -> k.hour().equals(doubled) && k.kind() == Diff.Kind.DUPLICATE_IN_V2));
    assertEquals(Reconciliation.HourStatus.DUPLICATE, r.classes().stream().filter(c -> c.hour().equals(doubled))
        .findFirst().orElseThrow().status());
  }

  @Test
  void aStoredReconciliationReadsBackAsItWasMade() {
    HourPartition removed = world.busyHour(5);
    HourPartition incident = world.busyHour(8);
    world.sql.execute("remove", "ALTER TABLE visits_v2 DROP PARTITION ID '" + removed.partitionId() + "'");
    world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        incident.epochSecond());
    engine.reconciliations().acknowledge(spec, incident, List.of(), "v1 appended this hour twice on a retry; v2 is right");
    Reconciliation made = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 5);
    // Made after it: an acknowledgement the stored report did not count.
    engine.reconciliations().acknowledge(spec, removed, List.of(), "later");

    Reconciliation read = engine.reconciliations().latest(spec).orElseThrow();

    assertEquals(made.id(), read.id());
    assertEquals(List.of(made.spec(), made.target(), made.scope(), made.repairId(), made.specSha256(), made.window(),
        made.boundary(), made.verdict(), made.keysTruncated()), List.of(read.spec(), read.target(), read.scope(),
        read.repairId(), read.specSha256(), read.window(), read.boundary(), read.verdict(), read.keysTruncated()));
    assertTrue(made.keysTruncated(), "five keys of many: the list was cut");
    assertEquals(made.created().toEpochMilli(), read.created().toEpochMilli());
    assertEquals(made.hours(), read.hours(), "every hour with its rows, checksums and totals");
    assertEquals(made.classes(), read.classes(), "every hour's owner and class, the gap hour included");
    assertTrue(read.classes().stream().anyMatch(c -> c.hour().equals(removed)
        && c.status() == Reconciliation.HourStatus.GAP), read.classes().toString());
    assertEquals(made.counts(), read.counts());
    assertEquals(made.coverage(), read.coverage());
    assertEquals(new java.util.HashSet<>(made.keys()), new java.util.HashSet<>(read.keys()));
    assertEquals(made.acknowledged(), read.acknowledged(), "the acknowledgements it counted, not the later one");
    assertEquals(made.unexpectedKeys(), read.unexpectedKeys());
    assertEquals(Optional.of(read), engine.reconciliations().load(made.id()).map(r -> r));
  }

  @Test
  void anIncidentInV1IsUnexpectedUntilAcknowledged() {
    HourPartition incident = world.busyHour(8);
    world.sql.execute("retried append", "INSERT INTO visits_v1 SELECT * FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')",
        incident.epochSecond());
    Reconciliation red = engine.reconciliations().reconcile(spec, Reconciliation.Scope.HISTORY, 10_000);
    assertEquals(Reconciliation.Verdict.RED, red.verdict());
    assertTrue(red.keys().stream().filter(k -> !k.expected()).allMatch(k -> k.hour().equals(incident)
        && k.kind() == Diff.Kind.DUPLICATE_IN_V1), red.keys().stream().filter(k -> !k.expected()).toList().toString());

    var noReason = assertThrows(InvalidInputException.class, () -> engine.reconciliations().acknowledge(spec, incident, List.of(), " "));
    assertEquals("An acknowledgement needs a written reason; it goes to the audit trail and the verdict "
        + "shows it.", noReason.getMessage());
    engine.reconciliations().acknowledge(spec, incident, List.of(), "v1 appended this hour twice on a retry; v2 is right");

    Reconciliation acked = engine.reconciliations().reconcile(spec, Reconciliation.Scope.HISTORY, 10_000);
    assertEquals(Reconciliation.Verdict.ACKNOWLEDGED, acked.verdict());
    assertEquals(1, acked.acknowledged().size());
    assertTrue(engine.repairs().audit(world.database + ".visits_v2", 20).stream()
        .anyMatch(a -> a.action().equals("acknowledge") && a.detail().contains("retry")));
  }

  @Test
  void eachUnmetGateConditionRefusesWithItsSentence() {
    var none = assertThrows(GateClosedException.class, () -> engine.cutovers().cutover(spec, "visits"));
    assertEquals(List.of("verdict", "data now"), none.unmetConditions().stream().map(Gate.Condition::name).toList());
    assertTrue(none.getMessage().startsWith("The cutover is refused: verdict (No reconciliation of the whole repair "),
        none.getMessage());
    assertEquals(List.of("verdict", "data now"), none.unmet().stream().map(u -> u.replaceAll(":.*", "")).toList());
    assertEquals(Gate.Version.V1, engine.cutovers().gate(spec).current(), "nothing was changed");

    // v2's newest hour goes missing: the verdict covers the hours both versions have closed, the gate sees the rest.
    world.sql.execute("gap", "ALTER TABLE visits_v2 DROP PARTITION ID '" + world.liveEdge.partitionId() + "'");
    Reconciliation r = engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    assertEquals(world.liveEdge, r.window().to(), "the newest hour both versions have closed");
    Gate gate = engine.cutovers().gate(spec);
    assertFalse(gate.open());
    assertEquals(List.of("v2 caught up"), gate.unmet().stream().map(Gate.Condition::name).toList());

    var wrongName = assertThrows(InvalidInputException.class, () -> engine.cutovers().cutover(spec, "pnl"));
    assertEquals("To cutover, confirm with the consumer view's name, visits (you typed 'pnl').", wrongName.getMessage());
  }

  @Test
  void cutoverRollbackAndCutoverAgainWhileReadersNeverSeeAMixture() throws Exception {
    engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    assertTrue(engine.cutovers().gate(spec).open(), engine.cutovers().gate(spec).unmet().toString());
    HourPartition probe = world.busyHour(2);
    String v1 = totals("visits_v1", probe);
    String v2 = totals("visits_v2", probe);
    assertFalse(v1.equals(v2));

    try (var readers = new Readers(world, probe, v1, v2, 4)) {
      SwapResult cut = engine.cutovers().cutover(spec, "visits");
      assertEquals(Gate.Version.V2, cut.after());
      assertTrue(cut.verification().startsWith("verified: visits returns visits_v2's rows for "), cut.verification());
      assertEquals(v2, totals("visits", probe));

      var again = assertThrows(PhaseRefusedException.class, () -> engine.cutovers().cutover(spec, "visits"));
      assertEquals("consumers on v1", again.needs());
      assertEquals("Consumers already read visits_v2 through visits; a second cutover would switch them back. Use "
          + "rollback for that.", again.getMessage());

      SwapResult back = engine.cutovers().rollback(spec, "visits");
      assertEquals(Gate.Version.V1, back.after());
      assertEquals(v1, totals("visits", probe));

      engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
      for (int i = 0; i < 5; i++) {
        engine.cutovers().cutover(spec, "visits");
        engine.cutovers().rollback(spec, "visits");
      }
      engine.cutovers().cutover(spec, "visits");
      assertEquals(v2, totals("visits", probe));
      readers.assertClean();
    }
  }

  @Test
  void retentionKeepsV1UntilTheHorizonUnlessForcedWithAReason() {
    engine.reconciliations().reconcile(spec, Reconciliation.Scope.REPAIR, 10_000);
    engine.cutovers().cutover(spec, "visits");
    var retention = engine.cutovers().retention(spec);
    assertEquals(12 + 3 + 6, retention.total().toHours(), "cache 12 h + window 3 h + margin 6 h");
    var early = assertThrows(GateClosedException.class, () -> engine.cutovers().dropV1(spec, false, null, List.of()));
    assertTrue(early.getMessage().startsWith("v1 must be kept until "), early.getMessage());
    assertEquals("drop-v1", early.gate());
    assertEquals(List.of("retention horizon"), early.unmetConditions().stream().map(Gate.Condition::name).toList());
    assertEquals(List.of("force", "reason"), early.fields());
    assertEquals("Wait, or force the drop with a written reason.", early.whatToDo());
    assertFalse(early.getMessage().contains("--"), "the engine names no option: " + early.getMessage());
    var noReason = assertThrows(InvalidInputException.class, () -> engine.cutovers().dropV1(spec, true, "", List.of()));
    assertTrue(noReason.getMessage().startsWith("Dropping v1 before its retention horizon needs a written reason"));

    world.sql.execute("leftover", "CREATE TABLE visits_v2__stg_old_1 AS visits_v2");
    assertEquals(List.of("visits_v2__stg_old_1"), engine.cutovers().cleanup(spec));
    assertEquals(0L, world.sql.queryLong("staging gone", "SELECT count() FROM system.tables WHERE database = ? AND "
        + "name = 'visits_v2__stg_old_1'", world.database), "the clean-up dropped what it names");

    // Tables that still use v1 would break without a word: each is named, and the drop waits for each by name.
    String db = world.database;
    world.sql.execute("a view on v1", "CREATE VIEW visits_daily AS SELECT toDate(hour) AS d, sum(clicks) AS c "
        + "FROM visits_v1 GROUP BY d");
    world.sql.execute("a sink", "CREATE TABLE busy ENGINE = MergeTree ORDER BY tuple() AS SELECT hour, clicks FROM "
        + "visits_v1 WHERE 0");
    world.sql.execute("a materialized view on v1", "CREATE MATERIALIZED VIEW busy_mv TO busy AS SELECT hour, clicks "
        + "FROM visits_v1 WHERE clicks > 1000");
    world.sql.execute("a source", "CREATE TABLE raw AS visits_v1");
    world.sql.execute("a writer into v1", "CREATE MATERIALIZED VIEW feed_mv TO visits_v1 AS SELECT * FROM raw");
    world.sql.execute("another database", "CREATE DATABASE " + db + "_boards");
    world.sql.execute("a view elsewhere", "CREATE VIEW " + db + "_boards.board AS SELECT count() AS n FROM " + db
        + ".visits_v1");
    world.sql.execute("a view on v2 only", "CREATE VIEW v2_count AS SELECT count() AS n FROM visits_v2");
    try {
      // A view that writes v1 (its live writer) is no reader: the drop removes it first, with v1.
      List<String> readers = List.of(db + ".busy_mv (materialized view)", db + ".visits_daily (view)",
          db + "_boards.board (view)");
      assertEquals(readers.stream().sorted().toList(), engine.cutovers().v1Readers(spec).stream().map(Object::toString).sorted()
          .toList());
      assertEquals("DROP VIEW IF EXISTS `" + db + "`.`feed_mv` SYNC", engine.cutovers().dropV1Statements(spec).getFirst());
      var unacknowledged = assertThrows(GateClosedException.class, () -> engine.cutovers().dropV1(spec, true, "storage",
          List.of(db + ".busy_mv", db + "_boards.board")));
      assertEquals("This table still uses " + db + ".visits_v1 and breaks when it is dropped: " + db + ".visits_daily "
          + "(view). Repoint or drop it first, or acknowledge it by name (" + db
          + ".visits_daily) to drop v1 anyway.", unacknowledged.getMessage());
      assertEquals(List.of("acknowledge"), unacknowledged.fields());
      assertEquals(List.of(db + ".visits_daily (view)"), unacknowledged.unmetConditions().stream()
          .map(Gate.Condition::detail).toList());
      assertEquals(1L, world.sql.queryLong("v1 kept", "SELECT count() FROM system.tables WHERE database = ? AND "
          + "name = 'visits_v1'", db), "nothing is dropped before every reader is acknowledged");
      assertEquals(1L, world.sql.queryLong("v1's writer kept", "SELECT count() FROM system.tables WHERE database = ? "
          + "AND name = 'feed_mv'", db));

      assertEquals(List.of(db + ".feed_mv", db + ".visits__next", db + ".visits_v1"), engine.cutovers().dropV1(spec, true,
          "storage emergency, approved by the desk head", List.of(db + ".busy_mv", db + ".visits_daily",
              db + "_boards.board")));
      assertTrue(new dev.cutover.engine.ledger.StateStore(world.sql, db).auditTrail(
          dev.cutover.engine.tables.TableNames.target(spec), 20).stream().anyMatch(a -> a.detail().contains("acknowledged that ")
          && a.detail().contains(db + ".visits_daily (view)")), "the audit trail names what was left broken");
      // Inserts into v1's source go on: its view went first, and nothing writes into the dropped v1.
      world.sql.execute("an insert into the source", "INSERT INTO raw SELECT * FROM visits_v2 LIMIT 1");
    } finally {
      world.sql.execute("drop the other database", "DROP DATABASE IF EXISTS " + db + "_boards");
    }
    assertEquals(0L, world.sql.queryLong("v1 gone", "SELECT count() FROM system.tables WHERE database = ? AND name = 'visits_v1'",
        world.database));
    assertEquals(0L, world.sql.queryLong("handle gone", "SELECT count() FROM system.tables WHERE database = ? AND "
        + "name = 'visits__next'", world.database), "the rollback handle goes with v1");

    var after = engine.cutovers().gate(spec);
    assertTrue(after.v1Dropped() && !after.open(), "nothing to switch once v1 is dropped: " + after);
    assertEquals(Gate.Version.V2, after.current());
    assertTrue(engine.cutovers().retention(spec).droppedAt().isPresent(), "the retention shows when v1 was dropped");
    var twice = assertThrows(PhaseRefusedException.class, () -> engine.cutovers().dropV1(spec, true, "again", List.of()));
    assertEquals(java.util.Optional.of(dev.cutover.engine.api.RepairPhase.V1_DROPPED), twice.phase());
    assertTrue(twice.getMessage().startsWith("visits_v1 was dropped already, at "), twice.getMessage());
    var rollback = assertThrows(StepRefusedException.class, () -> engine.cutovers().rollback(spec, "visits"));
    assertTrue(rollback.getMessage().contains("visits_v1"), rollback.getMessage());
  }

  private String totals(String table, HourPartition hour) {
    return world.sql.queryOne("totals", "SELECT count(), sum(clicks), round(sum(duration_s), 6) FROM " + table
        + " WHERE hour = toDateTime(?, 'UTC')", rs -> rs.getLong(1) + "/" + rs.getLong(2) + "/" + rs.getDouble(3),
        hour.epochSecond());
  }
}
