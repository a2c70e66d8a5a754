package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.EngineProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server is stopped again and again: by SIGTERM, by its last client leaving, and by a
 * stop request; idle and while clients insert and read. Every stop is graceful: no JVM crash file,
 * the log says it stopped cleanly, and every table is intact at the next start, holding every
 * insert that was acknowledged. {@code -Dcutover.stopCycles=N} sets the number of cycles (6 in the
 * normal build, 50 with {@code -Psoak}).
 */
class EmbeddedServerStopTest {

  @TempDir Path dir;

  @Test
  void everyStopIsGracefulIdleAndUnderLoad() throws Exception {
    int cycles = Integer.getInteger("cutover.stopCycles", 6);
    long acknowledged = 0;
    long unknown = 0;
    List<String> ways = new ArrayList<>();
    for (int cycle = 0; cycle < cycles; cycle++) {
      long began = System.nanoTime();
      EmbeddedServer server = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), ServerAccess.restricted(),
          Duration.ZERO, EngineProgress.NONE);
      assertTrue(server.owner(), "cycle " + cycle + " starts its own server");
      try (Connection c = connect(server); Statement s = c.createStatement()) {
        if (cycle == 0) {
          s.execute("CREATE DATABASE keep ENGINE = Atomic");
          s.execute("CREATE TABLE keep.t (x UInt64) ENGINE = MergeTree ORDER BY x");
        }
        ResultSet rs = s.executeQuery("SELECT count(), sum(x) = count() * (count() - 1) / 2 OR count() = 0 FROM "
            + "(SELECT x FROM keep.t) SETTINGS max_threads = 1");
        rs.next();
        long count = rs.getLong(1);
        assertTrue(count >= acknowledged && count <= acknowledged + unknown, "cycle " + cycle + ": " + count
            + " rows, " + acknowledged + " acknowledged, " + unknown + " inserts of unknown outcome");
        ResultSet check = s.executeQuery("CHECK TABLE keep.t SETTINGS check_query_single_value_result = 1");
        assertTrue(!check.next() || check.getInt(1) == 1, "cycle " + cycle + ": keep.t checks out");
        acknowledged = count;
        unknown = 0;
      }
      boolean load = cycle % 2 == 1;
      AtomicBoolean running = new AtomicBoolean(load);
      AtomicLong inserted = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      List<Thread> clients = new ArrayList<>();
      for (int t = 0; load && t < 3; t++) {
        int thread = t;
        clients.add(Thread.ofPlatform().start(() -> {
          while (running.get()) {
            try (Connection c = connect(server); Statement s = c.createStatement()) {
              if (thread == 0) {
                s.executeQuery("SELECT count(), sum(x) FROM keep.t").close();
              } else {
                s.execute("INSERT INTO keep.t SELECT number FROM numbers(1000)");
                inserted.addAndGet(1000);
              }
            } catch (Exception e) {
              if (thread != 0) {
                failed.addAndGet(1000);
              }
            }
          }
        }));
      }
      Thread.sleep(load ? 1200 : 200);
      long stopAsked = System.nanoTime();
      // A server gone before it was asked to stop is a failure of its own: the log says why it went.
      int number = cycle;
      ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow(() -> new AssertionError("cycle " + number
          + ": the server (process " + server.pid() + ") ended before it was asked to stop; its log ends: "
          + ServerLog.tail(new ServerDirectory(dir), 12)));
      String way = switch (cycle % 3) {
        case 0 -> {
          process.destroy(); // SIGTERM
          yield "SIGTERM";
        }
        case 1 -> {
          server.close(); // its last client leaves; the server's idle period is zero
          yield "last client left";
        }
        default -> {
          server.stop("cycle " + cycle);
          yield "stop request";
        }
      };
      assertTrue(process.onExit().get(60, TimeUnit.SECONDS) != null, "cycle " + cycle + " (" + way + ") stopped");
      running.set(false);
      for (Thread t : clients) {
        t.join();
      }
      server.close();
      ways.add(way + (load ? " under load" : "") + String.format(" (cycle %.1f s, stop %.1f s)",
          (System.nanoTime() - began) / 1e9, (System.nanoTime() - stopAsked) / 1e9));
      acknowledged += inserted.get(); // every acknowledged insert must stay
      unknown = failed.get(); // an insert cut off by the stop may or may not have landed
      try (var crashes = Files.list(dir.resolve("crashes"))) {
        assertEquals(List.of(), crashes.toList(), "cycle " + cycle + " (" + way + "): no crash file");
      }
      String log = Files.readString(dir.resolve("server.log"));
      assertTrue(log.contains("server " + process.pid() + ": stopped cleanly"), "cycle " + cycle + " (" + way + "): "
          + EngineLibrary.lastLines(log, 8));
    }
    System.out.println("[server-stops] " + cycles + " stops, each graceful: " + ways);
  }

  @Test
  void aServerWhoseDataFolderIsDeletedStopsInsteadOfServingNothingForever() throws Exception {
    Path data = dir.resolve("doomed");
    EmbeddedServer server = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(), ServerAccess.restricted(),
        Duration.ofMinutes(5), EngineProgress.NONE);
    ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow();
    server.close();
    try (var files = Files.walk(data)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
    assertTrue(process.onExit().get(60, TimeUnit.SECONDS) != null, "the server stopped although its idle period is 5 min");
  }

  private static Connection connect(EmbeddedServer server) throws Exception {
    return DriverManager.getConnection(server.jdbcUrl(), server.user(), new String(server.password().resolve()));
  }
}
