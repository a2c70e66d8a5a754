package dev.cutover.engine.backfill;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.LedgerEntry;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.testing.HourlyWorld;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ClickHouse itself dies in the middle of a backfill and comes back: the run says so, retries, and ends right. */
class ServerKilledTest {

  @TempDir Path dir;

  @Test
  void aBackfillRidesOutAServerCrashAndEndsWithTheSameResult() throws Exception {
    EmbeddedServer first = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try (var c = DriverManager.getConnection(first.jdbcUrl(), first.user(), new String(first.password().resolve()));
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE world ENGINE = Atomic");
    }
    Database db = Database.open(first.profile("world"));
    HourlyWorld world = HourlyWorld.create(db, 3);
    TableSpec spec = world.spec();
    StateStore store = new StateStore(world.sql, world.database);
    BackfillSettings settings = BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(1)
        .withRowsPerSecond(400).withRetries(10, Duration.ofMillis(500));
    Plan plan = new Planner(RepairContext.of(world.sql, store, spec)).plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, false);
    List<BackfillEvent> events = new CopyOnWriteArrayList<>();
    BackfillRun run = new Backfill(world.sql, store).start(plan, events::add);

    while (events.stream().filter(e -> e instanceof BackfillEvent.HourWritten).count() < 5) {
      Thread.sleep(50);
    }
    ProcessHandle server = ProcessHandle.of(first.pid()).orElseThrow();
    server.destroyForcibly();
    server.onExit().get(30, TimeUnit.SECONDS);
    Thread.sleep(1500);
    EmbeddedServer second = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try {
      assertEquals(first.port(), second.port(), "the server comes back where its clients look for it");
      RunRecord end = run.await();

      assertEquals(RunState.SUCCEEDED, end.state(), end.message());
      var retries = events.stream().filter(e -> e instanceof BackfillEvent.Retrying).map(e -> (BackfillEvent.Retrying) e).toList();
      assertTrue(!retries.isEmpty(), "the outage was reported");
      assertTrue(retries.getFirst().error().startsWith("Could not "), retries.getFirst().error());
      assertTrue(retries.getFirst().error().endsWith("This can pass; Cutover retries it."), retries.getFirst().error());
      assertEquals(world.expected(plan.range().from(), plan.range().to()),
          world.checksums("visits_v2", plan.range().from(), plan.range().to()));
      assertTrue(store.hours().ledger(end.id()).values().stream().allMatch(e -> e.complete()));
    } finally {
      db.close();
      second.close();
      first.close();
      EmbeddedServer.stopRunning(dir, "the test is done");
    }
  }

  @Test
  void aServerDownLongerThanTheServerWaitStopsTheRunOnceWithASentenceAndItResumesWhenTheServerIsBack()
      throws Exception {
    EmbeddedServer first = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try (var c = DriverManager.getConnection(first.jdbcUrl(), first.user(), new String(first.password().resolve()));
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE world ENGINE = Atomic");
    }
    Database db = Database.open(first.profile("world"));
    HourlyWorld world = HourlyWorld.create(db, 2);
    TableSpec spec = world.spec();
    StateStore store = new StateStore(world.sql, world.database);
    Duration serverWait = Duration.ofSeconds(3);
    BackfillSettings settings = BackfillSettings.from(spec.throttle()).withConcurrency(2).withBatchHours(1)
        .withRowsPerSecond(400).withRetries(2, Duration.ofMillis(100)).withServerWait(serverWait);
    Plan plan = new Planner(RepairContext.of(world.sql, store, spec)).plan(Optional.empty(), Optional.empty(), Optional.empty(), settings, false);
    List<BackfillEvent> events = new CopyOnWriteArrayList<>();
    BackfillRun run = new Backfill(world.sql, store).start(plan, events::add);
    while (events.stream().filter(e -> e instanceof BackfillEvent.HourWritten).count() < 4) {
      Thread.sleep(50);
    }
    ProcessHandle server = ProcessHandle.of(first.pid()).orElseThrow();
    server.destroyForcibly();
    server.onExit().get(30, TimeUnit.SECONDS);
    long killed = System.nanoTime();

    // The server stays down: the run waits for it once, as a whole, then stops with one sentence.
    RunRecord failed = run.await();
    Duration took = Duration.ofNanos(System.nanoTime() - killed);
    assertEquals(RunState.FAILED, failed.state());
    assertTrue(failed.message().startsWith("The server has not answered for 3 s, since ")
        && failed.message().endsWith("resume the run once the server answers."), failed.message());
    assertTrue(took.compareTo(serverWait.plusSeconds(10)) < 0, "the run stops once its server wait is over, not "
        + "after every batch's retries: " + took.toMillis() + " ms");
    long written = events.stream().filter(e -> e instanceof BackfillEvent.HourWritten).count();
    var hourFailed = events.stream().filter(e -> e instanceof BackfillEvent.HourFailed).map(e -> (BackfillEvent.HourFailed) e)
        .toList();
    // In flight: two batches computing, behind them those still checksumming and replacing what they computed (a
    // batch frees its place once computed, so on a loaded machine several queue there), and those started in the
    // moment before the first failure told the run that the server is gone; every batch after stays pending.
    assertTrue(hourFailed.size() <= 6 * 2 && hourFailed.size() + written < plan.range().hours() / 2, "only the "
        + "batches in flight when the server went away fail, the rest stay "
        + "pending: " + hourFailed.size() + " failed, " + written + " written of " + plan.range().hours());
    assertTrue(hourFailed.stream().allMatch(f -> f.error().equals(failed.message())), hourFailed.toString());
    var waits = events.stream().filter(e -> e instanceof BackfillEvent.Retrying).map(e -> (BackfillEvent.Retrying) e)
        .toList();
    assertTrue(!waits.isEmpty() && waits.stream().allMatch(w -> w.error().startsWith("Could not ")), waits.toString());

    // The server comes back; this same process resumes the run, which ends as an uninterrupted one would.
    EmbeddedServer second = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try {
      assertEquals(first.port(), second.port());
      RunRecord end = new Backfill(world.sql, store).start(new Planner(RepairContext.of(world.sql, store, spec)).resume(failed,
          settings.withRetries(5, Duration.ofMillis(500))), BackfillEvent.Listener.NONE).await();
      assertEquals(RunState.SUCCEEDED, end.state(), end.message());
      assertEquals(world.expected(plan.range().from(), plan.range().to()),
          world.checksums("visits_v2", plan.range().from(), plan.range().to()));
      assertTrue(store.hours().ledger(end.id()).values().stream().allMatch(LedgerEntry::complete));
      assertEquals(plan.range().list(), List.copyOf(store.hours().ledger(end.id()).keySet()));
    } finally {
      db.close();
      second.close();
      first.close();
      EmbeddedServer.stopRunning(dir, "the test is done");
    }
  }
}
