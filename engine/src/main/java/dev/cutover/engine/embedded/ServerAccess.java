package dev.cutover.engine.embedded;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Who may use an embedded server. The server listens on 127.0.0.1 only, but every local process can
 * reach that address, so by default ({@link #restricted()}) the ClickHouse user {@code default},
 * which needs no password and which clickhouse-local itself runs as, keeps only what the server's
 * keep-alive query needs ({@code SYSTEM LISTEN}, and reading {@code system.numbers}); all work goes
 * through the user {@code operator}, whose password is a random secret that only the owner of the
 * data directory can read. {@link #open()} leaves {@code default} every right, as clickhouse-local
 * does on its own (the test suites' shared server uses it).
 *
 * <pre>{@code
 * ServerAccess.restricted();                                  // the console and the command line
 * ServerAccess.restricted().withUser("ops", "s3cret".toCharArray()); // and one more password user
 * }</pre>
 *
 * @param defaultRestricted whether {@code default} is restricted and {@code operator} does the work
 * @param users further users, each with the SHA-256 of its password (never the password itself)
 */
public record ServerAccess(boolean defaultRestricted, List<User> users) {

  /** A user with a password, known to the server by its SHA-256 only. Gets every right. */
  public record User(String name, String sha256Hex) {
    public User {
      Identifier.simple("user", name);
      if (name.equals(OPERATOR) || name.equals(DEFAULT)) {
        throw new InvalidInputException("user", "The user name " + name + " is the embedded server's own; choose "
            + "another.");
      }
      if (sha256Hex == null || !sha256Hex.matches("[0-9a-f]{64}")) {
        throw new InvalidInputException("user", "The password hash of " + name + " is not a SHA-256 in hex.");
      }
    }
  }

  /** The user every Cutover process works as on a restricted server. */
  public static final String OPERATOR = "operator";
  /** The user clickhouse-local runs its own session as, with no password. */
  public static final String DEFAULT = "default";

  public ServerAccess {
    users = List.copyOf(users);
  }

  public static ServerAccess restricted() {
    return new ServerAccess(true, List.of());
  }

  public static ServerAccess open() {
    return new ServerAccess(false, List.of());
  }

  /** This access with one more user whose password is {@code password}; only its SHA-256 is kept. */
  public ServerAccess withUser(String name, char[] password) {
    List<User> more = new ArrayList<>(users);
    more.add(new User(name, sha256(password)));
    return new ServerAccess(defaultRestricted, more);
  }

  /** Whether the server needs a users file: restricted, or with users of its own. */
  boolean configured() {
    return defaultRestricted || !users.isEmpty();
  }

  static String sha256(char[] password) {
    ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    byte[] raw = Arrays.copyOf(bytes.array(), bytes.limit());
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(raw));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    } finally {
      Arrays.fill(raw, (byte) 0);
      Arrays.fill(bytes.array(), (byte) 0);
    }
  }

  /**
   * The users file: default restricted (or open), operator with the directory's secret, and the further
   * users, all with one profile; {@code plainReads} when the server reads its files by plain {@code
   * pread} (see {@link ServerDirectory#plainReads()}).
   */
  String usersXml(String operatorSha256, boolean plainReads) {
    String profile = plainReads
        ? "<default><local_filesystem_read_method>pread</local_filesystem_read_method></default>"
        : "<default/>";
    StringBuilder xml = new StringBuilder("<clickhouse>\n  <profiles>" + profile + "</profiles>\n"
        + "  <quotas><default/></quotas>\n"
        + "  <users>\n    <default>\n      <password></password>\n      <profile>default</profile>\n"
        + "      <quota>default</quota>\n");
    if (defaultRestricted) {
      // Only what the keep-alive query needs: start listening, then sleep row by row over system.numbers.
      xml.append("      <grants>\n        <query>GRANT SYSTEM LISTEN ON *.*</query>\n"
          + "        <query>GRANT SELECT(number) ON system.numbers</query>\n      </grants>\n");
    } else {
      xml.append("      <access_management>1</access_management>\n");
    }
    xml.append("    </default>\n");
    if (defaultRestricted) {
      xml.append(user(OPERATOR, operatorSha256));
    }
    users.forEach(u -> xml.append(user(u.name(), u.sha256Hex())));
    return xml.append("  </users>\n</clickhouse>\n").toString();
  }

  private static String user(String name, String sha256) {
    return "    <" + name + ">\n      <password_sha256_hex>" + sha256 + "</password_sha256_hex>\n"
        + "      <profile>default</profile>\n      <quota>default</quota>\n      <access_management>1</access_management>\n"
        + "    </" + name + ">\n";
  }
}
