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
import dev.cutover.engine.sql.Timeouts;
import dev.cutover.engine.testing.HourlyWorld;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClickHouse stops answering in the middle of a backfill without closing a connection (its process
 * stopped with SIGSTOP, as a hung or frozen server would be): the run ends within its server wait,
 * resumable, with a sentence; once the server runs again, the resume ends as an uninterrupted run.
 */
class ServerFrozenTest {

  /** What the run may take beyond its server wait (or the silence bound, if longer): a probe and the run's end. */
  private static final Duration MARGIN = Duration.ofSeconds(15);
  /** What a loaded two-core machine may add to that. */
  private static final Duration LOAD = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void aFrozenServerEndsTheRunWithinItsServerWaitAndTheRunResumesOnceItAnswers() throws Exception {
    EmbeddedServer server = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try (var c = DriverManager.getConnection(server.jdbcUrl(), server.user(), new String(server.password().resolve()));
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE world ENGINE = Atomic");
    }
    Database db = Database.open(server.profile("world"));
    boolean frozen = false;
    try {
      HourlyWorld world = HourlyWorld.create(db, 3);
      TableSpec spec = world.spec();
      StateStore store = new StateStore(world.sql, world.database);
      // The shortest wait the command line takes (--server-wait 1).
      Duration serverWait = Duration.ofMinutes(1);
      BackfillSettings settings = BackfillSettings.from(spec.throttle()).withConcurrency(2).withBatchHours(1)
          .withRowsPerSecond(300).withRetries(3, Duration.ofMillis(200)).withServerWait(serverWait);
      Plan plan = new Planner(RepairContext.of(world.sql, store, spec)).plan(Optional.empty(), Optional.empty(), Optional.empty(),
          settings, false);
      List<BackfillEvent> events = new CopyOnWriteArrayList<>();
      BackfillRun run = new Backfill(world.sql, store).start(plan, events::add);
      while (events.stream().filter(e -> e instanceof BackfillEvent.HourWritten).count() < 4) {
        Thread.sleep(50);
      }

      signal("STOP", server.pid());
      frozen = true;
      long stopped = System.nanoTime();
      Duration bound = max(serverWait, Timeouts.SILENCE).plus(MARGIN);
      RunRecord ended = run.completion().get(bound.plus(LOAD).toSeconds(), TimeUnit.SECONDS);
      Duration took = Duration.ofNanos(System.nanoTime() - stopped);
      System.out.println("[server-frozen] the run ended " + took.toMillis() + " ms after the server stopped; bound "
          + bound.toSeconds() + " s");

      assertTrue(took.compareTo(bound.plus(LOAD)) < 0, "the run ended " + took.toMillis() + " ms after the server "
          + "stopped answering; the bound is " + bound.toSeconds() + " s");
      assertEquals(RunState.FAILED, ended.state(), ended.message());
      assertTrue(ended.message().startsWith("The server has not answered for 60 s, since ")
          && ended.message().contains("the server sent nothing for 60 s, not even progress")
          && ended.message().endsWith("resume the run once the server answers."), ended.message());
      assertTrue(took.compareTo(serverWait) >= 0, "the run waited for its server: " + took.toMillis() + " ms");
      var waits = events.stream().filter(e -> e instanceof BackfillEvent.Retrying).map(e -> (BackfillEvent.Retrying) e)
          .toList();
      assertTrue(waits.stream().anyMatch(w -> w.error().contains("the server sent nothing for 60 s")), waits.toString());
      long written = events.stream().filter(e -> e instanceof BackfillEvent.HourWritten).count();
      long failed = events.stream().filter(e -> e instanceof BackfillEvent.HourFailed).count();
      assertTrue(written + failed < plan.range().hours(), "the hours after the batches in flight stay pending: "
          + written + " written, " + failed + " failed of " + plan.range().hours());

      signal("CONT", server.pid());
      frozen = false;
      assertEquals(1L, world.sql.queryLong("ask the server", "SELECT 1"));
      // Nothing was written to a server that gave no answer: its record reads as interrupted, and resumes.
      assertEquals("interrupted", store.run(ended.id()).orElseThrow().shownState(Instant.now()));
      RunRecord end = new Backfill(world.sql, store).start(new Planner(RepairContext.of(world.sql, store, spec)).resume(ended,
          settings), BackfillEvent.Listener.NONE).await();
      assertEquals(RunState.SUCCEEDED, end.state(), end.message());
      assertEquals(world.expected(plan.range().from(), plan.range().to()),
          world.checksums("visits_v2", plan.range().from(), plan.range().to()));
      assertTrue(store.hours().ledger(end.id()).values().stream().allMatch(LedgerEntry::complete));
      assertEquals(plan.range().list(), List.copyOf(store.hours().ledger(end.id()).keySet()));
    } finally {
      if (frozen) {
        signal("CONT", server.pid());
      }
      db.close();
      server.close();
      EmbeddedServer.stopRunning(dir, "the test is done");
    }
  }

  private static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
    assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " " + pid);
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
