package dev.cutover.engine.connect;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.ConnectionFailedException.Reason;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.ServerHealth;
import dev.cutover.engine.api.ServerInfo;
import dev.cutover.engine.api.ServerVersion;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.sql.Timeouts;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * An open, checked connection to one ClickHouse server: a HikariCP pool over the ClickHouse JDBC
 * driver, bound to the profile's working database.
 *
 * <p>{@link #open} checks before it returns: the server answers, the credentials are accepted, the
 * version is at least {@link ServerVersion#MINIMUM}, and the working database exists and is Atomic
 * (which {@code EXCHANGE TABLES} requires).
 */
public final class Database implements AutoCloseable {

  private static final Set<String> EXCHANGE_CAPABLE = Set.of("Atomic", "Replicated");

  private final ConnectionProfile profile;
  private final ServerInfo server;
  private final HikariDataSource pool;
  private final Supplier<Optional<String>> whyLost;

  private Database(ConnectionProfile profile, ServerInfo server, HikariDataSource pool,
      Supplier<Optional<String>> whyLost) {
    this.profile = profile;
    this.server = server;
    this.pool = pool;
    this.whyLost = whyLost;
  }

  /**
   * Connects and checks the server, or throws a {@link ConnectionFailedException} whose message says
   * what is wrong and what to do.
   */
  public static Database open(ConnectionProfile profile) {
    return open(profile, Optional::empty);
  }

  /**
   * As {@link #open(ConnectionProfile)}; when a connection breaks later, {@code whyLost} may say why
   * (see {@link #sql()}).
   */
  public static Database open(ConnectionProfile profile, Supplier<Optional<String>> whyLost) {
    char[] password = profile.password().resolve();
    String url = withDatabase(profile.jdbcUrl(), profile.database());
    try {
      ServerInfo info = check(profile, url, password);
      HikariConfig config = new HikariConfig();
      config.setPoolName("cutover");
      config.setJdbcUrl(url);
      config.setUsername(profile.user());
      config.setPassword(new String(password));
      config.setMaximumPoolSize(12);
      config.setMinimumIdle(1);
      config.setConnectionTimeout(Timeouts.POOL_WAIT.toMillis());
      config.setValidationTimeout(Timeouts.PROBE.toMillis());
      DriverSettings.pool(config);
      config.setInitializationFailTimeout(-1); // already checked above, with a better sentence than the pool's
      return new Database(profile, info, new HikariDataSource(config), whyLost);
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /** Within about {@link Timeouts#CONNECT} and {@link Timeouts#CHECK}, whatever the server does or does not say. */
  private static ServerInfo check(ConnectionProfile profile, String url, char[] password) {
    Properties properties = DriverSettings.check(profile.user(), new String(password));
    try (Connection connection = DriverManager.getConnection(url, properties);
        PreparedStatement statement = connection.prepareStatement(
            "SELECT version(), currentUser(), currentDatabase(), "
                + "(SELECT any(engine) FROM system.databases WHERE name = currentDatabase())");
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      ServerVersion version = ServerVersion.parse(rs.getString(1)).requireSupported();
      String engine = rs.getString(4);
      if (engine == null || engine.isEmpty()) {
        throw invisibleDatabase(profile, rs.getString(2));
      }
      if (!EXCHANGE_CAPABLE.contains(engine)) {
        throw new ConnectionFailedException(Reason.DATABASE_NOT_ATOMIC, "The database '" + profile.database()
            + "' uses the " + engine + " engine, and Cutover needs an Atomic database because EXCHANGE TABLES "
            + "works only there; create one with CREATE DATABASE name ENGINE = Atomic and choose it as the database.",
            null);
      }
      return new ServerInfo(version, profile.address(), rs.getString(3), engine, rs.getString(2), profile.tls());
    } catch (SQLException | RuntimeException e) {
      if (e instanceof ConnectionFailedException known) {
        throw known;
      }
      throw ConnectionErrors.classify(profile, e);
    }
  }

  /**
   * The server lets the user connect but shows it no database of that name. A server would refuse an
   * unknown database when connecting, so this is a user without the right to see it: on Cutover's own
   * embedded server, {@code default}, which may do almost nothing there.
   */
  private static ConnectionFailedException invisibleDatabase(ConnectionProfile profile, String user) {
    return new ConnectionFailedException(Reason.AUTHENTICATION, "The server at " + profile.address() + " accepts user '"
        + user + "' but does not show it the database '" + profile.database() + "': this user has no right to it. "
        + "Connect as a user that may read and write that database. If this is Cutover's embedded server, connect to "
        + "it by its data directory instead of a JDBC URL: Cutover then connects as its own user, operator, with the "
        + "password in access/operator.secret of that folder.", null);
  }

  /** The URL with its path set to {@code /database}, keeping any query parameters. */
  static String withDatabase(String jdbcUrl, String database) {
    int schemeEnd = jdbcUrl.indexOf("://") + 3;
    int query = jdbcUrl.indexOf('?', schemeEnd);
    String head = query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
    String tail = query < 0 ? "" : jdbcUrl.substring(query);
    int slash = head.indexOf('/', schemeEnd);
    String authority = slash < 0 ? head : head.substring(0, slash);
    return authority + "/" + database + tail;
  }

  public ConnectionProfile profile() {
    return profile;
  }

  public ServerInfo server() {
    return server;
  }


  public DataSource dataSource() {
    return pool;
  }

  /**
   * Statements over the pool, whose broken connections say why when this database knows (an embedded
   * server's restart).
   */
  public Sql sql() {
    return new Sql(pool, whyLost);
  }

  @Override
  public void close() {
    pool.close();
  }

  /**
   * Creates the Atomic database {@code name} if it is missing, over a connection of its own to
   * {@code jdbcUrl} (the pool is opened on that database, so it cannot be the one that creates it).
   */
  public static void createAtomicDatabase(String jdbcUrl, ConnectionProfile profile, String name) {
    char[] password = profile.password().resolve();
    try (Connection connection = DriverManager.getConnection(jdbcUrl,
            DriverSettings.check(profile.user(), new String(password)));
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE IF NOT EXISTS " + Identifier.of(name).quoted()
          + " ENGINE = Atomic");
    } catch (SQLException e) {
      throw ConnectionErrors.classify(profile, e);
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /** Asks the server whether it answers within {@code timeout}, without taking a connection from the pool. */
  public ServerHealth ping(Duration timeout) {
    return Ping.ping(profile(), timeout);
  }
}
