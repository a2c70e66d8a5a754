package dev.cutover.engine.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.ConnectionFailedException.Reason;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.testing.TestEngine;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Every way a connection can fail reaches the operator as one sentence with the fix. */
class ConnectionErrorsTest {

  private static ConnectionFailedException refused(ConnectionProfile profile) {
    return assertThrows(ConnectionFailedException.class, () -> Database.open(profile).close());
  }

  private static String embeddedUrl() {
    return TestEngine.server().jdbcUrl();
  }

  @Test
  void unreachableHost() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    var e = refused(ConnectionProfile.of("jdbc:clickhouse://127.0.0.1:" + closedPort, "default", PasswordSource.none(), "default"));
    assertEquals(Reason.UNREACHABLE, e.reason());
    assertEquals("Nothing answers at 127.0.0.1:" + closedPort + "; check the host and port in the JDBC URL "
        + "(the HTTP port, 8123 by default, or 8443 with TLS) and that the server is running.", e.getMessage());
    assertTrue(e.retryable());
  }

  @Test
  void unknownHostName() {
    var e = refused(ConnectionProfile.of("jdbc:clickhouse://no-such-host.invalid:8123", "default", PasswordSource.none(), "default"));
    assertEquals(Reason.UNREACHABLE, e.reason());
    assertEquals("The host in no-such-host.invalid:8123 is not known to DNS; check the spelling of the host name "
        + "in the JDBC URL.", e.getMessage());
  }

  @Test
  void wrongPassword() {
    var e = refused(ConnectionProfile.of(embeddedUrl(), "default", PasswordSource.prompt("not-the-password"::toCharArray), "cutover"));
    assertEquals(Reason.AUTHENTICATION, e.reason());
    assertTrue(e.getMessage().startsWith("The server at 127.0.0.1:"), e.getMessage());
    assertTrue(e.getMessage().endsWith(" refused user 'default' with the given password (password asked for at "
        + "connect); check the user name and the password."), e.getMessage());
    assertFalse(e.getMessage().contains("not-the-password"), "the sentence never repeats the password");
    assertFalse(e.retryable());
  }

  @Test
  void unknownUser() {
    var e = refused(ConnectionProfile.of(embeddedUrl(), "nobody", PasswordSource.none(), "cutover"));
    assertEquals(Reason.AUTHENTICATION, e.reason());
    assertTrue(e.getMessage().contains("refused user 'nobody'"), e.getMessage());
  }

  @Test
  void unknownDatabase() {
    var e = refused(ConnectionProfile.of(embeddedUrl(), "default", PasswordSource.none(), "no_such_database"));
    assertEquals(Reason.UNKNOWN_DATABASE, e.reason());
    assertTrue(e.getMessage().startsWith("The database 'no_such_database' does not exist on 127.0.0.1:"), e.getMessage());
    assertTrue(e.getMessage().endsWith("; create it with CREATE DATABASE no_such_database ENGINE = Atomic, "
        + "or choose an existing database."), e.getMessage());
  }

  @Test
  void databaseThatIsNotAtomic() {
    // The embedded server's own default database is an Overlay: a real non-Atomic database.
    var e = refused(ConnectionProfile.of(embeddedUrl(), "default", PasswordSource.none(), "default"));
    assertEquals(Reason.DATABASE_NOT_ATOMIC, e.reason());
    assertEquals("The database 'default' uses the Overlay engine, and Cutover needs an Atomic database because "
        + "EXCHANGE TABLES works only there; create one with CREATE DATABASE name ENGINE = Atomic and choose it "
        + "as the database.", e.getMessage());
  }

  @Test
  void aWorkingConnectionReportsItsServer() {
    try (Database db = Database.open(ConnectionProfile.of(embeddedUrl(), "default", PasswordSource.none(), "cutover"))) {
      assertEquals("cutover", db.server().database());
      assertEquals("default", db.server().user());
      assertEquals("Atomic", db.server().databaseEngine());
      assertEquals(1, db.sql().queryLong("ask for one", "SELECT 1"));
    }
  }

  @Test
  void theDatabaseReplacesAnyPathInTheUrl() {
    assertEquals("jdbc:clickhouse://h:8123/ops?ssl=true", Database.withDatabase("jdbc:clickhouse://h:8123/other?ssl=true", "ops"));
    assertEquals("jdbc:clickhouse:https://h:8443/ops", Database.withDatabase("jdbc:clickhouse:https://h:8443", "ops"));
  }
}
