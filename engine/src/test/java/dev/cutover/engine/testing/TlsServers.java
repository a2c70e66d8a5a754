package dev.cutover.engine.testing;

import java.nio.file.Path;

/**
 * Three HTTPS fronts for one plain ClickHouse HTTP port, each with its own certificate: one signed
 * by a CA made for the test for 127.0.0.1 ({@link #trusted}), one signed by the same CA for another
 * host name ({@link #elsewhere}, {@code elsewhere.example}), and one that no CA signed
 * ({@link #rogue}, for 127.0.0.1). A client that trusts {@link #caPem()} should accept the first only.
 */
public final class TlsServers implements AutoCloseable {

  public final TestCertificates.Authority ca;
  public final TlsRelay trusted;
  public final TlsRelay elsewhere;
  public final TlsRelay rogue;

  private TlsServers(TestCertificates.Authority ca, TlsRelay trusted, TlsRelay elsewhere, TlsRelay rogue) {
    this.ca = ca;
    this.trusted = trusted;
    this.elsewhere = elsewhere;
    this.rogue = rogue;
  }

  /** Makes the certificates under {@code dir} and starts the three fronts for {@code 127.0.0.1:plainPort}. */
  public static TlsServers start(Path dir, int plainPort) {
    TestCertificates certificates = TestCertificates.in(dir);
    TestCertificates.Authority ca = certificates.authority("cutover-test");
    TestCertificates.Identity trusted = certificates.issue(ca, "clickhouse", "ip:127.0.0.1");
    TestCertificates.Identity elsewhere = certificates.issue(ca, "elsewhere", "dns:elsewhere.example");
    TestCertificates.Identity rogue = certificates.selfSigned("rogue", "ip:127.0.0.1");
    return new TlsServers(ca, TlsRelay.start(trusted, plainPort), TlsRelay.start(elsewhere, plainPort),
        TlsRelay.start(rogue, plainPort));
  }

  /** The CA's certificate in PEM, the file a client is told to trust with {@code sslrootcert}. */
  public Path caPem() {
    return ca.pem();
  }

  /** {@code jdbc:clickhouse:https://127.0.0.1:PORT?sslrootcert=CA} for the trusted front. */
  public String url() {
    return "jdbc:clickhouse:https://127.0.0.1:" + trusted.port() + "?sslrootcert=" + caPem();
  }

  @Override
  public void close() {
    trusted.close();
    elsewhere.close();
    rogue.close();
  }
}
