package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.testing.SilentPeer;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The headless check, as an operator runs it. */
class CheckCommandTest {

  @TempDir Path dir;

  private static CommandRun run(String... args) {
    return CommandRun.of(java.util.List.of(args));
  }

  @Test
  void checkOnTheEmbeddedEngineJoinsTheRunningServerAndPrintsTheOkLine() {
    // The test JVM's server runs on its own data directory; check joins it through that directory.
    Path data = TestEngine.server().dataDirectory();
    CommandRun outcome = run("check", "--data-dir", data.toString());
    assertEquals(0, outcome.exit(), outcome.err());
    assertEquals("ok: ClickHouse " + TestEngine.session().server().version() + " at 127.0.0.1:"
        + TestEngine.server().port() + " (embedded, data: " + data + ")", outcome.out().strip());
    assertEquals("", outcome.err(), "joining and connecting are said only with --verbose");
    assertTrue(TestEngine.server().running(), "a joining check leaves the shared server running");
    CommandRun verbose = run("check", "--verbose", "--data-dir", data.toString());
    assertEquals(0, verbose.exit(), verbose.err());
    assertTrue(verbose.err().contains("\nJoining the Cutover server running on " + data + "\n"), verbose.err());
    assertTrue(verbose.err().contains("  data dir  " + data + "  (from option --data-dir)"), verbose.err());
  }

  @Test
  void connectionOptionsBeforeTheCommandCountAsMuchAsAfterIt() {
    // Given before the command, a data directory or a server must never be dropped for the default one.
    Path data = TestEngine.server().dataDirectory();
    CommandRun before = run("--data-dir", data.toString(), "check");
    assertEquals(0, before.exit(), before.err());
    assertTrue(before.out().strip().endsWith("(embedded, data: " + data + ")"), before.out());
    CommandRun server = run("--jdbc-url", TestEngine.server().jdbcUrl(), "--database", "cutover", "check");
    assertEquals(0, server.exit(), server.err());
    assertTrue(server.out().strip().endsWith("(database cutover, user default)"), server.out());
    CommandRun twice = run("--data-dir", data.toString(), "check", "--data-dir", dir.toString());
    assertEquals(2, twice.exit(), twice.out());
    assertTrue(twice.err().startsWith("error: --data-dir is given twice, before and after the command, with two "
        + "values; give it once. See 'cutover check --help'."), twice.err());
    CommandRun nowhere = run("--data-dir", data.toString(), "help");
    assertEquals(2, nowhere.exit(), nowhere.out());
    assertTrue(nowhere.err().startsWith("error: 'cutover help' does not connect: leave out the connection options"),
        nowhere.err());
  }

  @Test
  void checkAgainstAServerByJdbcUrl() {
    CommandRun outcome = run("check", "--jdbc-url", TestEngine.server().jdbcUrl(), "--database", "cutover");
    assertEquals(0, outcome.exit(), outcome.err());
    assertTrue(outcome.out().startsWith("ok: ClickHouse 26.7"), outcome.out());
    assertTrue(outcome.out().strip().endsWith("(database cutover, user default)"), outcome.out());
  }

  /**
   * A port that accepts a connection and never answers (a stopped server, or not ClickHouse's): the check ends
   * within its bound, 15 s for the answer, with exit 3 and a sentence naming the address and the bound; so does any
   * other command's first connection. Before, it waited without end.
   */
  @Test
  @org.junit.jupiter.api.Timeout(value = 180, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void aServerThatAcceptsButNeverAnswersEndsTheFirstConnectionWithinItsBound() throws Exception {
    try (SilentPeer peer = SilentPeer.silent()) {
      for (List<String> command : List.of(List.of("check"), List.of("status", "--spec", dir.resolve("any.yaml")
          .toString()))) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--jdbc-url", peer.jdbcUrl(), "--database", "cutover"));
        long began = System.nanoTime();
        CommandRun outcome = CommandRun.of(args);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began);
        System.out.println("[silent-server] cutover " + command.getFirst() + " ended after " + seconds + " s");
        assertEquals(3, outcome.exit(), outcome.err());
        assertTrue(outcome.err().startsWith("error: The server at 127.0.0.1:" + peer.port() + " accepted the "
            + "connection but sent no answer within 15 s; check that the JDBC URL names ClickHouse's HTTP port"),
            outcome.err());
        assertTrue(seconds < 45, command.getFirst() + " ended after " + seconds + " s; its bound is 25 s");
      }
    }
  }

  @Test
  void anUnknownOptionIsBadInput() {
    CommandRun outcome = run("check", "--pasword", "x");
    assertEquals(2, outcome.exit());
    assertTrue(outcome.err().startsWith("error: Unknown options: '--pasword', 'x'"), outcome.err());
  }

  @Test
  void theEmbeddedEngineStartsOnAFreshDataDirectoryAndStopsWhenItsIdlePeriodEnds() throws Exception {
    CommandRun outcome = run("check", "--verbose", "--data-dir", dir.toString());
    assertEquals(0, outcome.exit(), outcome.err());
    assertTrue(outcome.out().startsWith("ok: ClickHouse 26.7"), outcome.out());
    assertTrue(outcome.out().strip().endsWith("(embedded, data: " + dir + ")"), outcome.out());
    assertTrue(outcome.err().contains("Starting ClickHouse on 127.0.0.1:"), outcome.err());
    // The server outlives the command for its idle period, which the build sets to zero.
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    String log = java.nio.file.Files.readString(dir.resolve("server.log"));
    while (!log.contains("stopped cleanly") && System.nanoTime() < deadline) {
      Thread.sleep(200);
      log = java.nio.file.Files.readString(dir.resolve("server.log"));
    }
    assertTrue(log.contains("stopped cleanly (its last client left)"), log);
    assertTrue(!java.nio.file.Files.exists(dir.resolve("server.properties")), "no record points at the stopped server");
  }
}
