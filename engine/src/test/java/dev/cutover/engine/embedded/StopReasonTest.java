package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.EngineProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every stop of the embedded server says in server.log why it stopped, also when nobody gave a reason: a
 * client that killed the serving query (the log once said "stopped cleanly (null)"), a stop asked with an
 * empty reason, and an empty request file written by hand.
 */
class StopReasonTest {

  @TempDir Path dir;

  @AfterEach
  void stopWhatIsLeft() {
    EmbeddedServer.stopRunning(dir, "the test is done");
  }

  @Test
  void aServerWhoseServingQueryAClientKilledSaysSo() throws Exception {
    EmbeddedServer server = start();
    ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow();
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(),
        new String(server.password().resolve())); Statement s = c.createStatement()) {
      s.execute("KILL QUERY WHERE query_id = '" + ServerMain.KEEP_ALIVE + "' SYNC");
    } catch (SQLException e) {
      // the server may close the connection as it goes down
    }
    assertTrue(process.onExit().get(60, TimeUnit.SECONDS) != null, "the server ended");
    server.close();
    String log = Files.readString(dir.resolve("server.log"));
    assertTrue(log.contains("server " + server.pid() + ": stopped cleanly (ClickHouse ended its serving query without "
        + "a stop being asked: a client killed it (KILL QUERY) or shut the server down (SYSTEM SHUTDOWN))"), log);
    assertFalse(log.contains("null"), log);
    assertEquals("it stopped (" + ServerLife.UNASKED + ")", server.whyStopped().orElseThrow());
  }

  @Test
  void aStopAskedWithoutAReasonNamesWhoAsked() throws Exception {
    EmbeddedServer server = start();
    server.close();
    assertTrue(EmbeddedServer.stopRunning(dir, " ").isPresent());
    String log = Files.readString(dir.resolve("server.log"));
    assertTrue(log.contains("server " + server.pid() + ": stopped cleanly (asked to stop: by process "
        + ProcessHandle.current().pid() + " ("), log);
    assertTrue(log.contains("(no reason given))"), log);
    assertFalse(log.contains("null"), log);
  }

  @Test
  void anEmptyStopRequestWrittenByHandSaysNoReasonWasGiven() throws Exception {
    EmbeddedServer server = start();
    ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow();
    server.close();
    Files.writeString(dir.resolve("stop.request"), "\n"); // as touch or an editor leaves it
    assertTrue(process.onExit().get(60, TimeUnit.SECONDS) != null, "the server ended");
    String log = Files.readString(dir.resolve("server.log"));
    assertTrue(log.contains("server " + server.pid() + ": stopped cleanly (asked to stop: (no reason given))"), log);
  }

  private EmbeddedServer start() {
    return EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), ServerAccess.restricted(),
        Duration.ofMinutes(5), EngineProgress.NONE);
  }
}
