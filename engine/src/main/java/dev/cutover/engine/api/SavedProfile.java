package dev.cutover.engine.api;

import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A connection profile as it is saved: a name, the JDBC URL, the user, the database, and where the
 * password comes from. Never the password itself: it is asked for at connect, read from an
 * environment variable, read from a file only its owner can read, or there is none.
 *
 * <pre>{@code
 * var prod = SavedProfile.of("prod-eu", "jdbc:clickhouse:https://ch.eu.internal:8443", "ops", "analytics",
 *     SavedProfile.Password.ASK, "");
 * Session.connect(prod.connectionProfile(() -> dialog.askPassword()));
 * }</pre>
 */
public record SavedProfile(String name, String jdbcUrl, String user, String database, Password password,
    String passwordReference, java.util.List<Hook> hooks) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}");

  /** Where the password of a saved profile comes from. */
  public enum Password {
    NONE("no password"),
    ASK("asked for at connect"),
    ENVIRONMENT("from an environment variable"),
    FILE("from a file");

    private final String label;

    Password(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    /** The value as saved: none, ask, env or file. */
    public String saved() {
      return switch (this) {
        case NONE -> "none";
        case ASK -> "ask";
        case ENVIRONMENT -> "env";
        case FILE -> "file";
      };
    }
  }

  /** A saved profile whose server runs no hooks of its own. */
  public SavedProfile(String name, String jdbcUrl, String user, String database, Password password,
      String passwordReference) {
    this(name, jdbcUrl, user, database, password, passwordReference, java.util.List.of());
  }

  public SavedProfile {
    hooks = hooks == null ? java.util.List.of() : java.util.List.copyOf(hooks);
    name = name == null ? "" : name.strip();
    if (!NAME.matcher(name).matches()) {
      throw new InvalidInputException("profile-name", "The profile name '" + name + "' is empty, too long or holds "
          + "characters other than letters, digits, spaces and . _ @ -; name it for the server, for example prod-eu.");
    }
    if (password == null) {
      throw new InvalidInputException("profile-password", "Say where the password comes from: none, asked for at "
          + "connect, an environment variable or a file.");
    }
    passwordReference = passwordReference == null ? "" : passwordReference.strip();
    // Validates the URL (no credentials in it), the user and the database with the sentences of the command line.
    new ConnectionProfile(jdbcUrl == null ? null : jdbcUrl.strip(), user == null ? null : user.strip(),
        source(password, passwordReference, () -> new char[0]), database == null ? null : database.strip());
    jdbcUrl = jdbcUrl.strip();
    user = user.strip();
    database = database.strip();
  }

  public static SavedProfile of(String name, String jdbcUrl, String user, String database, Password password,
      String passwordReference) {
    return new SavedProfile(name, jdbcUrl, user, database, password, passwordReference);
  }

  /** The profile to connect with; {@code ask} is called when the password is asked for at connect. */
  public ConnectionProfile connectionProfile(Supplier<char[]> ask) {
    return new ConnectionProfile(jdbcUrl, user, source(password, passwordReference, ask), database, hooks);
  }

  /**
   * This profile with {@code server} as its own hooks: commands run at every repair made through it, after the
   * spec's (paging, a change log), with the event as JSON on their standard input.
   */
  public SavedProfile withHooks(java.util.List<Hook> server) {
    return new SavedProfile(name, jdbcUrl, user, database, password, passwordReference, server);
  }

  /** Where the password comes from, in words, for screens. */
  public String describePassword() {
    return switch (password) {
      case NONE, ASK -> "password " + password.label();
      case ENVIRONMENT -> "password from $" + passwordReference;
      case FILE -> "password from " + passwordReference;
    };
  }

  /** One line for lists: name, user, address and database. */
  public String describe() {
    return name + " — " + user + " at " + connectionProfile(() -> new char[0]).address() + ", database " + database;
  }

  private static PasswordSource source(Password password, String reference, Supplier<char[]> ask) {
    return switch (password) {
      case NONE -> PasswordSource.none();
      case ASK -> PasswordSource.prompt(ask);
      case ENVIRONMENT -> {
        if (reference.isEmpty()) {
          throw new InvalidInputException("profile-password-env", "Give the name of the environment variable that "
              + "holds the password, for example CUTOVER_PASSWORD.");
        }
        yield PasswordSource.environment(reference);
      }
      case FILE -> {
        if (reference.isEmpty() || !Path.of(reference).isAbsolute()) {
          throw new InvalidInputException("profile-password-file", "Give the absolute path of the file that holds "
              + "the password (its first line), for example /home/ops/.clickhouse-password, readable by you only.");
        }
        yield PasswordSource.file(Path.of(reference));
      }
    };
  }

  /** Parses the saved value: none, ask, env or file (case-insensitive). */
  public static Password parsePassword(String saved) {
    String value = saved == null ? "" : saved.strip().toLowerCase(Locale.ROOT);
    for (Password p : Password.values()) {
      if (p.saved().equals(value)) {
        return p;
      }
    }
    // Not repeated: a password written where its source belongs must not be echoed.
    throw new InvalidInputException("profile-password", "The password setting (password_from) is not one of none, "
        + "ask, env or file; the value found is not repeated here, in case it is a password.");
  }
}
