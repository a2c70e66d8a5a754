package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.Session;
import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.connect.Database;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restricted embedded server, as the console and the command line start it: any local process can
 * reach 127.0.0.1, but as {@code default} (no password) it can neither read nor change data, nor
 * read or write files through the server; Cutover works as {@code operator} with a random secret
 * that only the owner of the data directory can read.
 */
class EmbeddedAccessTest {

  @TempDir static Path dir;
  private static Session session;
  private static EmbeddedServer server;

  @BeforeAll
  static void start() {
    session = Session.embedded(dir, EngineLibrary.fromEnvironment(), EngineProgress.NONE);
    server = session.embeddedServer().orElseThrow();
    execute(session, "CREATE TABLE cutover.kept (x UInt32) ENGINE = MergeTree ORDER BY x");
    execute(session, "INSERT INTO cutover.kept VALUES (1), (2)");
  }

  @AfterAll
  static void stop() {
    session.close();
    EmbeddedServer.stopRunning(dir, "the test is done");
  }

  @Test
  void cutoverWorksAsOperatorWithTheDirectorysSecret() throws Exception {
    assertTrue(server.restricted());
    assertEquals("operator", session.server().user());
    assertEquals("ClickHouse " + session.server().version() + " at 127.0.0.1:" + server.port() + " (embedded, data: "
        + dir.toAbsolutePath() + ")", session.describe());
    assertEquals(3L, queryLong(server.user(), new String(server.password().resolve()), "SELECT sum(x) FROM cutover.kept"));
  }

  @Test
  void theSecretIsReadableByItsOwnerOnlyAndNeverOnACommandLine() throws Exception {
    ServerDirectory files = new ServerDirectory(dir);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(files.access())));
    for (Path file : List.of(files.secret(), files.users(), files.config())) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), file.toString());
    }
    String secret = Files.readString(files.secret()).strip();
    assertTrue(secret.matches("[0-9a-f]{64}"), "256 random bits");
    assertFalse(Files.readString(files.users()).contains(secret), "the users file holds its SHA-256 only");
    assertTrue(Files.readString(files.users()).contains(ServerAccess.sha256(secret.toCharArray())));
    String commandLine = new String(Files.readAllBytes(Path.of("/proc", Long.toString(server.pid()), "cmdline")),
        StandardCharsets.UTF_8);
    assertTrue(commandLine.contains("restricted"), commandLine);
    assertFalse(commandLine.contains(secret), "the server's command line names no secret");
  }

  @Test
  void anotherLocalProcessAsDefaultCanNeitherReadNorChangeDataNorFiles() throws Exception {
    String secretFile = new ServerDirectory(dir).secret().toString();
    for (String query : List.of(
        "SELECT sum(x) FROM cutover.kept",
        "INSERT INTO cutover.kept VALUES (3)",
        "DROP TABLE cutover.kept",
        "CREATE DATABASE stolen ENGINE = Atomic",
        "SELECT * FROM file('" + secretFile + "', LineAsString)",
        "INSERT INTO FUNCTION file('" + dir.resolve("dropped.txt") + "', LineAsString) SELECT 'x'",
        "SELECT * FROM url('http://127.0.0.1:" + server.port() + "/ping', LineAsString)",
        "SELECT * FROM system.processes",
        "KILL QUERY WHERE query_id = '" + ServerMain.KEEP_ALIVE + "' SYNC",
        "SYSTEM SHUTDOWN")) {
      SQLException refused = assertThrows(SQLException.class, () -> queryLong("default", "", query), query);
      assertTrue(refused.getMessage().contains("ACCESS_DENIED"), query + ": " + refused.getMessage());
    }
    assertEquals(0L, queryLong("default", "", "SELECT count() FROM system.tables WHERE database = 'cutover'"),
        "default does not even see the table names");
    assertEquals(1L, queryLong("default", "", "SELECT 1"), "what default can still do: answer trivial queries");
    assertFalse(Files.exists(dir.resolve("dropped.txt")));
    assertEquals(3L, queryLong(server.user(), new String(server.password().resolve()), "SELECT sum(x) FROM cutover.kept"),
        "the data is untouched");
  }

  @Test
  void aWrongOperatorPasswordIsRefused() {
    var e = assertThrows(ConnectionFailedException.class, () -> Database.open(ConnectionProfile.of(server.jdbcUrl(),
        "operator", PasswordSource.prompt("guess"::toCharArray), "cutover")).close());
    assertEquals(ConnectionFailedException.Reason.AUTHENTICATION, e.reason());
    assertFalse(e.getMessage().contains("guess"));
  }

  @Test
  void connectingAsDefaultSaysWhatIsWrongAndWhichUserToConnectAs() {
    // It used to say "The database 'cutover' uses the  engine": default is not shown the database at all.
    var e = assertThrows(ConnectionFailedException.class, () -> Database.open(ConnectionProfile.of(server.jdbcUrl(),
        "default", PasswordSource.none(), "cutover")).close());
    assertEquals(ConnectionFailedException.Reason.AUTHENTICATION, e.reason());
    assertEquals("The server at 127.0.0.1:" + server.port() + " accepts user 'default' but does not show it the "
        + "database 'cutover': this user has no right to it. Connect as a user that may read and write that "
        + "database. If this is Cutover's embedded server, connect to it by its data directory instead of a JDBC URL: "
        + "Cutover then connects as its own user, operator, with the password in access/operator.secret of that "
        + "folder.", e.getMessage());
  }

  @Test
  void aProcessThatJoinsConnectsAsOperatorToo() {
    try (EmbeddedServer joined = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), ServerAccess.open(),
        EngineProgress.NONE); Database db = Database.open(joined.profile("cutover"))) {
      assertFalse(joined.owner());
      assertTrue(joined.restricted(), "a joiner follows the running server, whatever it asked for");
      assertEquals("operator", db.server().user());
    }
  }

  private static long queryLong(String user, String password, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), user, password); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : -1;
    }
  }

  private static void execute(Session session, String sql) {
    try (Connection c = session.database().dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
