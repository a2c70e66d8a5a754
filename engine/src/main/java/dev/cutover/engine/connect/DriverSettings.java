package dev.cutover.engine.connect;

import com.zaxxer.hikari.HikariConfig;
import dev.cutover.engine.sql.Timeouts;
import java.time.Duration;
import java.util.Properties;

/**
 * The ClickHouse JDBC driver's settings for the bounds of {@link Timeouts}: its property names (of
 * clickhouse-jdbc 0.10) in one place.
 *
 * <p>The driver tries a connect that timed out three more times by default; here a connect is tried
 * once, so that its bound is the bound. Its other retries stay as they are: a kept-alive connection
 * the server had closed, its own pool of sockets busy, a server's answer that says a retry may help.
 */
final class DriverSettings {

  private static final String CONNECT_TIMEOUT = "connection_timeout";
  private static final String SOCKET_TIMEOUT = "socket_timeout";
  private static final String RETRY_ON = "client_retry_on_failures";
  private static final String RETRY_ON_NO_WAIT = "NoHttpResponse,ConnectionRequestTimeout,ServerRetryable";
  private static final String SERVER_SETTING = "clickhouse_setting_";

  private DriverSettings() {}

  /**
   * For the connection check: a connect within {@link Timeouts#CONNECT}, an answer within {@link
   * Timeouts#CHECK}, and the server's own stop for the query at {@link Timeouts#CHECK_ON_SERVER}.
   */
  static Properties check(String user, String password) {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    p.setProperty(CONNECT_TIMEOUT, millis(Timeouts.CONNECT));
    p.setProperty(SOCKET_TIMEOUT, millis(Timeouts.CHECK));
    p.setProperty(RETRY_ON, RETRY_ON_NO_WAIT);
    p.setProperty(SERVER_SETTING + "max_execution_time", String.valueOf(Timeouts.CHECK_ON_SERVER.toSeconds()));
    return p;
  }

  /**
   * For the pool: a connect within {@link Timeouts#CONNECT}, and progress from the server every {@link
   * Timeouts#PROGRESS_EVERY} while a statement works. A statement's read bound is set by {@code Sql} on
   * each borrowed connection: the pool resets a connection's network timeout, and with it the driver's
   * socket timeout for statements, to none whenever it takes the connection back.
   */
  static void pool(HikariConfig config) {
    config.addDataSourceProperty(CONNECT_TIMEOUT, millis(Timeouts.CONNECT));
    // The driver's own requests outside a statement (the pool's check that a connection is valid, its keepalive) read
    // with this, which the pool does not reset: without it, a stopped server held the pool's keepalive for ever.
    config.addDataSourceProperty(SOCKET_TIMEOUT, millis(Timeouts.PROBE));
    config.addDataSourceProperty(RETRY_ON, RETRY_ON_NO_WAIT);
    config.addDataSourceProperty(SERVER_SETTING + "send_progress_in_http_headers", "1");
    config.addDataSourceProperty(SERVER_SETTING + "http_headers_progress_interval_ms", millis(Timeouts.PROGRESS_EVERY));
  }

  private static String millis(Duration d) {
    return String.valueOf(d.toMillis());
  }
}
