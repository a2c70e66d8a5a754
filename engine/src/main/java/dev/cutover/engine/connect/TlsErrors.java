package dev.cutover.engine.connect;

import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.ConnectionFailedException.Reason;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.Redaction;
import java.io.FileNotFoundException;
import java.nio.file.NoSuchFileException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * What went wrong with TLS, in one sentence that says what to check: a certificate no trusted CA
 * signed, one made out for another host name, one out of its dates, a port that does not speak TLS,
 * or TLS settings in the URL (such as {@code sslrootcert}) that name a file the driver cannot use.
 */
final class TlsErrors {

  private static final Pattern MISMATCH = Pattern.compile("Certificate for <([^>]*)> doesn't match any of the subject "
      + "alternative names: \\[([^\\]]*)]");

  private TlsErrors() {}

  /** The sentence for a TLS failure anywhere in {@code failure}'s causes; empty when TLS is not what failed. */
  static Optional<ConnectionFailedException> classify(ConnectionProfile profile, Exception failure) {
    String address = profile.address();
    Optional<String> rootCertificate = parameter(profile.jdbcUrl(), "sslrootcert");
    Throwable setup = find(failure, t -> t.getClass().getSimpleName().equals("ClientMisconfigurationException")
        && String.valueOf(t.getMessage()).contains("SSL"));
    if (setup != null) {
      return Optional.of(tls(settingsSentence(rootCertificate, setup), failure));
    }
    if (find(failure, t -> t instanceof CertificateExpiredException || t instanceof CertificateNotYetValidException)
        != null) {
      return Optional.of(tls("The certificate of the server at " + address + " has expired or is not valid yet, so "
          + "the connection was refused; have the server's certificate renewed, and check that this machine's clock "
          + "is right.", failure));
    }
    Throwable peer = find(failure, t -> t instanceof SSLPeerUnverifiedException);
    if (peer != null) {
      return Optional.of(tls(hostNameSentence(address, profile, peer.getMessage()), failure));
    }
    if (find(failure, TlsErrors::untrusted) != null) {
      String sentence = rootCertificate.isPresent()
          ? "The server at " + address + " presented a certificate that the CA in " + rootCertificate.get()
              + " (sslrootcert) did not sign, so the connection was refused; check that sslrootcert names the "
              + "certificate of the CA that signed the server's certificate, and that the URL names the right server."
          : "The server at " + address + " presented a certificate that no certificate authority trusted by this "
              + "Java runtime signed, so the connection was refused; if the server's certificate comes from your own "
              + "CA, add sslrootcert=/path/to/ca.pem (that CA's certificate, PEM) to the JDBC URL, and check that the "
              + "URL names the right server.";
      return Optional.of(tls(sentence, failure));
    }
    Throwable ssl = find(failure, t -> t instanceof SSLException);
    if (ssl == null) {
      return Optional.empty();
    }
    String message = String.valueOf(ssl.getMessage());
    if (message.contains("Unsupported or unrecognized SSL message") || message.contains("plaintext")) {
      return Optional.of(tls("The server at " + address + " does not speak TLS on that port (it answers in plain "
          + "HTTP); give the server's HTTPS port in the JDBC URL (8443 by default).", failure));
    }
    return Optional.of(tls("The TLS handshake with " + address + " failed (" + ConnectionErrors.firstLine(message)
        + "); check that the server speaks HTTPS on that port and that its certificate comes from a CA you trust "
        + "(sslrootcert=/path/to/ca.pem in the URL for your own CA).", failure));
  }

  private static String settingsSentence(Optional<String> rootCertificate, Throwable setup) {
    boolean missing = find(setup, t -> t instanceof FileNotFoundException || t instanceof NoSuchFileException) != null;
    if (rootCertificate.isPresent()) {
      return "The CA certificate file " + rootCertificate.get() + " named by sslrootcert in the JDBC URL "
          + (missing ? "cannot be read" : "is not a certificate in PEM form") + "; give the path of the CA's "
          + "certificate (a file that starts with -----BEGIN CERTIFICATE-----), readable by you.";
    }
    return "The TLS settings in the JDBC URL cannot be used (" + (missing ? "a file they name cannot be read"
        : "a file they name is not a certificate or key the driver can read") + "); check the files named by "
        + "sslcert, sslkey and trust_store.";
  }

  private static String hostNameSentence(String address, ConnectionProfile profile, String message) {
    Matcher m = MISMATCH.matcher(String.valueOf(message));
    boolean found = m.find();
    String host = found ? m.group(1) : ConnectionProfile.httpUri(profile.jdbcUrl()).getHost();
    String names = !found || m.group(2).isBlank() ? "" : " (it names " + m.group(2).strip() + ")";
    return "The server at " + address + " presented a certificate that is not made out for " + host + names
        + ", so the connection was refused: the host-name check keeps another server from posing as this one. "
        + "Connect with a host name the certificate names, or have the certificate reissued with " + host
        + " among its subject alternative names.";
  }

  private static boolean untrusted(Throwable t) {
    return t instanceof CertPathBuilderException || t instanceof CertPathValidatorException
        || (t instanceof CertificateException && t.getClass().getSimpleName().contains("Validator"))
        || String.valueOf(t.getMessage()).contains("PKIX path");
  }

  private static ConnectionFailedException tls(String sentence, Exception failure) {
    return new ConnectionFailedException(Reason.TLS, Redaction.text(sentence), failure);
  }

  private static Throwable find(Throwable failure, java.util.function.Predicate<Throwable> what) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (what.test(t)) {
        return t;
      }
    }
    return null;
  }

  /** A query parameter of the URL, as written. */
  static Optional<String> parameter(String jdbcUrl, String name) {
    int query = jdbcUrl.indexOf('?');
    if (query < 0) {
      return Optional.empty();
    }
    for (String pair : jdbcUrl.substring(query + 1).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).equalsIgnoreCase(name)) {
        return Optional.of(pair.substring(eq + 1));
      }
    }
    return Optional.empty();
  }
}
