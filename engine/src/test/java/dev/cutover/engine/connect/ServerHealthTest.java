package dev.cutover.engine.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Session;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.ServerHealth;
import dev.cutover.engine.embedded.EmbeddedServer;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.testing.SilentPeer;
import dev.cutover.engine.testing.TestEngine;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a status bar learns about the server, and how fast: a gone server is a sentence within a second. */
class ServerHealthTest {

  private static final Duration PROBE = Duration.ofMillis(500);

  @TempDir Path dir;

  @AfterEach
  void stopServer() {
    EmbeddedServer.stopRunning(dir, "the test is done");
  }

  @Test
  void aServerThatRunsAnswers() {
    ServerHealth health = TestEngine.session().health(PROBE);
    assertTrue(health.answering(), health.sentence());
    assertEquals("ClickHouse at 127.0.0.1:" + TestEngine.server().port() + " answers.", health.sentence());
  }

  @Test
  void aStoppedEmbeddedServerIsLostWithTheReasonItsLogGives() {
    try (Session session = Session.embedded(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
      assertTrue(session.health(PROBE).answering());
      EmbeddedServer.stopRunning(dir, "an operator stops it");
      ServerHealth health = session.health(PROBE);
      assertFalse(health.answering());
      assertEquals("The embedded ClickHouse stopped: it stopped (asked to stop: an operator stops it).",
          health.sentence());
      assertTrue(health.stopAsked());
    }
  }

  /**
   * A server that has begun to stop cancels its queries and closes its listener moments later: it is
   * lost from its first stopping moment, with its reason, while its process still runs.
   */
  @Test
  void aStoppingEmbeddedServerIsLostWithItsReasonBeforeItsProcessEnds() throws Exception {
    try (Session session = Session.embedded(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
      ProcessHandle server = ProcessHandle.of(session.embeddedServer().orElseThrow().pid()).orElseThrow();
      Thread stopper = Thread.ofPlatform().start(() -> EmbeddedServer.stopRunning(dir, "an operator stops it"));
      ServerHealth health = session.health(PROBE);
      while (health.answering() && server.isAlive()) {
        Thread.sleep(20);
        health = session.health(PROBE);
      }
      stopper.join(60_000);
      // "is stopping" is said only while the process runs; once it has ended the sentence is "stopped: …".
      assertFalse(health.answering());
      assertEquals("The embedded ClickHouse is stopping (asked to stop: an operator stops it).", health.sentence());
      assertTrue(health.stopAsked(), "an operator asked: a console leaves it stopped");
    }
  }

  @Test
  void aKilledEmbeddedServerIsLostAndSaysItWasKilled() throws Exception {
    try (Session session = Session.embedded(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
      ProcessHandle server = ProcessHandle.of(session.embeddedServer().orElseThrow().pid()).orElseThrow();
      server.destroyForcibly();
      server.onExit().get(30, TimeUnit.SECONDS);
      ServerHealth health = session.health(PROBE);
      assertFalse(health.answering());
      assertTrue(health.sentence().startsWith("The embedded ClickHouse stopped: its process " + server.pid()
          + " ended without a word in "), health.sentence());
      assertTrue(health.sentence().endsWith("server.log: it was killed."), health.sentence());
      assertFalse(health.stopAsked(), "nobody asked: a console starts a new one");
    }
  }

  @Test
  void aServerThatIsNotThereIsLostAtOnce() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    ServerHealth health = Ping.ping(profile(port), PROBE);
    assertFalse(health.answering());
    assertTrue(health.sentence().startsWith("ClickHouse at 127.0.0.1:" + port + " does not answer: "),
        health.sentence());
  }

  @Test
  void aServerThatAcceptsButNeverAnswersIsLostWithinTheTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      long began = System.nanoTime();
      ServerHealth health = Ping.ping(profile(silent.getLocalPort()), PROBE);
      long tookMillis = (System.nanoTime() - began) / 1_000_000;
      assertFalse(health.answering());
      assertEquals("ClickHouse at 127.0.0.1:" + silent.getLocalPort() + " did not answer within 500 ms.",
          health.sentence());
      assertTrue(tookMillis < 1500, "the probe took " + tookMillis + " ms");
    }
  }

  @Test
  void aServerThatSendsAByteNowAndThenIsLostWithinTheTimeout() throws Exception {
    try (SilentPeer peer = SilentPeer.dribbling(Duration.ofMillis(100))) {
      long began = System.nanoTime();
      ServerHealth health = Ping.ping(profile(peer.port()), PROBE);
      long tookMillis = (System.nanoTime() - began) / 1_000_000;
      assertFalse(health.answering());
      assertEquals("ClickHouse at 127.0.0.1:" + peer.port() + " did not answer within 500 ms.", health.sentence());
      assertTrue(tookMillis < 1500, "the probe took " + tookMillis + " ms");
    }
  }

  private static ConnectionProfile profile(int port) {
    return ConnectionProfile.of("jdbc:clickhouse://127.0.0.1:" + port, "default", PasswordSource.none(), "default");
  }
}
