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
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A server that accepts a connection and then says nothing (stopped, hung, or not ClickHouse) ends
 * in a sentence within a known bound, never in a wait; a server that works, however long, is not cut.
 */
class SilentServerTest {

  /** What a loaded two-core machine may add to a bound. */
  private static final Duration LOAD = Duration.ofSeconds(15);

  @Test
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
