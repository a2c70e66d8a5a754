package dev.cutover.engine.backfill;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.tables.TargetTables;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.TestEngine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The executor against the real engine: results equal a from-scratch computation, and B is never crossed. */
class BackfillTest {

  private HourlyWorld world;
  private TableSpec spec;
  private StateStore store;
  private Backfill backfill;

  @BeforeEach
  void world() {
    world = HourlyWorld.create(TestEngine.freshDatabase(BackfillTest.class), 3);
    spec = world.spec();
    store = new StateStore(world.sql, world.database);
    backfill = new Backfill(world.sql, store);
  }

  @AfterEach
  void close() {
    world.db.close();
  }

  private Plan plan(BackfillSettings settings) {
    return new Planner(RepairContext.of(world.sql, store, spec)).plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, false);
  }

  @Test
  void aBackfillEqualsAFromScratchComputationHourByHourAndNeverCrossesTheBoundary() throws Exception {
    Plan plan = plan(BackfillSettings.from(spec.throttle()));
    // The corrected live writer already owns the hours from B on: give them sentinel rows that must survive.
    new TargetTables(world.sql, spec).createTargetIfAbsent();
    world.sql.execute("live v2 rows", "INSERT INTO visits_v2 SELECT toDateTime(? + number * 3600, 'UTC'), 'LIVE', 1, 1, 0 "
        + "FROM numbers(4)", plan.boundary().epochSecond());
    List<BackfillEvent> events = new CopyOnWriteArrayList<>();

    RunRecord done = backfill.start(plan, events::add).await();

    assertEquals(RunState.SUCCEEDED, done.state(), done.message());
    Map<HourPartition, String> expected = world.expected(plan.range().from(), plan.range().to());
    assertEquals(expected, world.checksums("visits_v2", plan.range().from(), plan.range().to()));
    assertEquals(4L, world.sql.queryLong("live rows", "SELECT count() FROM visits_v2 WHERE hour >= toDateTime(?, 'UTC')",
        plan.boundary().epochSecond()), "hours from the boundary on are the live writer's and untouched");
    assertEquals(4L, world.sql.queryLong("live rows", "SELECT count() FROM visits_v2 WHERE site = 'LIVE'"));

    var ledger = store.hours().ledger(done.id());
    assertEquals(plan.hours(), List.copyOf(ledger.keySet()), "every planned hour is in the ledger, and only those");
    assertTrue(ledger.keySet().stream().allMatch(h -> h.isBefore(plan.boundary())));
    for (var entry : ledger.values()) {
      String data = expected.getOrDefault(entry.hour(), "0:0");
      assertEquals(data, entry.rows() + ":" + entry.checksum(), "ledger of " + entry.hour());
    }
    long emptied = ledger.values().stream().filter(e -> e.state() == LedgerEntry.State.EMPTIED).count();
    assertTrue(emptied >= 1, "the world has hours without clicks; their partitions are emptied on purpose");
    assertEquals(emptied, plan.hours().size() - expected.size());
    assertTrue(events.stream().anyMatch(e -> e instanceof BackfillEvent.Progress p && p.hoursDone() == plan.hours().size()));
    assertEquals(0L, world.sql.queryLong("staging left", "SELECT count() FROM system.tables WHERE database = ? "
        + "AND name LIKE 'visits_v2__stg_%'", world.database), "staging tables are dropped at the end");
    assertTrue(store.auditTrail(done.id(), 50).stream().anyMatch(a -> a.action().equals("start")));
  }

  /**
   * Mutation guard: an hour whose corrected output is empty must empty its v2 partition, not keep
   * what was there. Stray rows in hours the world leaves without clicks are gone after the backfill,
   * and the ledger says those hours were emptied.
   */
  @Test
  void anHourWithNoCorrectedRowsIsEmptiedInV2() throws Exception {
    Plan plan = plan(BackfillSettings.from(spec.throttle()));
    Map<HourPartition, String> expected = world.expected(plan.range().from(), plan.range().to());
    List<HourPartition> empty = plan.hours().stream().filter(h -> !expected.containsKey(h)).toList();
    assertTrue(!empty.isEmpty(), "the world leaves some hours without clicks");
    new TargetTables(world.sql, spec).createTargetIfAbsent();
    for (HourPartition h : empty) {
      world.sql.execute("stray rows", "INSERT INTO visits_v2 VALUES (toDateTime(?, 'UTC'), 'STRAY', 7, 7, 7)",
          h.epochSecond());
    }
    RunRecord done = backfill.start(plan, BackfillEvent.Listener.NONE).await();
    assertEquals(RunState.SUCCEEDED, done.state(), done.message());
    assertEquals(0L, world.sql.queryLong("stray", "SELECT count() FROM visits_v2 WHERE site = 'STRAY'"));
    var ledger = store.hours().ledger(done.id());
    for (HourPartition h : empty) {
      assertEquals(LedgerEntry.State.EMPTIED, ledger.get(h).state(), "ledger of " + h);
    }
    assertEquals(expected, world.checksums("visits_v2", plan.range().from(), plan.range().to()));
  }

  @Test
  void rerunningOverwritesInsteadOfAdding() throws Exception {
    Plan plan = plan(BackfillSettings.from(spec.throttle()));
    backfill.start(plan, BackfillEvent.Listener.NONE).await();
    Map<HourPartition, String> first = world.checksums("visits_v2", plan.range().from(), plan.range().to());
    RunRecord again = backfill.start(plan, BackfillEvent.Listener.NONE).await();
    assertEquals(RunState.SUCCEEDED, again.state());
    assertEquals(first, world.checksums("visits_v2", plan.range().from(), plan.range().to()));
  }

  @Test
  void aCancelledRunResumesToTheSameResult() throws Exception {
    Plan plan = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(2));
    var run = backfill.start(plan, event -> {});
    run.cancel();
    RunRecord cancelled = run.await();
    assertEquals(RunState.CANCELLED, cancelled.state(), cancelled.message());
    assertTrue(store.hours().ledger(cancelled.id()).size() < plan.hours().size());

    RunRecord resumed = backfill.start(new Planner(RepairContext.of(world.sql, store, spec)).resume(cancelled, plan.settings()),
        BackfillEvent.Listener.NONE).await();

    assertEquals(RunState.SUCCEEDED, resumed.state(), resumed.message());
    assertEquals(world.expected(plan.range().from(), plan.range().to()),
        world.checksums("visits_v2", plan.range().from(), plan.range().to()));
    assertEquals(plan.hours().size(), store.hours().ledger(cancelled.id()).size());
  }

  @Test
  void aSecondRunOnTheSameTargetIsRefusedWhileOneIsActive() throws Exception {
    Plan plan = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(1));
    var first = backfill.start(plan, BackfillEvent.Listener.NONE);
    first.pause();
    try {
      var e = assertThrows(HeldByAnotherProcessException.class, () -> backfill.start(plan, BackfillEvent.Listener.NONE));
      assertEquals(Optional.of(first.id()), e.runId());
      assertEquals(dev.cutover.engine.ledger.Operator.user(), e.user());
      assertTrue(e.getMessage().startsWith("The repair of " + world.database + ".visits_v2 is held by the backfill run "
          + first.id() + " by "), e.getMessage());
      assertTrue(e.getMessage().endsWith("; only one process may change it at a time. Wait for it to end, or cancel "
          + "the run there, then try again."), e.getMessage());
      assertEquals(dev.cutover.engine.ledger.Operator.actor(), e.holder().orElseThrow());
      assertEquals(RunState.PAUSED, store.run(first.id()).orElseThrow().state());
    } finally {
      first.resume();
      assertEquals(RunState.SUCCEEDED, first.await().state());
    }
    assertEquals(RunState.SUCCEEDED, backfill.start(plan, BackfillEvent.Listener.NONE).await().state(),
        "once the first run ends, the target is free");
  }

  @Test
  void aRestAfterEachBatchKeepsItsPlaceAtLeastAsLongAsTheBatchTook() throws Exception {
    // Concurrency 1, a rest of 100%: between the last hour one batch wrote and the start of the next, at least as
    // long as that batch took from its start to its last hour. Without the rest the next batch starts at once.
    Plan resting = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(6).withRestPercent(100));
    BatchClock clock = new BatchClock();
    RunRecord run = backfill.start(resting, clock).await();
    assertEquals(RunState.SUCCEEDED, run.state());
    clock.assertRestedFrom(0);
    assertTrue(run.parameters().contains("\"rest_percent\":100"), run.parameters());
  }

  @Test
  void aRestSetWhileTheRunRunsTakesEffectFromTheNextBatchAndIsKeptForAResume() throws Exception {
    // Started without a rest; the operator sets 100% at once (the console's Apply throttle, from its next batch on).
    Plan plain = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(6).withRestPercent(0));
    BatchClock clock = new BatchClock();
    BackfillRun handle = backfill.start(plain, clock);
    handle.setRestPercent(100);
    RunRecord run = handle.await();
    assertEquals(RunState.SUCCEEDED, run.state());
    // The batch under way when it was set may have let its place go already; every batch after it rests.
    clock.assertRestedFrom(1);
    assertTrue(run.parameters().contains("\"rest_percent\":100"), "a resume rests too: " + run.parameters());
  }

  @Test
  void anUnthrottledRunChecksumsAndRecordsFourBatchesAtOnceWhileEachInsertStaysOneBatch() throws Exception {
    // Nothing holds the run back: four batches of 6 hours to a task, their INSERTs one batch each, then one checksum
    // and one ledger statement. Each batch had a checksum and a ledger statement of its own before.
    Plan plain = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(6).withRestPercent(0));
    List<String> sent = new CopyOnWriteArrayList<>();
    List<BackfillEvent> events = new CopyOnWriteArrayList<>();
    var logged = new dev.cutover.engine.sql.Sql(StatementLog.of(world.db.dataSource(), sent));
    RunRecord run = new Backfill(logged, new StateStore(logged, world.database)).start(plain, events::add).await();
    assertEquals(RunState.SUCCEEDED, run.state(), run.message());
    assertEquals(world.expected(plain.range().from(), plain.range().to()),
        world.checksums("visits_v2", plain.range().from(), plain.range().to()));

    List<Integer> started = events.stream().filter(e -> e instanceof BackfillEvent.BatchStarted)
        .map(e -> ((BackfillEvent.BatchStarted) e).hours().size()).toList();
    int batches = (plain.hours().size() + 5) / 6;
    assertEquals(24, started.getFirst(), "the first task writes four batches: " + started);
    assertEquals((batches + 3) / 4, started.size(), started.toString());
    String target = spec.qualified(spec.targetTable());
    assertEquals(batches, sent.stream().filter(q -> q.startsWith("INSERT INTO " + target + " ")).count(),
        "one INSERT per batch of 6 hours, as the throttle says");
    assertEquals(started.size(), sent.stream().filter(q -> q.contains("cityHash64") && q.contains(" FROM " + target)).count(),
        "one checksum per task");
    assertEquals(started.size(), sent.stream().filter(q -> q.startsWith("INSERT INTO") && q.contains(".ledger ")).count(),
        "one ledger statement per task");
    var ledger = store.hours().ledger(run.id());
    assertEquals(plain.hours(), List.copyOf(ledger.keySet()));
    Map<HourPartition, String> expected = world.expected(plain.range().from(), plain.range().to());
    for (var entry : ledger.values()) {
      assertEquals(expected.getOrDefault(entry.hour(), "0:0"), entry.rows() + ":" + entry.checksum(),
          "the ledger of " + entry.hour() + " holds what the task's one checksum read for it");
    }
  }

  @Test
  void aRestSetWhileTheRunIsPausedAppliesToTheFirstTaskAfterTheResume() throws Exception {
    // Started unthrottled and paused at once; a rest is set, then the run resumes. Every task that starts after the
    // resume is one batch: the dispatcher decides a task's batches once it may start, not before it waits its turn.
    Plan plain = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(6).withRestPercent(0));
    List<Integer> started = new CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean resumed = new java.util.concurrent.atomic.AtomicBoolean();
    BackfillRun handle = backfill.start(plain, e -> {
      if (e instanceof BackfillEvent.BatchStarted b && resumed.get()) {
        started.add(b.hours().size());
      }
    });
    handle.pause();
    Thread.sleep(300); // whatever was dispatched before the pause has started by now
    handle.setRestPercent(10);
    resumed.set(true);
    handle.resume();
    RunRecord run = handle.await();
    assertEquals(RunState.SUCCEEDED, run.state(), run.message());
    assertTrue(!started.isEmpty() && started.stream().allMatch(n -> n <= 6), "tasks after the resume: " + started);
  }

  @Test
  void aRunThatRestsWritesOneBatchToATask() throws Exception {
    Plan resting = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(6).withRestPercent(10));
    List<BackfillEvent> events = new CopyOnWriteArrayList<>();
    RunRecord run = backfill.start(resting, events::add).await();
    assertEquals(RunState.SUCCEEDED, run.state(), run.message());
    assertTrue(events.stream().filter(e -> e instanceof BackfillEvent.BatchStarted)
        .allMatch(e -> ((BackfillEvent.BatchStarted) e).hours().size() <= 6), "what a rest follows is one batch");
  }

  /** When each batch of a run started and wrote its last hour, from its events. */
  private static final class BatchClock implements BackfillEvent.Listener {
    private final long t0 = System.nanoTime();
    private final List<double[]> batches = new CopyOnWriteArrayList<>(); // start, last hour written

    @Override
    public void on(BackfillEvent e) {
      double now = (System.nanoTime() - t0) / 1e9;
      if (e instanceof BackfillEvent.BatchStarted) {
        batches.add(new double[] {now, now});
      } else if (e instanceof BackfillEvent.HourWritten) {
        batches.getLast()[1] = now;
      }
    }

    /** Between each batch from {@code first} on and the next: a rest at least as long as the batch took. */
    void assertRestedFrom(int first) {
      assertTrue(batches.size() >= first + 4, "enough batches to rest between: " + batches.size());
      for (int i = first; i + 1 < batches.size(); i++) {
        double took = batches.get(i)[1] - batches.get(i)[0];
        double rested = batches.get(i + 1)[0] - batches.get(i)[1];
        assertTrue(rested >= took, "batch " + (i + 1) + " took " + took + " s and the next started " + rested
            + " s after its last hour");
      }
    }
  }

  @Test
  void aRowsPerSecondLimitHoldsTheRunBackAndBackPressureWaitsForTheLiveWriter() throws Exception {
    // Rows per second: whenever an hour is written, the rows written so far are within the ceiling times the time
    // since the start, but for the batch that was let start within it. A batch starts only once the rows of the
    // one before are counted.
    Plan limited = plan(BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(12).withRowsPerSecond(150));
    record Written(double seconds, long rows) {}
    List<Written> written = new CopyOnWriteArrayList<>();
    long started = System.nanoTime();
    RunRecord run = backfill.start(limited, e -> {
      if (e instanceof BackfillEvent.HourWritten w) {
        written.add(new Written((System.nanoTime() - started) / 1e9, w.rows()));
      }
    }).await();
    assertEquals(RunState.SUCCEEDED, run.state());
    List<Long> hourly = store.hours().ledger(run.id()).entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getValue().rows()).toList();
    long batch = 0;
    for (int i = 0; i + 12 <= hourly.size(); i++) {
      batch = Math.max(batch, hourly.subList(i, i + 12).stream().mapToLong(Long::longValue).sum());
    }
    long total = 0;
    for (Written w : written) {
      total += w.rows();
      assertTrue(total <= 150 * w.seconds() + batch, total + " rows written " + w.seconds() + " s after the start, "
          + "at a ceiling of 150 rows/s with batches of at most " + batch + " rows");
    }
    assertTrue(total > 3 * batch, "enough batches for the ceiling to hold back: " + total + " rows");

    // Back-pressure: new clicks arrive that the live writer has not aggregated, so it lags by hours.
    world.addClicks(world.liveEdge.plusHours(1), world.liveEdge.plusHours(4));
    Plan held = plan(BackfillSettings.from(spec.throttle()).withMaxLiveLag(Duration.ofMinutes(30)));
    List<BackfillEvent> events = new CopyOnWriteArrayList<>();
    var waiting = backfill.start(held, events::add);
    Thread.sleep(1500);
    assertTrue(events.stream().anyMatch(e -> e instanceof BackfillEvent.Progress p && p.waiting().startsWith(
        "the live writer lags ")), events.toString());
    assertTrue(events.stream().noneMatch(e -> e instanceof BackfillEvent.HourWritten), "nothing written while the live writer lags");
    waiting.cancel();
    assertEquals(RunState.CANCELLED, waiting.await().state());
  }
}
