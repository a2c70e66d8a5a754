package dev.cutover.engine.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificate authorities and server certificates made for one test with the running JDK's own
 * {@code keytool} (the JDK has no public API that signs a certificate): a CA, server certificates it
 * signs for the names a test asks for, and self-signed ones that no CA vouches for. Everything lives
 * in the folder the test gives, and is valid for two days from now (or expired, when asked for).
 */
public final class TestCertificates {

  private static final String STORE_PASSWORD = "test-only";
  private static final Path KEYTOOL = Path.of(System.getProperty("java.home"), "bin", "keytool");

  private final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  public static TestCertificates in(Path dir) {
    try {
      return new TestCertificates(Files.createDirectories(dir));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A CA: its keystore (to sign with) and its certificate in PEM, the file a client is told to trust. */
  public record Authority(String alias, Path keyStore, Path pem) {}

  /** A server's key with its certificate chain, as a TLS server socket presents it. */
  public record Identity(KeyStore keyStore, char[] password) {}

  /** A new certificate authority named {@code name}. */
  public Authority authority(String name) {
    Path store = dir.resolve(name + "-ca.p12");
    Path pem = dir.resolve(name + "-ca.pem");
    keytool("-genkeypair", "-keystore", store.toString(), "-alias", name, "-dname", "CN=" + name + " test CA",
        "-ext", "bc:c", "-ext", "ku:c=keyCertSign,cRLSign");
    keytool("-exportcert", "-rfc", "-keystore", store.toString(), "-alias", name, "-file", pem.toString());
    return new Authority(name, store, pem);
  }

  /**
   * A server certificate signed by {@code ca} for the subject alternative names {@code san}, written
   * as keytool takes them: {@code ip:127.0.0.1} or {@code dns:db.example}.
   */
  public Identity issue(Authority ca, String name, String san) {
    return issue(ca, name, san, List.of());
  }

  /** As {@link #issue(Authority, String, String)}, for a certificate that expired two days ago. */
  public Identity issueExpired(Authority ca, String name, String san) {
    return issue(ca, name, san, List.of("-startdate", "-3d", "-validity", "1"));
  }

  private Identity issue(Authority ca, String name, String san, List<String> dates) {
    Path store = dir.resolve(name + ".p12");
    Path request = dir.resolve(name + ".csr");
    Path signed = dir.resolve(name + ".pem");
    keytool("-genkeypair", "-keystore", store.toString(), "-alias", name, "-dname", "CN=" + name);
    keytool("-certreq", "-keystore", store.toString(), "-alias", name, "-file", request.toString());
    List<String> gencert = new ArrayList<>(List.of("-gencert", "-rfc", "-keystore", ca.keyStore().toString(), "-alias",
        ca.alias(), "-infile", request.toString(), "-outfile", signed.toString(), "-ext", "SAN=" + san, "-ext",
        "eku=serverAuth"));
    gencert.addAll(dates);
    keytool(gencert.toArray(String[]::new));
    List<Certificate> chain = new ArrayList<>(certificates(signed));
    chain.addAll(certificates(ca.pem()));
    return identity(store, name, chain.toArray(Certificate[]::new));
  }

  /** A certificate that signs itself: no CA a client trusts vouches for it. */
  public Identity selfSigned(String name, String san) {
    Path store = dir.resolve(name + ".p12");
    keytool("-genkeypair", "-keystore", store.toString(), "-alias", name, "-dname", "CN=" + name, "-ext",
        "SAN=" + san);
    return identity(store, name, null);
  }

  private static Identity identity(Path store, String alias, Certificate[] chain) {
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore loaded = KeyStore.getInstance("PKCS12");
      loaded.load(in, STORE_PASSWORD.toCharArray());
      PrivateKey key = (PrivateKey) loaded.getKey(alias, STORE_PASSWORD.toCharArray());
      KeyStore identity = KeyStore.getInstance("PKCS12");
      identity.load(null, null);
      identity.setKeyEntry("server", key, STORE_PASSWORD.toCharArray(),
          chain != null ? chain : loaded.getCertificateChain(alias));
      return new Identity(identity, STORE_PASSWORD.toCharArray());
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("Could not read the keystore " + store + ": " + e, e);
    }
  }

  private static List<? extends Certificate> certificates(Path pem) {
    try (InputStream in = Files.newInputStream(pem)) {
      return List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("Could not read the certificate " + pem + ": " + e, e);
    }
  }

  private void keytool(String... args) {
    List<String> command = new ArrayList<>(List.of(KEYTOOL.toString(), "-J-XX:TieredStopAtLevel=1", "-J-Xshare:auto"));
    command.addAll(List.of(args));
    // Every key is an EC P-256 key in a PKCS12 store, valid for two days.
    if (args[0].equals("-genkeypair")) {
      command.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-storetype", "PKCS12"));
    }
    if ((args[0].equals("-genkeypair") || args[0].equals("-gencert")) && !List.of(args).contains("-validity")) {
      command.addAll(List.of("-validity", "2"));
    }
    command.addAll(List.of("-storepass", STORE_PASSWORD));
    try {
      Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("Could not run " + KEYTOOL + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running keytool", e);
    }
  }
}
