package dev.cutover.engine.api;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to reach a ClickHouse server: the JDBC URL, the user, where the password comes from, and the
 * working database. Validated when built; holds no secret.
 *
 * <pre>{@code
 * var profile = ConnectionProfile.of("jdbc:clickhouse://ch.internal:8443?ssl=true", "ops",
 *     PasswordSource.environment("CUTOVER_PASSWORD"), "analytics");
 * }</pre>
 */
public record ConnectionProfile(String jdbcUrl, String user, PasswordSource password, String database,
    List<Hook> hooks) {

  private static final Pattern URL = Pattern.compile("jdbc:(clickhouse|ch)(:(http|https))?://[^/?#\\s]+(/[^?#\\s]*)?(\\?\\S*)?");
  private static final Pattern USER = Pattern.compile("[^\\s'\"`\\\\]{1,128}");

  /** A profile whose server runs no hooks of its own. */
  public ConnectionProfile(String jdbcUrl, String user, PasswordSource password, String database) {
    this(jdbcUrl, user, password, database, List.of());
  }

  public ConnectionProfile {
    hooks = hooks == null ? List.of() : List.copyOf(hooks);
    Objects.requireNonNull(password, "password");
    if (jdbcUrl == null || !URL.matcher(jdbcUrl).matches()) {
      throw new InvalidInputException("jdbc-url", "The JDBC URL " + shown(jdbcUrl) + " is not a ClickHouse URL; "
          + "write it as jdbc:clickhouse://HOST:PORT (add ?ssl=true or use jdbc:clickhouse:https:// for TLS).");
    }
    if (hasCredentials(jdbcUrl)) {
      throw new InvalidInputException("jdbc-url", "The JDBC URL carries a user or password; "
          + "remove them from the URL and give the user separately; the password comes from an environment variable, a file "
          + "or a prompt, never from the URL.");
    }
    if (user != null && user.indexOf(':') >= 0) {
      // user:password is how a password is written after a user name: this text may hold one, so it is not
      // repeated, and it is not sent to the server either, whose logs would keep it (and whose HTTP login
      // would read everything after the colon as the password anyway).
      throw new InvalidInputException("user", "The user name you gave contains ':', so it is not repeated here: "
          + "a password typed as user:password? Give the user name alone; the password comes from an environment "
          + "variable, a file or a prompt.");
    }
    if (user == null || !USER.matcher(user).matches()) {
      throw new InvalidInputException("user", "The user name '" + user + "' is empty or holds spaces or quotes; "
          + "give the ClickHouse user name as it was created, for example default.");
    }
    Identifier.validateDatabaseName("database", database);
  }

  public static ConnectionProfile of(String jdbcUrl, String user, PasswordSource password, String database) {
    return new ConnectionProfile(jdbcUrl, user, password, database);
  }

  /**
   * This profile with {@code server}'s hooks: run at every step of every repair made through it, after the spec's
   * own (a saved profile's {@code hooks}).
   */
  public ConnectionProfile withHooks(List<Hook> server) {
    return new ConnectionProfile(jdbcUrl, user, password, database, server);
  }

  /** Whether the URL asks for TLS. */
  public boolean tls() {
    String lower = jdbcUrl.toLowerCase(java.util.Locale.ROOT);
    return lower.startsWith("jdbc:clickhouse:https:") || lower.startsWith("jdbc:ch:https:")
        || lower.matches(".*[?&]ssl=true(&.*)?");
  }

  /** host:port as written in the URL, for sentences. */
  public String address() {
    String rest = jdbcUrl.replaceFirst("^jdbc:(clickhouse|ch)(:(http|https))?://", "");
    int end = rest.length();
    for (char c : new char[] {'/', '?', '#'}) {
      int i = rest.indexOf(c);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    return rest.substring(0, end);
  }

  /** The URL as a sentence may quote it: never a password, nor text that is not shaped as a URL. */
  private static String shown(String url) {
    if (url == null || url.isBlank()) {
      return "(empty)";
    }
    String shown = Redaction.url(url);
    return shown.equals(Redaction.MASK) ? "(not repeated here: it has no scheme://host part)" : "'" + shown + "'";
  }

  private static boolean hasCredentials(String url) {
    String lower = url.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("password=") || lower.contains("user=")) {
      return true;
    }
    String authority = url.replaceFirst("^jdbc:(clickhouse|ch)(:(http|https))?://", "");
    int slash = authority.indexOf('/');
    int query = authority.indexOf('?');
    int end = slash >= 0 ? slash : (query >= 0 ? query : authority.length());
    return authority.substring(0, end).contains("@");
  }

  @Override
  public String toString() {
    return "ConnectionProfile[" + Redaction.url(jdbcUrl) + ", user=" + user + ", " + password.describe()
        + ", database=" + database + (hooks.isEmpty() ? "" : ", " + hooks.size() + " hook(s)") + "]";
  }

  /** The URL without its {@code jdbc:clickhouse:} prefix, as an http(s) URI: host and port for probes. */
  public static URI httpUri(String jdbcUrl) {
    String rest = jdbcUrl.replaceFirst("^jdbc:(clickhouse|ch)(:(http|https))?://", "");
    return URI.create((jdbcUrl.toLowerCase(java.util.Locale.ROOT).matches("^jdbc:(clickhouse|ch):https:.*") ? "https://"
        : "http://") + rest);
  }

  /** Parses for validation only: the URL as a URI must at least have a host. */
  static URI uri(String jdbcUrl) {
    return URI.create(jdbcUrl.substring("jdbc:".length()));
  }
}
