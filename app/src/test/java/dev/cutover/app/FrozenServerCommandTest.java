package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.testing.HourlyWorld;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server stops answering (SIGSTOP) in the middle of {@code cutover backfill --server-wait 1}: the
 * command ends within that minute and a margin, with exit 5, the sentence and the command that resumes the run; once
 * the server runs again, that command finishes the run. Before, the command printed nothing more, for ever.
 */
class FrozenServerCommandTest {

  /** The server wait, a probe and the run's end; then what a loaded two-core machine may add. */
  private static final Duration BOUND = Duration.ofSeconds(75);
  private static final Duration LOAD = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void aBackfillWhoseServerStopsAnsweringEndsWithinItsServerWaitAndSaysHowToResume() throws Exception {
    Path data = dir.resolve("data");
    EmbeddedServer server = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    try (var c = DriverManager.getConnection(server.jdbcUrl(), server.user(), new String(server.password().resolve()));
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE world ENGINE = Atomic");
    }
    Database db = Database.open(server.profile("world"));
    boolean frozen = false;
    try {
      HourlyWorld world = HourlyWorld.create(db, 3);
      Path spec = Files.writeString(dir.resolve("visits.yaml"), world.specYaml());
      CompletableFuture<CommandRun> backfill = CompletableFuture.supplyAsync(() -> CommandRun.of(List.of("backfill",
          "--data-dir", data.toString(), "--spec", spec.toString(), "--concurrency", "2", "--batch-hours", "1",
          "--rows-per-second", "300", "--server-wait", "1")));
      while (hoursWritten(world) < 4) {
        assertTrue(!backfill.isDone(), () -> "the backfill ended early: " + backfill.join().err());
        Thread.sleep(50);
      }

      signal("STOP", server.pid());
      frozen = true;
      long stopped = System.nanoTime();
      CommandRun outcome = backfill.get(BOUND.plus(LOAD).toSeconds(), TimeUnit.SECONDS);
      Duration took = Duration.ofNanos(System.nanoTime() - stopped);
      System.out.println("[server-frozen] cutover backfill ended " + took.toMillis() + " ms after the server stopped");

      assertEquals(5, outcome.exit(), outcome.out() + outcome.err());
      List<String> lines = outcome.out().lines().toList();
      assertTrue(lines.getFirst().startsWith("failed: run ") && lines.getFirst().contains(", The server has not "
          + "answered for 60 s, since ") && lines.getFirst().endsWith("resume the run once the server answers."),
          outcome.out());
      String runId = lines.getFirst().substring("failed: run ".length(), lines.getFirst().indexOf(','));
      assertEquals(List.of("Resume it with:", "  ./cutover backfill --spec " + spec + " --resume " + runId),
          lines.subList(1, lines.size()));
      assertTrue(outcome.err().contains("the server does not answer; the run waits for it (at most 60 s in all)"),
          outcome.err());
      assertTrue(took.compareTo(BOUND.plus(LOAD)) < 0, "ended after " + took.toMillis() + " ms");

      signal("CONT", server.pid());
      frozen = false;
      CommandRun resumed = CommandRun.of(List.of("backfill", "--data-dir", data.toString(), "--spec", spec.toString(),
          "--resume", runId));
      assertEquals(0, resumed.exit(), resumed.out() + resumed.err());
      assertTrue(resumed.out().startsWith("succeeded: run " + runId + ", "), resumed.out());
      // Every hour below the boundary, as an uninterrupted run writes it.
      var boundary = world.liveEdge.plusHours(-3);
      assertEquals(world.expected(world.first, boundary), world.checksums("visits_v2", world.first, boundary));
    } finally {
      if (frozen) {
        signal("CONT", server.pid());
      }
      db.close();
      server.close();
      EmbeddedServer.stopRunning(data, "the test is done");
    }
  }

  /** The hours v2 holds; none before the run has created it. */
  private static long hoursWritten(HourlyWorld world) {
    if (world.sql.queryLong("look for v2", "SELECT count() FROM system.tables WHERE database = currentDatabase() "
        + "AND name = 'visits_v2'") == 0) {
      return 0;
    }
    return world.sql.queryLong("count the hours written", "SELECT uniqExact(hour) FROM visits_v2");
  }

  private static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
    assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " " + pid);
  }
}
