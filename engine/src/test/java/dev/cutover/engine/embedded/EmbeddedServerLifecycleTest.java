package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.testing.TestEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start, stop, restart, join and crash of the embedded server on its own data directories (the
 * shared test server is left alone).
 */
class EmbeddedServerLifecycleTest {

  @TempDir Path dir;

  @AfterEach
  void stopWhatIsLeft() {
    EmbeddedServer.stopRunning(dir, "the test is done");
  }

  @Test
  void dataSurvivesStopAndRestart() throws Exception {
    EmbeddedServer first = start();
    assertTrue(first.owner());
    execute(first, "CREATE DATABASE keep ENGINE = Atomic");
    execute(first, "CREATE TABLE keep.t (x UInt32) ENGINE = MergeTree ORDER BY x");
    execute(first, "INSERT INTO keep.t VALUES (7), (35)");
    assertTrue(first.stop("the test stops it"));
    assertFalse(first.running());
    assertFalse(Files.exists(dir.resolve("server.properties")), "a stopped server withdraws its record");
    String log = Files.readString(dir.resolve("server.log"));
    assertTrue(log.contains("stopping (asked to stop: the test stops it)") && log.contains("stopped cleanly"), log);
    try (EmbeddedServer second = start()) {
      assertTrue(second.owner());
      assertEquals(42L, queryLong(second, "SELECT sum(x) FROM keep.t"));
    }
  }

  @Test
  void aSecondProcessJoinsTheRunningServerInsteadOfStartingOne() throws Exception {
    try (EmbeddedServer server = start()) {
      List<String> probe = runProbe(false);
      assertEquals(List.of("owner=false port=" + server.port() + " pid=" + server.pid()), probe);
      assertTrue(server.running(), "the joining process leaving does not stop the server");
      assertEquals(1L, queryLong(server, "SELECT 1"));
    }
  }

  @Test
  void thisProcessJoinsAServerThatAnotherProcessStarted() throws Exception {
    Process holder = probeProcess(true);
    try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream()))) {
      String line = out.readLine();
      assertTrue(line != null && line.startsWith("owner=true "), "holder says: " + line);
      try (EmbeddedServer joined = start()) {
        assertFalse(joined.owner());
        assertEquals(line, "owner=true port=" + joined.port() + " pid=" + joined.pid());
        assertEquals(2L, queryLong(joined, "SELECT 1 + 1"));
      }
      assertTrue(ProcessHandle.of(Long.parseLong(line.replaceAll(".*pid=", ""))).map(ProcessHandle::isAlive).orElse(false),
          "closing a joined server leaves it running");
    } finally {
      holder.getOutputStream().close();
      assertTrue(holder.waitFor(60, TimeUnit.SECONDS));
    }
  }

  @Test
  void aStaleRecordLeftByAKilledServerIsClearedAndTheStoreIsIntact() throws Exception {
    // Another Cutover process starts the server; then both are killed, as a crash would.
    Process holder = probeProcess(true);
    String line = new BufferedReader(new InputStreamReader(holder.getInputStream())).readLine();
    assertTrue(line != null && line.startsWith("owner=true "), "holder says: " + line);
    long deadPid = Long.parseLong(line.replaceAll(".*pid=", ""));
    try (EmbeddedServer joined = start()) {
      execute(joined, "CREATE DATABASE keep ENGINE = Atomic");
      execute(joined, "CREATE TABLE keep.t (x UInt32) ENGINE = MergeTree ORDER BY x");
      execute(joined, "INSERT INTO keep.t VALUES (1), (2), (3)");
    }
    ProcessHandle server = ProcessHandle.of(deadPid).orElseThrow();
    server.destroyForcibly();
    holder.destroyForcibly();
    server.onExit().get(30, TimeUnit.SECONDS);
    holder.waitFor(30, TimeUnit.SECONDS);
    assertTrue(Files.exists(dir.resolve("server.properties")), "a killed server leaves its record behind");

    try (EmbeddedServer second = start()) {
      assertTrue(second.owner());
      assertEquals(deadPid, second.clearedStaleRecordOf().orElseThrow());
      assertEquals(6L, queryLong(second, "SELECT sum(x) FROM keep.t"));
    }
  }

  /**
   * The process that started the server is killed (SIGKILL, no hook runs) while another uses it: the
   * server keeps serving that one; once it leaves too, the server stops by itself, and says why.
   */
  @Test
  void theServerOutlivesTheProcessThatStartedItWhileAnotherUsesIt() throws Exception {
    Process holder = probeProcess(true);
    String line = new BufferedReader(new InputStreamReader(holder.getInputStream())).readLine();
    assertTrue(line != null && line.startsWith("owner=true "), "holder says: " + line);
    ProcessHandle server = ProcessHandle.of(Long.parseLong(line.replaceAll(".*pid=", ""))).orElseThrow();
    EmbeddedServer joined = start();
    assertFalse(joined.owner());

    holder.destroyForcibly();
    holder.waitFor(30, TimeUnit.SECONDS);
    Thread.sleep(3000); // the server looks at its leases once a second
    assertTrue(server.isAlive(), "the server stopped with the process that started it");
    assertEquals(3L, queryLong(joined, "SELECT 1 + 2"), "and still serves the other");

    joined.close();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (server.isAlive() && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }
    assertFalse(server.isAlive(), "the server outlived its last client");
    String log = Files.readString(dir.resolve("server.log"));
    assertTrue(log.contains("(JoinProbe) is gone without letting go: its process ended"), log);
    assertTrue(log.contains("stopping (its last client left)"), log);
  }

  @Test
  void theSharedTestServerIsTheOneTheEngineTestsUse() {
    try (Database db = Database.open(ConnectionProfile.of(TestEngine.server().jdbcUrl(), "default",
        PasswordSource.none(), "cutover"))) {
      assertEquals("cutover", db.server().database());
    }
  }

  private EmbeddedServer start() {
    return EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
  }

  private List<String> runProbe(boolean hold) throws Exception {
    Process p = probeProcess(hold);
    p.getOutputStream().close();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "probe finished");
    List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
    assertEquals(0, p.exitValue(), "probe output: " + lines + new String(p.getErrorStream().readAllBytes()));
    return lines;
  }

  private Process probeProcess(boolean hold) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var command = new java.util.ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
        "-cp", System.getProperty("java.class.path"), JoinProbe.class.getName(), dir.toString()));
    if (hold) {
      command.add("hold");
    }
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  private static void execute(EmbeddedServer server, String sql) throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static long queryLong(EmbeddedServer server, String sql) throws Exception {
    try (Connection c = connect(server); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** As the server says: operator with the directory's secret on a restricted server (the default here). */
  private static Connection connect(EmbeddedServer server) throws Exception {
    return DriverManager.getConnection(server.jdbcUrl(), server.user(), new String(server.password().resolve()));
  }
}
