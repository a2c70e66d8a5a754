package dev.cutover.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A URL or a message is shown with its host, port and database, never with a password. */
class RedactionTest {

  private static final String SECRET = "PLANTED-7f3a9c";

  @Test
  void aUrlShowsSchemeHostPortAndDatabaseAndMasksEverySecret() {
    assertEquals("jdbc:clickhous://***@db.internal:8123/pnl",
        Redaction.url("jdbc:clickhous://operator:" + SECRET + "@db.internal:8123/pnl"));
    assertEquals("jdbc:clickhouse://db:8123/pnl?ssl=true&password=***",
        Redaction.url("jdbc:clickhouse://db:8123/pnl?ssl=true&password=" + SECRET));
    assertEquals("jdbc:clickhouse://db:8123?password=***&ssl=true",
        Redaction.url("jdbc:clickhouse://db:8123?password=" + SECRET + "&ssl=true"));
    assertEquals("jdbc:clickhouse://db:8123/pnl#***",
        Redaction.url("jdbc:clickhouse://db:8123/pnl#password=" + SECRET));
    assertEquals("jdbc:clickhouse://db:8123?user=***&key_store_password=***",
        Redaction.url("jdbc:clickhouse://db:8123?user=ops&key_store_password=" + SECRET));
    // A password holding the characters that end a URL's parts: everything up to the last '@' is user information.
    assertEquals("jdbc:ch:https://***@db:8443", Redaction.url("jdbc:ch:https://ops:a/b?c#" + SECRET + "@x@db:8443"));
    // Harmless parameters are shown as written: the operator sees what TLS settings were read.
    assertEquals("jdbc:clickhouse:https://db:8443/ops?sslrootcert=/etc/ssl/ca.pem&ssl_mode=strict",
        Redaction.url("jdbc:clickhouse:https://db:8443/ops?sslrootcert=/etc/ssl/ca.pem&ssl_mode=strict"));
    // Parts not shaped as they should be are not shown, nor is text that is no URL at all.
    assertEquals("jdbc:clickhouse://***/***", Redaction.url("jdbc:clickhouse://db " + SECRET + "/x y"));
    assertEquals(Redaction.MASK, Redaction.url(SECRET));
    assertEquals(Redaction.MASK, Redaction.url("jdbc:clickhouse:/ops:" + SECRET + "@db"));
  }

  @Test
  void freeTextLosesUrlCredentialsPasswordParametersAndKnownSecrets() {
    String message = "Invalid JDBC URL 'jdbc:clickhouse://ops:" + SECRET + "@db:8123?password=" + SECRET
        + "&ssl=true' for " + SECRET + "x";
    String shown = Redaction.text(message, List.of(SECRET));
    assertFalse(shown.contains(SECRET), shown);
    assertEquals("Invalid JDBC URL 'jdbc:clickhouse://***@db:8123?password=***&ssl=true' for ***x", shown);
    assertEquals("token=*** and secret_key=***", Redaction.text("token=abc and secret_key=" + SECRET));
    assertEquals("the password (password from $X) was refused",
        Redaction.text("the password (password from $X) was refused", List.of("ab")), "short secrets are not searched");
  }

  @Test
  void passwordLikeOptionsOnACommandLineAreSecrets() {
    assertEquals(List.of(SECRET, "two"), Redaction.commandLineSecrets(List.of("check", "--password", SECRET,
        "--token=two", "--password-env", "CUTOVER_PASSWORD", "--ask-password", "--user", "ops")));
  }

  @Test
  void aMalformedUrlIsRefusedWithoutItsSecrets() {
    for (String url : List.of("jdbc:clickhous://operator:" + SECRET + "@host:8123/db",
        "jdbc:clickhouse://host:8123/db#password=" + SECRET, "jdbc:clickhouse://host:8123/db?password=" + SECRET,
        "jdbc:clickhouse://host:8123/db?ssl=true&password=" + SECRET, "jdbc:clickhouse://ops:" + SECRET + "@host:8123",
        SECRET, "clickhouse:ops:" + SECRET + "@host")) {
      var e = assertThrows(InvalidInputException.class, () -> ConnectionProfile.of(url, "ops", PasswordSource.none(),
          "db"));
      assertFalse(e.getMessage().contains(SECRET), e.getMessage());
      assertTrue(e.getMessage().startsWith("The JDBC URL "), e.getMessage());
    }
    var e = assertThrows(InvalidInputException.class, () -> ConnectionProfile.of("jdbc:clickhous://operator:"
        + SECRET + "@host:8123/db", "ops", PasswordSource.none(), "db"));
    assertEquals("The JDBC URL 'jdbc:clickhous://***@host:8123/db' is not a ClickHouse URL; write it as "
        + "jdbc:clickhouse://HOST:PORT (add ?ssl=true or use jdbc:clickhouse:https:// for TLS).", e.getMessage());
    e = assertThrows(InvalidInputException.class, () -> ConnectionProfile.of(SECRET, "ops", PasswordSource.none(),
        "db"));
    assertEquals("The JDBC URL (not repeated here: it has no scheme://host part) is not a ClickHouse URL; write it as "
        + "jdbc:clickhouse://HOST:PORT (add ?ssl=true or use jdbc:clickhouse:https:// for TLS).", e.getMessage());
  }

  @Test
  void aPasswordTypedWhereItsVariableBelongsIsNotRepeated() {
    var e = assertThrows(InvalidInputException.class, () -> PasswordSource.environment(SECRET));
    assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    e = assertThrows(InvalidInputException.class, () -> SavedProfile.parsePassword(SECRET));
    assertFalse(e.getMessage().contains(SECRET), e.getMessage());
  }
}
