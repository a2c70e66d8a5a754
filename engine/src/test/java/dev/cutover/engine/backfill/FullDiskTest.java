package dev.cutover.engine.backfill;

import dev.cutover.engine.ledger.RepairContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Engine;
import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillSettings;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.DiskSpace;
import dev.cutover.engine.testing.HourlyWorld;
import dev.cutover.engine.testing.SmallDisk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk of the embedded server fills during a backfill. The run pauses before its next batch and says
 * why; reads (the status, the runs, the ledger) still answer, on a disk with no byte left too; once space is
 * freed the run goes on by itself to a v2 equal to the corrected transform, with its history intact, and the
 * server starts again afterwards: no table definition was left empty.
 */
class FullDiskTest {

  @TempDir Path dir;

  @Test
  void aDiskThatFillsPausesTheBackfillReadsStillWorkAndTheRunEndsRightOnceSpaceReturns() throws Exception {
    Optional<SmallDisk> mounted = SmallDisk.mount(dir.resolve("disk"), 256);
    Assumptions.assumeTrue(mounted.isPresent(), "this machine lets no test mount a tmpfs (root is needed)");
    try (SmallDisk disk = mounted.get()) {
      Path data = disk.root().resolve("data");
      EmbeddedServer server = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
      try {
        try (var c = DriverManager.getConnection(server.jdbcUrl(), server.user(), new String(server.password().resolve()));
            var s = c.createStatement()) {
          s.execute("CREATE DATABASE world ENGINE = Atomic");
        }
        Database db = Database.open(server.profile("world"));
        HourlyWorld world = HourlyWorld.create(db, 3);
        TableSpec spec = world.spec();
        StateStore store = new StateStore(world.sql, world.database);
        BackfillSettings settings = BackfillSettings.from(spec.throttle()).withConcurrency(1).withBatchHours(1)
            .withRowsPerSecond(25).withRetries(3, Duration.ofMillis(500));
        Plan plan = new Planner(RepairContext.of(world.sql, store, spec)).plan(Optional.empty(), Optional.empty(), Optional.empty(),
            settings, false);
        List<BackfillEvent> events = new CopyOnWriteArrayList<>();
        BackfillRun run = new Backfill(world.sql, store).start(plan, events::add);
        await(Duration.ofSeconds(60), () -> events.stream().filter(e -> e instanceof BackfillEvent.HourWritten).count() >= 5,
            "five hours written");

        // Others fill the disk: it keeps half the reserve.
        disk.leave(DiskSpace.reserve() / 2);
        System.out.println("[full-disk] " + DiskSpace.size(disk.free()) + " left free after "
            + events.stream().filter(e -> e instanceof BackfillEvent.HourWritten).count() + " hours written");
        await(Duration.ofSeconds(60), () -> store.run(run.id()).map(r -> r.state() == RunState.PAUSED).orElse(false),
            "the run's record paused");
        RunRecord paused = store.run(run.id()).orElseThrow();
        assertTrue(paused.message().startsWith("paused: the server's disk has "), paused.message());
        assertTrue(paused.message().contains("less than the reserve of " + DiskSpace.size(DiskSpace.reserve())),
            paused.message());
        long doneWhenPaused = store.hours().ledger(run.id()).values().stream().filter(e -> e.complete()).count();
        Thread.sleep(3000);
        assertEquals(doneWhenPaused, store.hours().ledger(run.id()).values().stream().filter(e -> e.complete()).count(),
            "no batch starts while the disk is short");

        // Not a byte left: what an operator reads still answers, and nothing rewrites a table's definition.
        disk.leave(0);
        Engine engine = new Engine(db);
        assertEquals(RunState.PAUSED, engine.backfills().run(run.id()).orElseThrow().state());
        assertTrue(engine.repairs().status(spec).repair().isPresent(), "the status reads the repair");
        assertFalse(store.hours().ledger(run.id()).isEmpty());
        var refused = org.junit.jupiter.api.Assertions.assertThrows(dev.cutover.engine.api.QueryFailedException.class,
            () -> world.sql.execute("create a table", "CREATE TABLE scratch (x UInt8) ENGINE = MergeTree ORDER BY x"));
        assertTrue(refused.getMessage().contains("Cutover keeps free before it creates or alters a table"), refused.getMessage());

        disk.clear();
        RunRecord end = run.await();
        assertEquals(RunState.SUCCEEDED, end.state(), end.message());
        assertEquals(world.expected(plan.range().from(), plan.range().to()),
            world.checksums("visits_v2", plan.range().from(), plan.range().to()));
        assertTrue(store.hours().ledger(end.id()).values().stream().allMatch(e -> e.complete()));
        assertEquals(plan.hours().size(), store.hours().ledger(end.id()).size());
        db.close();
      } finally {
        server.close();
        EmbeddedServer.stopRunning(data, "the test is done");
      }

      List<Path> empty;
      try (var files = Files.walk(data.resolve("clickhouse"))) {
        empty = files.filter(f -> f.toString().endsWith(".sql")).filter(f -> f.toFile().length() == 0).toList();
      }
      assertEquals(List.of(), empty, "no table's definition was left empty");
      EmbeddedServer again = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
      try (Database db = Database.open(again.profile("world"))) {
        StateStore store = new StateStore(new dev.cutover.engine.sql.Sql(db.dataSource()), "world");
        assertEquals(RunState.SUCCEEDED, store.runs("world.visits_v2").getFirst().state(),
            "the run's history is there after a restart");
      } finally {
        again.close();
        EmbeddedServer.stopRunning(data, "the test is done");
      }
    }
  }

  private static void await(Duration limit, BooleanSupplier done, String what) throws InterruptedException {
    Instant until = Instant.now().plus(limit);
    while (!done.getAsBoolean()) {
      if (Instant.now().isAfter(until)) {
        throw new AssertionError("not within " + limit.toSeconds() + " s: " + what);
      }
      Thread.sleep(200);
    }
  }
}
