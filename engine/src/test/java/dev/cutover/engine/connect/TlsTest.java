package dev.cutover.engine.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.ConnectionFailedException.Reason;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.testing.TestEngine;
import dev.cutover.engine.testing.TlsRelay;
import dev.cutover.engine.testing.TlsServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS sessions with the real embedded ClickHouse behind an HTTPS front made of the JDK's TLS server
 * sockets, with certificates made for the test: the operator's own CA given with {@code sslrootcert}
 * is trusted, and so is a saved profile that carries it; a certificate no trusted CA signed, or one
 * for another host name, is refused, each with a sentence that says what to check.
 */
class TlsTest {

  @TempDir static Path dir;
  private static TlsServers tls;

  @BeforeAll
  static void start() {
    tls = TlsServers.start(dir.resolve("certificates"), TestEngine.server().port());
  }

  @AfterAll
  static void stop() {
    tls.close();
  }

  private static ConnectionProfile profile(String url) {
    return ConnectionProfile.of(url, "default", PasswordSource.none(), "cutover");
  }

  private static ConnectionFailedException refused(String url, TlsRelay relay) {
    long before = relay.refusedHandshakes() + relay.handshakes();
    var e = assertThrows(ConnectionFailedException.class, () -> Database.open(profile(url)).close());
    assertEquals(Reason.TLS, e.reason(), e.getMessage());
    // The front counts on its own thread, moments after the client has given up.
    assertTrue(relay.awaitSessions(before + 1, Duration.ofSeconds(5)), "the client reached the TLS front");
    assertFalse(e.retryable(), "a certificate does not change by retrying");
    return e;
  }

  @Test
  void theOperatorsOwnCaIsTrustedInBothUrlForms() {
    for (String url : java.util.List.of(tls.url(), "jdbc:clickhouse://127.0.0.1:" + tls.trusted.port()
        + "?ssl=true&sslrootcert=" + tls.caPem(), tls.url() + "&ssl_mode=strict")) {
      long before = tls.trusted.handshakes();
      long refusedBefore = tls.trusted.refusedHandshakes();
      try (Database db = Database.open(profile(url))) {
        assertTrue(db.server().tls(), url);
        assertEquals("127.0.0.1:" + tls.trusted.port(), db.server().address());
        assertEquals("cutover", db.server().database());
        assertEquals(42, db.sql().queryLong("ask for 42", "SELECT 42"));
      }
      assertTrue(tls.trusted.handshakes() > before, "the session went through TLS: " + url);
      assertEquals(refusedBefore, tls.trusted.refusedHandshakes(), "no handshake failed: " + url);
    }
  }

  @Test
  void aSavedProfileCarriesTheCaAndConnectsThroughTls() throws Exception {
    ProfileStore store = new ProfileStore(dir.resolve("config/cutover/profiles.yaml"));
    store.save(SavedProfile.of("tls-test", tls.url(), "default", "cutover", SavedProfile.Password.ASK, ""),
        Optional.empty());
    SavedProfile saved = store.find("tls-test").orElseThrow();
    assertTrue(Files.readString(store.file()).contains("sslrootcert=" + tls.caPem()), "the file keeps the CA's path");
    long before = tls.trusted.handshakes();
    try (Session session = Session.connect(saved.connectionProfile(() -> new char[0]))) {
      assertTrue(session.server().tls());
      assertTrue(session.describe().endsWith("(database cutover, user default, TLS)"), session.describe());
      assertTrue(session.health(Duration.ofSeconds(2)).answering(), "the status bar's probe reaches a TLS server");
    }
    assertTrue(tls.trusted.handshakes() > before);
  }

  @Test
  void aCertificateNoTrustedCaSignedIsRefused() {
    // Without sslrootcert, the Java runtime's own trust store: it does not know the test's CA.
    String plain = "jdbc:clickhouse:https://127.0.0.1:" + tls.trusted.port();
    var e = refused(plain, tls.trusted);
    assertEquals("The server at 127.0.0.1:" + tls.trusted.port() + " presented a certificate that no certificate "
        + "authority trusted by this Java runtime signed, so the connection was refused; if the server's certificate "
        + "comes from your own CA, add sslrootcert=/path/to/ca.pem (that CA's certificate, PEM) to the JDBC URL, and "
        + "check that the URL names the right server.", e.getMessage());
    // With the operator's CA, a certificate that CA did not sign.
    String rogue = "jdbc:clickhouse:https://127.0.0.1:" + tls.rogue.port() + "?sslrootcert=" + tls.caPem();
    e = refused(rogue, tls.rogue);
    assertEquals("The server at 127.0.0.1:" + tls.rogue.port() + " presented a certificate that the CA in "
        + tls.caPem() + " (sslrootcert) did not sign, so the connection was refused; check that sslrootcert names the "
        + "certificate of the CA that signed the server's certificate, and that the URL names the right server.",
        e.getMessage());
    assertEquals(0, tls.rogue.handshakes(), "the client broke off every handshake with the rogue certificate");
  }

  @Test
  void aCertificateForAnotherHostNameIsRefused() {
    String byAddress = "jdbc:clickhouse:https://127.0.0.1:" + tls.elsewhere.port() + "?sslrootcert=" + tls.caPem();
    var e = refused(byAddress, tls.elsewhere);
    assertEquals("The server at 127.0.0.1:" + tls.elsewhere.port() + " presented a certificate that is not made out "
        + "for 127.0.0.1, so the connection was refused: the host-name check keeps another server from posing as "
        + "this one. Connect with a host name the certificate names, or have the certificate reissued with "
        + "127.0.0.1 among its subject alternative names.", e.getMessage());
    String byName = "jdbc:clickhouse:https://localhost:" + tls.elsewhere.port() + "?sslrootcert=" + tls.caPem();
    e = refused(byName, tls.elsewhere);
    assertEquals("The server at localhost:" + tls.elsewhere.port() + " presented a certificate that is not made out "
        + "for localhost (it names elsewhere.example), so the connection was refused: the host-name check keeps "
        + "another server from posing as this one. Connect with a host name the certificate names, or have the "
        + "certificate reissued with localhost among its subject alternative names.", e.getMessage());
  }

  @Test
  void aCaFileThatCannotBeUsedIsNamed() throws Exception {
    Path missing = dir.resolve("no-such-ca.pem");
    var e = assertThrows(ConnectionFailedException.class, () -> Database.open(profile("jdbc:clickhouse:https://"
        + "127.0.0.1:" + tls.trusted.port() + "?sslrootcert=" + missing)).close());
    assertEquals(Reason.TLS, e.reason());
    assertEquals("The CA certificate file " + missing + " named by sslrootcert in the JDBC URL cannot be read; give "
        + "the path of the CA's certificate (a file that starts with -----BEGIN CERTIFICATE-----), readable by you.",
        e.getMessage());
    Path notPem = Files.writeString(dir.resolve("not-a-certificate.pem"), "PLANTED-not-a-certificate\n");
    e = assertThrows(ConnectionFailedException.class, () -> Database.open(profile("jdbc:clickhouse:https://"
        + "127.0.0.1:" + tls.trusted.port() + "?sslrootcert=" + notPem)).close());
    assertEquals("The CA certificate file " + notPem + " named by sslrootcert in the JDBC URL is not a certificate in "
        + "PEM form; give the path of the CA's certificate (a file that starts with -----BEGIN CERTIFICATE-----), "
        + "readable by you.", e.getMessage());
  }

  @Test
  void anExpiredCertificateIsRefused() {
    var certificates = dev.cutover.engine.testing.TestCertificates.in(dir.resolve("certificates"));
    try (TlsRelay expired = TlsRelay.start(certificates.issueExpired(tls.ca, "expired", "ip:127.0.0.1"),
        TestEngine.server().port())) {
      var e = refused("jdbc:clickhouse:https://127.0.0.1:" + expired.port() + "?sslrootcert=" + tls.caPem(), expired);
      assertEquals("The certificate of the server at 127.0.0.1:" + expired.port() + " has expired or is not valid "
          + "yet, so the connection was refused; have the server's certificate renewed, and check that this "
          + "machine's clock is right.", e.getMessage());
    }
  }

  /** A fact of the driver the docs warn about: its mode verify_ca checks the CA but not the host name. */
  @Test
  void theDriversVerifyCaModeSkipsTheHostNameCheck() {
    String url = "jdbc:clickhouse:https://127.0.0.1:" + tls.elsewhere.port() + "?ssl_mode=verify_ca&sslrootcert="
        + tls.caPem();
    try (Database db = Database.open(profile(url))) {
      assertTrue(db.server().tls());
    }
  }
}
