package dev.cutover.engine.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.Diff;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.Reconciliation;
import dev.cutover.engine.api.Reconciliation.Owner;
import dev.cutover.engine.api.Reconciliation.Scope;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.Procedure;
import dev.cutover.engine.testing.TestEngine;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A bug bounded to a few hours is repaired by recomputing only those and carrying the rest from v1:
 * v2 ends as a full recompute would make it, the carried hours are proven by checksum alone, and a
 * late write to v1 after the carry keeps the gate closed until the hour is carried again.
 */
class BoundedRepairTest {

  @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir;
  private HourlyWorld world;
  private TableSpec spec;
  private Engine engine;
  private HourRange affected;

  @BeforeEach
  void aBugBoundedToTwelveHours() {
    world = HourlyWorld.create(TestEngine.freshDatabase(BoundedRepairTest.class), 2);
    affected = new HourRange(world.first.plusHours(12), world.first.plusHours(24));
    world.boundTheBugTo(affected);
    spec = world.spec();
    engine = new Engine(world.db);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private Plan plan(Optional<HourRange> window) {
    return engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), window, engine.plans().defaults(spec));
  }

  @Test
  void onlyTheAffectedHoursAreRecomputedAndTheCarriedOnesAreProvenByChecksum() throws Exception {
    Plan plan = plan(Optional.of(affected));
    HourPartition b = plan.boundary();
    assertEquals(affected.list(), plan.computed());
    assertEquals(plan.range().hours() - 12, plan.carried().size());
    // v2 does not exist yet: it is created empty, and the carried hours are linked from v1's parts beside the
    // computed batches.
    assertTrue(plan.statements().stream().anyMatch(s -> s.equals("CREATE TABLE `" + world.database + "`.`visits_v2` AS `"
        + world.database + "`.`visits_v1`")), plan.statements().toString());
    assertTrue(plan.statements().stream().anyMatch(s -> s.contains(" REPLACE PARTITION ID '" + plan.carried().getFirst()
        .partitionId() + "' FROM `" + world.database + "`.`visits_v1`, … (the " + plan.carried().size() + " carried hours")),
        plan.statements().toString());

    Procedure.backfill(engine, plan);
    String runId = engine.backfills().runs(spec).getFirst().id();
    TreeMap<HourPartition, LedgerEntry> ledger = engine.backfills().ledger(runId);
    for (HourPartition h : plan.hours()) {
      assertEquals(affected.contains(h), !ledger.get(h).carried(), "ledger of " + h + ": " + ledger.get(h));
    }
    assertEquals(world.expected(world.first, b), world.checksums("visits_v2", world.first, b),
        "v2 equals a full recompute, hour for hour");
    // Only the carried hours came from v1: none of v1's hours from B on.
    assertEquals(0L, world.sql.queryLong("v2 from B", "SELECT count() FROM visits_v2 WHERE hour >= toDateTime(?, 'UTC')",
        b.epochSecond()), "the corrected live writer's hours are its own");
    assertTrue(world.sql.queryLong("v1 from B", "SELECT count() FROM visits_v1 WHERE hour >= toDateTime(?, 'UTC')",
        b.epochSecond()) > 0, "v1 has hours from B on, which the carry left");

    world.writeLiveV2(b, world.liveEdge.plusHours(1));
    Reconciliation verdict = engine.reconciliations().reconcile(spec, Scope.REPAIR, 10_000);
    assertEquals(Reconciliation.Verdict.GREEN, verdict.verdict(), verdict.coverage().toString());
    assertTrue(verdict.coverage().isEmpty());
    assertFalse(verdict.keys().isEmpty(), "the affected hours differ as the rule explains");
    assertTrue(verdict.keys().stream().allMatch(k -> affected.contains(k.hour())),
        "keys are read only in affected hours");
    assertTrue(verdict.counts().keySet().stream().allMatch(affected::contains), verdict.counts().keySet().toString());
    Map<Owner, Long> owners = new TreeMap<>();
    verdict.classes().forEach(c -> owners.merge(c.owner(), 1L, Long::sum));
    assertEquals(Map.of(Owner.CARRIED, (long) plan.carried().size(), Owner.BACKFILL, 12L, Owner.LIVE,
        verdict.window().hours() - plan.range().hours()), owners);
    verdict.classes().stream().filter(c -> c.owner() == Owner.CARRIED)
        .forEach(c -> assertEquals(Reconciliation.HourStatus.IDENTICAL, c.status(), c.hour().toString()));
    assertTrue(engine.cutovers().gate(spec).open(), engine.cutovers().gate(spec).refusal());
    String html = java.nio.file.Files.readString(engine.reconciliations().exportHtml(verdict, spec, dir.resolve("report.html")).html());
    assertTrue(html.contains("This was a bounded repair: 12 affected hours were recomputed and " + plan.carried().size()
        + " hours were carried unchanged from v1 by hard link, proven identical by checksum alone."), html);

    // Merged since the carry, v1's hours are in other files with the same rows: proven by reading them instead.
    world.sql.execute("merge v1", "OPTIMIZE TABLE visits_v1 FINAL");
    assertTrue(engine.cutovers().gate(spec).open(), engine.cutovers().gate(spec).refusal());

    // A late write to v1 in an hour already carried: v2 lacks it, and the gate says so.
    HourPartition late = plan.carried().get(3);
    world.sql.execute("a late v1 write", "INSERT INTO visits_v1 VALUES (toDateTime(?, 'UTC'), 'late', 1, 1, 0.5)",
        late.epochSecond());
    Gate closed = engine.cutovers().gate(spec);
    assertFalse(closed.open());
    assertTrue(closed.refusal().contains(late + ": gap, v1 changed after this hour was carried from it"),
        closed.refusal());

    // Carried again by a second backfill of the same window, the hour agrees with v1 and the gate opens.
    Procedure.backfill(engine, plan(Optional.of(affected)));
    assertEquals(world.checksums("visits_v1", late, late.plusHours(1)),
        world.checksums("visits_v2", late, late.plusHours(1)));
    assertTrue(engine.cutovers().gate(spec).open(), engine.cutovers().gate(spec).refusal());
  }

  /**
   * The verdict is stored before v1's totals of the carried hours and the examples of explained keys, which only the
   * report shows: from that moment the gate and the repair's status read it, while the list of reports a screen reads
   * shows the report only once it is whole, each carried hour with the totals v1 holds.
   */
  @Test
  void theVerdictIsStoredBeforeTheCarriedHoursTotalsAndTheReportIsListedOnlyWhole() throws Exception {
    Plan plan = plan(Optional.of(affected));
    Procedure.backfill(engine, plan);
    world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
    java.util.List<String> atVerdict = new java.util.ArrayList<>();
    dev.cutover.engine.api.Progress watching = new dev.cutover.engine.api.Progress() {
      @Override
      public void update(String step, double fraction) {}

      @Override
      public void recorded(String what) {
        Gate gate = engine.cutovers().gate(spec);
        atVerdict.add(what + "; gate " + (gate.open() ? "open" : "closed: " + gate.refusal()) + "; listed "
            + engine.reconciliations().newestId(spec).orElse("none") + "; status " + engine.repairs().status(spec)
            .verdict().map(v -> v.id()).orElse("none"));
      }
    };
    Reconciliation r = engine.reconciliations().reconcile(spec, Scope.REPAIR, Optional.empty(), 10_000, watching);
    assertEquals(Reconciliation.Verdict.GREEN, r.verdict(), r.coverage().toString());
    assertEquals(java.util.List.of("the verdict: green; gate open; listed none; status " + r.id()), atVerdict);
    assertEquals(Optional.of(r.id()), engine.reconciliations().newestId(spec), "listed once whole");

    // Each carried hour, read back from the store as returned, holds v1's totals of that hour.
    Reconciliation stored = engine.reconciliations().load(r.id()).orElseThrow();
    assertEquals(r.hours(), stored.hours());
    assertEquals(r.keys(), stored.keys());
    assertTrue(stored.keys().stream().anyMatch(Diff.KeyDiff::expected), "explained keys kept as examples");
    Map<HourPartition, Double> v1Clicks = new TreeMap<>();
    world.sql.query("v1's clicks per hour", "SELECT toUnixTimestamp(hour), toFloat64(sum(clicks)) FROM visits_v1 GROUP BY "
        + "hour", rs -> v1Clicks.put(HourPartition.ofEpochSecond(rs.getLong(1)), rs.getDouble(2)));
    Map<HourPartition, Diff.HourDiff> byHour = new TreeMap<>();
    stored.hours().forEach(h -> byHour.put(h.hour(), h));
    // An hour neither version holds is not compared; every other carried hour is.
    java.util.List<HourPartition> held = plan.carried().stream().filter(v1Clicks::containsKey).toList();
    assertTrue(held.size() > 12, held.toString());
    for (HourPartition h : held) {
      Diff.Total clicks = byHour.get(h).totals().stream().filter(t -> t.measure().name().equals("clicks")).findFirst()
          .orElseThrow(() -> new AssertionError("no totals of carried hour " + h + ": " + byHour.get(h)));
      assertEquals(v1Clicks.get(h), clicks.v1(), "v1 at " + h);
      assertEquals(clicks.v1(), clicks.v2(), "v2 at " + h + ": the same files");
    }
  }

  /**
   * A reconciliation that fails after its verdict is stored says that the verdict stands, and the gate opens on it,
   * while the report is not listed.
   */
  @Test
  void aReconciliationThatFailsAfterItsVerdictSaysTheVerdictStands() throws Exception {
    Plan plan = plan(Optional.of(affected));
    Procedure.backfill(engine, plan);
    world.writeLiveV2(plan.boundary(), world.liveEdge.plusHours(1));
    dev.cutover.engine.api.Progress failing = new dev.cutover.engine.api.Progress() {
      @Override
      public void update(String step, double fraction) {}

      @Override
      public void recorded(String what) {
        // What completes the report can no longer be stored.
        world.sql.execute("take the completion table away", "DROP TABLE reconciliation_completed SYNC");
      }
    };
    var e = assertThrows(dev.cutover.engine.api.QueryFailedException.class, () -> engine.reconciliations()
        .reconcile(spec, Scope.REPAIR, Optional.empty(), 10_000, failing));
    assertTrue(e.getMessage().startsWith("The verdict (green) of reconciliation ") && e.getMessage().contains(
        " is stored and the gate reads it, but its report is not whole: "), e.getMessage());
    assertTrue(engine.cutovers().gate(spec).open(), engine.cutovers().gate(spec).refusal());
  }

  /**
   * A carried hour v1 holds nothing of ends empty in v2: one v1 never held, and one v1 lost after a first carry (a
   * dropped partition), carried again by a second backfill of the same window; both recorded carried with no rows.
   */
  @Test
  void aCarriedHourV1HoldsNothingOfEndsEmptyInV2() throws Exception {
    Plan plan = plan(Optional.of(affected));
    HourPartition never = plan.carried().stream().filter(h -> rows("visits_v1", h) == 0).findFirst().orElseThrow(
        () -> new AssertionError("the world has a carried hour v1 holds nothing of"));
    HourPartition lost = plan.carried().stream().filter(h -> !h.equals(never) && rows("visits_v1", h) > 0).findFirst()
        .orElseThrow();
    Procedure.backfill(engine, plan);
    assertTrue(rows("visits_v2", lost) > 0, "carried once while v1 held it");

    world.sql.execute("v1 loses an hour", "ALTER TABLE visits_v1 DROP PARTITION ID '" + lost.partitionId() + "'");
    Procedure.backfill(engine, plan(Optional.of(affected)));
    String runId = engine.backfills().runs(spec).getFirst().id();
    TreeMap<HourPartition, LedgerEntry> ledger = engine.backfills().ledger(runId);
    for (HourPartition h : java.util.List.of(never, lost)) {
      assertEquals(0L, rows("visits_v2", h), "v2 holds nothing of " + h);
      assertTrue(ledger.get(h).carried(), "carried: " + ledger.get(h));
      assertEquals(0L, ledger.get(h).rows(), "no rows recorded for " + h);
    }
    HourPartition linked = lost.plusHours(1);
    assertEquals(world.checksums("visits_v1", linked, linked.plusHours(1)),
        world.checksums("visits_v2", linked, linked.plusHours(1)), "an hour v1 holds is carried as it holds it");
  }

  private long rows(String table, HourPartition hour) {
    return world.sql.queryLong("rows of " + table + " in " + hour, "SELECT count() FROM " + table
        + " WHERE toStartOfHour(hour) = toDateTime(?, 'UTC')", hour.epochSecond());
  }

  /** A bounded run stopped at a failed hour resumes as it began: the affected hours computed, the rest carried. */
  @Test
  void aResumedBoundedRunCarriesAndComputesAsItBegan() throws Exception {
    world.sql.execute("failures", "CREATE TABLE fail_hours (h DateTime('UTC')) ENGINE = Memory");
    TableSpec failing = SpecLoader.parse(world.specYaml().replace("GROUP BY hour, site",
        "AND throwIf(toStartOfHour(ts) IN (SELECT h FROM fail_hours)) = 0 GROUP BY hour, site"), "visits.yaml");
    Plan plan = engine.plans().plan(failing, Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(affected),
        engine.plans().defaults(failing).withConcurrency(1).withBatchHours(1).withRetries(1, java.time.Duration.ZERO));
    var cleared = Procedure.clear(engine, plan);
    // An hour with rows: the transform fails only on rows of the hour, and the world leaves every 37th hour empty.
    HourPartition broken = world.busyFrom(affected.from().plusHours(5));
    world.sql.execute("plant", "INSERT INTO fail_hours VALUES (toDateTime(?, 'UTC'))", broken.epochSecond());
    RunRecord failed = engine.backfills().start(cleared, BackfillEvent.Listener.NONE).await();
    assertEquals(RunState.FAILED, failed.state(), failed.message());
    // The carry goes beside the computed batches (CarryLane): the failure stopped the run, and with it every carry
    // statement not yet begun. Whatever was carried is recorded whole and only where the plan carries; the resume
    // carries the rest.
    var stopped = engine.backfills().ledger(failed.id());
    stopped.values().stream().filter(LedgerEntry::carried).forEach(e -> {
      assertTrue(e.complete(), "a carried hour is recorded whole: " + e);
      assertTrue(plan.carried().contains(e.hour()), "carried only where the plan carries: " + e);
    });
    assertEquals(LedgerEntry.State.FAILED, stopped.get(broken).state());

    world.sql.execute("mend", "TRUNCATE TABLE fail_hours");
    Plan resumed = engine.plans().planResume(failing, failed.id(), java.util.function.UnaryOperator.identity());
    assertEquals(Optional.of(affected), resumed.affected());
    resumesAsItBegan(plan, resumed);
  }

  /**
   * A bounded run stopped before any carry statement began: the ledger records no hour carried, v2 holds none of
   * them, and the resume carries every one. The run waits for its turns behind a live writer that lags, so the stop
   * lands before the lane's first statement whatever the machine's speed.
   */
  @Test
  void aBoundedRunStoppedBeforeItsCarryRecordsNoHourCarriedAndItsResumeCarriesThemAll() throws Exception {
    // Clicks the live writer has not aggregated: it lags by hours, more than the run allows, so no turn is taken.
    world.addClicks(world.liveEdge.plusHours(1), world.liveEdge.plusHours(4));
    Plan plan = engine.plans().plan(spec, Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(affected),
        engine.plans().defaults(spec).withMaxLiveLag(java.time.Duration.ofMinutes(30)));
    java.util.List<BackfillEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    var held = engine.backfills().start(Procedure.clear(engine, plan), events::add);
    java.util.function.BooleanSupplier waiting = () -> events.stream().anyMatch(
        e -> e instanceof BackfillEvent.Progress p && p.waiting().startsWith("the live writer lags "));
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    while (!waiting.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(waiting.getAsBoolean(), "the run waits for the live writer: " + events);
    held.cancel();
    RunRecord stopped = held.await();
    assertEquals(RunState.CANCELLED, stopped.state(), stopped.message());
    assertEquals(0L, engine.backfills().ledger(stopped.id()).values().stream().filter(LedgerEntry::carried).count(),
        "hours recorded carried");
    assertEquals(0L, world.sql.queryLong("v2's parts", "SELECT count() FROM system.parts WHERE database = ? "
        + "AND table = 'visits_v2' AND active", world.database), "v2 holds no hour of v1");

    Plan resumed = engine.plans().planResume(spec, stopped.id(), s -> s.withMaxLiveLag(java.time.Duration.ZERO));
    assertEquals(plan.carried(), resumed.carried(), "the resume carries what the run did not");
    resumesAsItBegan(plan, resumed);
  }

  /** The resume of {@code plan}'s run succeeds as the run began: the affected hours computed, the rest carried. */
  private void resumesAsItBegan(Plan plan, Plan resumed) throws InterruptedException {
    RunRecord end = Procedure.backfill(engine, resumed);
    assertEquals(RunState.SUCCEEDED, end.state(), end.message());
    TreeMap<HourPartition, LedgerEntry> ledger = engine.backfills().ledger(end.id());
    for (HourPartition h : plan.hours()) {
      assertEquals(affected.contains(h), !ledger.get(h).carried(), "ledger of " + h + ": " + ledger.get(h));
    }
    assertEquals(world.expected(world.first, plan.boundary()), world.checksums("visits_v2", world.first,
        plan.boundary()), "v2 equals a full recompute, hour for hour");
  }

  @Test
  void anAffectedWindowOutsideTheRangeIsRefusedBeforeAnythingIsWritten() {
    HourPartition b = world.liveEdge.plusHours(-3);
    InvalidInputException past = assertThrows(InvalidInputException.class,
        () -> plan(Optional.of(new HourRange(b.plusHours(-2), b.plusHours(1)))));
    assertEquals("The affected window " + new HourRange(b.plusHours(-2), b.plusHours(1)) + " ends after the boundary "
        + b + "; the backfill recomputes only hours before the boundary (the corrected live writer owns the rest). "
        + "End the affected window at " + b + " or earlier.", past.getMessage());
    InvalidInputException before = assertThrows(InvalidInputException.class, () -> engine.plans().plan(spec,
        Optional.of(world.first.plusHours(6)), Optional.empty(), Optional.empty(),
        Optional.of(new HourRange(world.first, world.first.plusHours(8))), engine.plans().defaults(spec)));
    assertTrue(before.getMessage().startsWith("The affected window " + new HourRange(world.first,
        world.first.plusHours(8)) + " starts before the range "), before.getMessage());
    InvalidInputException notHour = assertThrows(InvalidInputException.class, () -> SpecLoader.parse(
        world.specYaml() + "affected:\n  from: 2026-06-03T10:30\n  to: 2026-06-04\n", "visits.yaml"));
    assertTrue(notHour.getMessage().contains("is not on the hour"), notHour.getMessage());
    InvalidInputException backwards = assertThrows(InvalidInputException.class, () -> SpecLoader.parse(
        world.specYaml() + "affected:\n  from: 2026-06-04\n  to: 2026-06-03\n", "visits.yaml"));
    assertTrue(backwards.getMessage().contains("field 'affected.to'"), backwards.getMessage());
    assertEquals(0L, world.sql.queryLong("look for v2", "SELECT count() FROM system.tables WHERE database = ? AND "
        + "name = 'visits_v2'", world.database), "nothing was written");

    // A v2 ordered otherwise cannot take v1's parts: preflight says so and nothing is carried.
    world.sql.execute("a v2 ordered otherwise", "CREATE TABLE visits_v2 AS visits_v1 ENGINE = MergeTree "
        + "PARTITION BY toStartOfHour(hour) ORDER BY (site, hour)");
    var report = engine.plans().preflight(plan(Optional.of(affected)), java.util.List.of()).report();
    var partition = report.checks().stream().filter(c -> c.name().equals("partition key")).findFirst().orElseThrow();
    assertFalse(report.passed());
    assertTrue(partition.finding().startsWith("The sorting key of " + world.database + ".visits_v2 is 'site, hour' but "
        + "that of " + world.database + ".visits_v1 is 'hour, site'"), partition.finding());
    assertEquals(0L, world.sql.queryLong("count v2", "SELECT count() FROM visits_v2"));
    world.sql.execute("drop it", "DROP TABLE visits_v2 SYNC");

    TableSpec bounded = SpecLoader.parse(world.specYaml() + "affected:\n  from: " + affected.from().start()
        + "\n  to: " + affected.to().start() + "\n", "visits.yaml");
    assertEquals(Optional.of(affected), bounded.affected());
    assertEquals(affected.list(), engine.plans().plan(bounded, Optional.empty(), Optional.empty(), Optional.empty(),
        engine.plans().defaults(bounded)).computed(), "the spec's window is the default");
  }
}
