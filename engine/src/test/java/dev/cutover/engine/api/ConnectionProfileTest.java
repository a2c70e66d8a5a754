package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionProfileTest {

  @Test
  void aServerOlderThan24_8IsRefusedWithWhatItLacks() {
    var e = assertThrows(ConnectionFailedException.class, () -> ServerVersion.parse("24.3.5.47").requireSupported());
    assertEquals(ConnectionFailedException.Reason.SERVER_TOO_OLD, e.reason());
    assertEquals("The server runs ClickHouse 24.3.5.47, and Cutover needs 24.8 or newer: it relies on REPLACE "
        + "PARTITION between tables of one structure, EXCHANGE TABLES on Atomic databases, the HTTP interface of the "
        + "current JDBC driver, and query settings such as priority and max_threads. Upgrade the server, or point "
        + "Cutover at a newer one.", e.getMessage());
    assertEquals(new ServerVersion(24, 8, 1, 0), ServerVersion.parse("24.8.1").requireSupported());
    assertEquals(new ServerVersion(26, 7, 2, 1), ServerVersion.parse("26.7.2.1"));
  }

  @Test
  void aUrlThatIsNotClickHouseIsRefused() {
    var e = assertThrows(InvalidInputException.class,
        () -> ConnectionProfile.of("jdbc:postgresql://db:5432/x", "ops", PasswordSource.none(), "default"));
    assertEquals("jdbc-url", e.field());
    assertEquals("The JDBC URL 'jdbc:postgresql://db:5432/x' is not a ClickHouse URL; write it as "
        + "jdbc:clickhouse://HOST:PORT (add ?ssl=true or use jdbc:clickhouse:https:// for TLS).", e.getMessage());
  }

  @Test
  void aUrlCarryingAPasswordIsRefused() {
    var e = assertThrows(InvalidInputException.class,
        () -> ConnectionProfile.of("jdbc:clickhouse://h:8123?password=hunter2", "ops", PasswordSource.none(), "default"));
    assertFalse(e.getMessage().contains("hunter2"));
    assertThrows(InvalidInputException.class,
        () -> ConnectionProfile.of("jdbc:clickhouse://ops:hunter2@h:8123", "ops", PasswordSource.none(), "default"));
  }

  @Test
  void aUserNameWithAColonIsRefusedWithoutBeingRepeated() {
    // user:password typed into the user field: the text after the colon may be a password.
    for (String user : java.util.List.of("operator:S3cr3t", "ops:it's S3cr3t", ":S3cr3t")) {
      var e = assertThrows(InvalidInputException.class,
          () -> ConnectionProfile.of("jdbc:clickhouse://h:8123", user, PasswordSource.none(), "default"), user);
      assertEquals("user", e.field());
      assertEquals("The user name you gave contains ':', so it is not repeated here: a password typed as "
          + "user:password? Give the user name alone; the password comes from an environment variable, a file or a "
          + "prompt.", e.getMessage());
      var saved = assertThrows(InvalidInputException.class, () -> SavedProfile.of("prod", "jdbc:clickhouse://h:8123",
          user, "default", SavedProfile.Password.NONE, ""));
      assertFalse(saved.getMessage().contains("S3cr3t"), saved.getMessage());
    }
    assertEquals("ops", ConnectionProfile.of("jdbc:clickhouse://h:8123", "ops", PasswordSource.none(), "d").user());
  }

  @Test
  void aDatabaseNameThatIsNotSimpleIsRefused() {
    var e = assertThrows(InvalidInputException.class,
        () -> ConnectionProfile.of("jdbc:clickhouse://h:8123", "ops", PasswordSource.none(), "x; DROP TABLE y"));
    assertEquals("The name 'x; DROP TABLE y' in database is not a simple name; use ASCII letters, digits and "
        + "underscores, starting with a letter or underscore.", e.getMessage());
  }

  @Test
  void tlsIsReadFromTheUrl() {
    assertTrue(ConnectionProfile.of("jdbc:clickhouse://h:8443?ssl=true", "u", PasswordSource.none(), "d").tls());
    assertTrue(ConnectionProfile.of("jdbc:clickhouse:https://h:8443", "u", PasswordSource.none(), "d").tls());
    assertFalse(ConnectionProfile.of("jdbc:clickhouse://h:8123", "u", PasswordSource.none(), "d").tls());
    assertEquals("h:8443", ConnectionProfile.of("jdbc:clickhouse:https://h:8443/db?x=1", "u", PasswordSource.none(), "d").address());
  }

  @Test
  void identifiersAreQuotedByDoublingBackTicks() {
    assertEquals("`pnl_v2`", Identifier.of("pnl_v2").quoted());
    assertEquals("`pnl``; DROP TABLE x`", Identifier.of("pnl`; DROP TABLE x").quoted());
    assertFalse(Identifier.of("pnl`; DROP TABLE x").isSimple());
  }

  @Test
  void theProfileNeverPrintsAPassword() {
    var profile = ConnectionProfile.of("jdbc:clickhouse://h:8123", "ops", PasswordSource.prompt("s3cret"::toCharArray), "d");
    assertFalse(profile.toString().contains("s3cret"), profile.toString());
  }
}
