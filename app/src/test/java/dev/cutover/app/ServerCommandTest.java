package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.embedded.EmbeddedServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cutover server}, {@code server status} and {@code server stop}, as an operator runs them. */
class ServerCommandTest {

  @TempDir Path dir;

  @AfterEach
  void stopServer() {
    EmbeddedServer.stopRunning(dir, "the test is done");
  }

  @Test
  void statusSaysWhoUsesTheServerAndStopEndsItForEveryone() throws Exception {
    CommandRun none = CommandRun.of(List.of("server", "status", "--data-dir", dir.toString()));
    assertEquals(ExitCodes.CONNECTION, none.exit());
    assertEquals("No server runs on " + dir + ".", none.out().strip());

    // A terminal that keeps the server up, as an operator would start one.
    Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "server", "--data-dir", dir.toString(),
        "--idle", "10m", "--json").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    List<String> printed = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream()))) {
      printed.add(out.readLine());
      assertTrue(printed.getFirst() != null && printed.getFirst().contains("\"event\":\"started\""),
          "cutover server printed " + printed);
      JsonContract.requireFits("server", printed.getFirst());

      CommandRun status = CommandRun.of(List.of("server", "status", "--data-dir", dir.toString()));
      assertEquals(ExitCodes.OK, status.exit(), status.err());
      CommandRun statusJson = CommandRun.of(List.of("server", "status", "--data-dir", dir.toString(), "--json"));
      JsonContract.requireDocument("server-status", statusJson);
      assertTrue(statusJson.out().contains("\"running\":true") && statusJson.out().contains("(cutover server)"),
          statusJson.out());
      assertTrue(status.out().startsWith("The server serves at 127.0.0.1:"), status.out());
      assertTrue(status.out().contains("Used by process " + holder.pid() + " (cutover server)."), status.out());

      CommandRun stop = CommandRun.of(List.of("server", "stop", "--data-dir", dir.toString()));
      assertEquals(ExitCodes.OK, stop.exit(), stop.err());
      assertTrue(stop.out().startsWith("stopped: the server at 127.0.0.1:"), stop.out());
      assertTrue(stop.out().strip().endsWith("which process " + holder.pid() + " (cutover server) used"), stop.out());

      // The terminal that held it says so and ends by itself.
      for (String line; (line = out.readLine()) != null; ) {
        printed.add(line);
      }
      assertTrue(holder.waitFor(30, TimeUnit.SECONDS), "cutover server ended once its server stopped");
    }
    assertEquals(ExitCodes.OK, holder.exitValue());
    JsonContract.requireFits("server", printed.getLast());
    assertTrue(printed.getLast().contains("\"event\":\"stopped\"") && printed.getLast().contains("The server stopped "
        + "(see "), printed.toString());
    String log = Files.readString(dir.resolve("server.log"));
    assertTrue(log.contains("client " + holder.pid() + " (cutover server) joined"), log);
    assertTrue(log.contains("stopping (asked to stop: cutover server stop, by "), log);
    assertTrue(log.contains("stopped cleanly"), log);

    CommandRun after = CommandRun.of(List.of("server", "stop", "--data-dir", dir.toString()));
    assertEquals("No server runs on " + dir + ".", after.out().strip());
    CommandRun afterJson = CommandRun.of(List.of("server", "stop", "--data-dir", dir.toString(), "--json"));
    JsonContract.requireDocument("server-stop", afterJson);
    assertTrue(afterJson.out().contains("\"stopped\":false"), afterJson.out());
  }

  /**
   * A store a full disk left with an empty table definition: every command says so, naming it and the recovery,
   * instead of a stack of failed starts; {@code server recover} sets it aside and the next command works with
   * Cutover's state as it was.
   */
  @Test
  void aStoreWithAnEmptyDefinitionIsNamedAndRecovered() throws Exception {
    // Cutover's own tables, as the first step that writes its state makes them.
    try (var session = dev.cutover.engine.Session.embedded(dir, dev.cutover.engine.api.EngineProgress.NONE)) {
      new dev.cutover.engine.ledger.StateStore(session.database().sql(), "cutover").ensureSchema();
    }
    CommandRun.of(List.of("server", "stop", "--data-dir", dir.toString()));
    Path store = dir.resolve("clickhouse");
    String database = Files.readString(store.resolve("metadata").resolve("cutover.sql"));
    String uuid = database.replaceAll("(?s).*UUID '([0-9a-f-]{36})'.*", "$1");
    Path audit = store.resolve("store").resolve(uuid.substring(0, 3)).resolve(uuid).resolve("audit.sql");
    Files.write(audit, new byte[0]);

    CommandRun refused = CommandRun.of(List.of("check", "--data-dir", dir.toString()));
    assertEquals(ExitCodes.EMBEDDED, refused.exit(), refused.err());
    assertTrue(refused.err().contains("holds 1 table definition(s) left empty, as a disk that ran out of space leaves "
        + "them: cutover.audit (clickhouse/store/"), refused.err());
    assertTrue(refused.err().contains("cutover server recover"), refused.err());

    CommandRun recovered = CommandRun.of(List.of("server", "recover", "--data-dir", dir.toString(), "--json"));
    assertEquals(ExitCodes.OK, recovered.exit(), recovered.err());
    JsonContract.requireDocument("server-recover", recovered);
    assertTrue(recovered.out().contains("\"set_aside\":[\"cutover.audit\"]"), recovered.out());
    CommandRun after = CommandRun.of(List.of("check", "--data-dir", dir.toString()));
    assertEquals(ExitCodes.OK, after.exit(), after.err());
    CommandRun nothing = CommandRun.of(List.of("server", "stop", "--data-dir", dir.toString()));
    assertEquals(ExitCodes.OK, nothing.exit());
    CommandRun again = CommandRun.of(List.of("server", "recover", "--data-dir", dir.toString()));
    assertEquals("Nothing to recover: no table definition in " + dir + " is empty.", again.out().strip());
  }

  @Test
  void anIdlePeriodThatIsNotADurationIsBadInputAndStartsNothing() {
    CommandRun bad = CommandRun.of(List.of("server", "--data-dir", dir.toString(), "--idle", "soon"));
    assertEquals(ExitCodes.INPUT, bad.exit());
    assertTrue(bad.err().contains("The idle period 'soon' (--idle) is not a duration; give one such as 300 (seconds), 90s, 10m or 2h."),
        bad.err());
    assertTrue(!Files.exists(dir.resolve("server.log")), "nothing was started");
  }

  @Test
  void serverCommandsRefuseARemoteServer() {
    CommandRun remote = CommandRun.of(List.of("server", "status", "--jdbc-url", "jdbc:clickhouse://db.example:8123"));
    assertEquals(ExitCodes.INPUT, remote.exit());
    assertTrue(remote.err().contains("cutover server works on the embedded engine only; remove --jdbc-url (and unset "
        + "CUTOVER_JDBC_URL), or name the data directory with --data-dir."), remote.err());
  }
}
