package dev.cutover.engine.sql;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * How long Cutover waits for a ClickHouse server on the network, in one place. A server that accepts
 * a connection and then says nothing (stopped with SIGSTOP, hung, or not ClickHouse at all) must end
 * in a sentence, never in a wait without end.
 *
 * <p>Which read gets which bound:
 * <ul>
 *   <li>the connection check that opens every session: {@link #CONNECT} to connect, {@link #CHECK} for
 *       its answer, and {@link #CHECK_ON_SERVER} as the server's own {@code max_execution_time} for its
 *       one tiny query, so that the whole check ends within about {@code CONNECT + CHECK};
 *   <li>every later statement: up to {@link #POOL_WAIT} for a pooled connection (an idle one is checked
 *       first, within {@link #PROBE}), {@link #CONNECT} to connect, then {@link #SILENCE} measured from
 *       the last byte the server sent, not from the start. The server sends progress every {@link
 *       #PROGRESS_EVERY} while it works, so a backfill batch or a reconciliation may run for hours while
 *       a stopped server is found out within the silence bound. No {@code max_execution_time} there:
 *       such a statement may legitimately be long;
 *   <li>a probe asking whether the server answers again: {@link #PROBE}.
 * </ul>
 */
public final class Timeouts {

  /** To open a TCP connection to the server's HTTP port. */
  public static final Duration CONNECT = Duration.ofSeconds(10);
  /** The connection check's answer. */
  public static final Duration CHECK = Duration.ofSeconds(15);
  /** The server's own limit on the connection check's query: it gives up before the client does. */
  public static final Duration CHECK_ON_SERVER = Duration.ofSeconds(10);
  /** The longest a statement may go without a byte from the server, progress included. */
  public static final Duration SILENCE = Duration.ofSeconds(60);
  /** How often a working server reports progress in the headers of its answer. */
  public static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
  /** A statement that only asks whether the server answers, and the pool's check of an idle connection. */
  public static final Duration PROBE = Duration.ofSeconds(5);
  /** How long a statement may wait for a connection of the pool. */
  public static final Duration POOL_WAIT = Duration.ofSeconds(15);

  private Timeouts() {}

  /**
   * Whether {@code failure} is a read that got no byte within its bound: the server was connected to
   * and then said nothing. A connect that timed out is not one (nothing accepted the connection).
   */
  public static boolean silent(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getClass().getSimpleName().equals("ConnectTimeoutException")) {
        return false;
      }
      if (t instanceof SocketTimeoutException && !String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("connect")) {
        return true;
      }
    }
    return false;
  }

  /** "15 s", "60 s", "2 min", "2 min 30 s". */
  public static String words(Duration d) {
    long s = d.toSeconds();
    return s < 120 ? s + " s" : s % 60 == 0 ? s / 60 + " min" : s / 60 + " min " + s % 60 + " s";
  }
}
