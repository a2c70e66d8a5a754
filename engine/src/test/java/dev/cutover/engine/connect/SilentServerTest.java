package dev.cutover.engine.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.ConnectionFailedException.Reason;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.sql.Timeouts;
import dev.cutover.engine.testing.SilentPeer;
import dev.cutover.engine.testing.TestEngine;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that accepts a connection and then says nothing (stopped, hung, or not ClickHouse) ends
 * in a sentence within a known bound, never in a wait; a server that works, however long, is not cut.
 */
class SilentServerTest {

  /** What a loaded two-core machine may add to a bound. */
  private static final Duration LOAD = Duration.ofSeconds(15);

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // before, it waited for ever
  void aSilentServerFailsTheConnectionCheckWithinItsBoundNamingTheAddressAndTheBound() throws Exception {
    try (SilentPeer peer = SilentPeer.silent()) {
      long began = System.nanoTime();
      var e = assertThrows(ConnectionFailedException.class, () -> Database.open(ConnectionProfile.of(peer.jdbcUrl(),
          "default", PasswordSource.none(), "default")).close());
      Duration took = Duration.ofNanos(System.nanoTime() - began);
      System.out.println("[silent-server] the connection check ended after " + took.toMillis() + " ms");
      assertEquals(Reason.UNREACHABLE, e.reason());
      assertEquals("The server at 127.0.0.1:" + peer.port() + " accepted the connection but sent no answer within "
          + "15 s; check that the JDBC URL names ClickHouse's HTTP port (8123 by default, 8443 with TLS), and that the "
          + "server is not stopped, hung or overloaded.", e.getMessage());
      assertTrue(peer.connections() > 0, "the check reached the peer");
      assertTrue(took.compareTo(Timeouts.CHECK.minusSeconds(1)) > 0 && took.compareTo(Timeouts.CONNECT
          .plus(Timeouts.CHECK).plus(LOAD)) < 0, "the check ended after " + took.toMillis() + " ms");
    }
  }

  @Test
  void aStatementTheServerLeavesSilentFailsAtItsBoundAndThePoolStillServes() {
    Sql sql = TestEngine.session().database().sql().silentAtMost(Duration.ofSeconds(1));
    long began = System.nanoTime();
    // Nine seconds in one block: no progress to report, nothing sent.
    var e = assertThrows(QueryFailedException.class, () -> sql.queryLong("wait for the server", "SELECT count() FROM "
        + "numbers(3) WHERE NOT ignore(sleepEachRow(3)) SETTINGS max_block_size = 3, "
        + "function_sleep_max_microseconds_per_block = 10000000"));
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    assertEquals("Could not wait for the server: the server sent nothing for 1 s, not even progress (it may be "
        + "stopped, hung or out of reach). This can pass; Cutover retries it.", e.getMessage());
    assertTrue(e.unreachable() && e.retryable());
    assertTrue(took.compareTo(Duration.ofSeconds(6)) < 0, "the statement failed after " + took.toMillis() + " ms");
    // Every connection of the pool, the one whose read timed out among them, still serves.
    for (int i = 0; i < 24; i++) {
      assertEquals(1L, sql.queryLong("ask the server", "SELECT 1"));
    }
  }

  /**
   * The server stops answering under an open session (the relay in front of it passes nothing more). Before it lends
   * a connection idle for half a second, the pool checks it, outside any statement: that check gives up within 5 s
   * (it waited for ever), and the statement fails as a lost server within the pool's wait for a connection (15 s), a
   * check and its own silence bound, however the pool's attempts end.
   */
  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aServerThatStopsAnsweringUnderAnOpenSessionIsLostWithinTheBounds() throws Exception {
    try (SilentPeer relay = SilentPeer.before(TestEngine.server().port());
        Database db = Database.open(ConnectionProfile.of(relay.jdbcUrl(), "default", PasswordSource.none(),
            "cutover"))) {
      assertEquals(1L, db.sql().queryLong("ask the server", "SELECT 1"));
      relay.freeze();
      Thread.sleep(1000);
      long began = System.nanoTime();
      var e = assertThrows(QueryFailedException.class, () -> db.sql().silentAtMost(Duration.ofSeconds(3))
          .queryLong("ask the server", "SELECT 1"));
      Duration took = Duration.ofNanos(System.nanoTime() - began);
      System.out.println("[silent-server] a statement of a frozen session failed after " + took.toMillis() + " ms: "
          + e.getMessage());
      assertTrue(e.getMessage().startsWith("Could not ask the server: ") && e.unreachable(), e.getMessage());
      assertTrue(took.compareTo(Timeouts.POOL_WAIT.plus(Timeouts.PROBE).plusSeconds(3).plus(LOAD)) < 0, "failed after "
          + took.toMillis() + " ms");
    }
  }

  /**
   * Every connection of the pool is held (by statements that wait for a server that stopped, say): one more statement
   * fails once the pool's wait for a connection is over, as a lost server, which a backfill waits for instead of
   * ending with the pool's words.
   */
  @Test
  void aStatementThatGetsNoConnectionInTimeCountsAsALostServer() throws Exception {
    List<Connection> held = new ArrayList<>();
    try (Database db = Database.open(ConnectionProfile.of(TestEngine.server().jdbcUrl(), "default",
        PasswordSource.none(), "cutover"))) {
      for (int i = 0; i < 12; i++) {
        held.add(db.dataSource().getConnection());
      }
      long began = System.nanoTime();
      var e = assertThrows(QueryFailedException.class, () -> db.sql().queryLong("ask the server", "SELECT 1"));
      Duration took = Duration.ofNanos(System.nanoTime() - began);
      assertTrue(e.getMessage().startsWith("Could not ask the server: ") && e.unreachable() && e.retryable(),
          e.getMessage());
      assertTrue(took.compareTo(Timeouts.POOL_WAIT.plus(LOAD)) < 0, "failed after " + took.toMillis() + " ms");
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
  }

  @Test
  void aStatementThatWorksLongerThanItsBoundIsNotCutWhileTheServerReportsProgress() {
    Duration bound = Duration.ofSeconds(10);
    Sql sql = TestEngine.session().database().sql().silentAtMost(bound);
    long began = System.nanoTime();
    // 160 blocks of a tenth of a second each: the server reports progress as it goes, and the answer comes at the end.
    long rows = sql.queryLong("count slowly", "SELECT count() FROM numbers(160) WHERE NOT ignore(sleepEachRow(0.1)) "
        + "SETTINGS max_block_size = 1");
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    assertEquals(160, rows);
    assertTrue(took.compareTo(bound) > 0, "the statement ran " + took.toMillis() + " ms, longer than its bound");
  }
}
