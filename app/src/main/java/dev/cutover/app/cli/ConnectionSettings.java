package dev.cutover.app.cli;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.Redaction;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where the command line connects, resolved once from its four sources, strongest first: an option, an
 * environment variable ({@code CUTOVER_JDBC_URL}, {@code CUTOVER_USER}, {@code CUTOVER_DATABASE},
 * {@code CUTOVER_PASSWORD}, {@code CUTOVER_PROFILE}), a saved profile of the console ({@code --profile} or
 * {@code CUTOVER_PROFILE}), and the built-in defaults. With no server from any of them, the embedded engine.
 * {@link #settings()} says for each setting where it came from; no password is ever held here, only where it is read.
 */
public final class ConnectionSettings {

  public static final String URL_VARIABLE = "CUTOVER_JDBC_URL";
  public static final String USER_VARIABLE = "CUTOVER_USER";
  public static final String DATABASE_VARIABLE = "CUTOVER_DATABASE";
  public static final String PROFILE_VARIABLE = "CUTOVER_PROFILE";
  public static final String PASSWORD_VARIABLE = "CUTOVER_PASSWORD";

  static final String DEFAULT_USER = "default";
  static final String DEFAULT_DATABASE = "default";

  /** What was typed on the command line; null where an option was not given. */
  record Given(String jdbcUrl, String user, String database, String profile, String passwordVariable,
      boolean askPassword, String dataDir) {}

  private final Setting server;
  private final Optional<Setting> profile;
  private final Setting user;
  private final Setting database;
  private final Setting password;
  private final Setting dataDir;
  private final PasswordSource passwordSource;
  private final Optional<String> jdbcUrl;
  private final Supplier<Path> dataDirectory;

  private ConnectionSettings(Optional<String> jdbcUrl, Setting server, Optional<Setting> profile, Setting user,
      Setting database, Setting password, PasswordSource passwordSource, Setting dataDir, Supplier<Path> dataDirectory) {
    this.jdbcUrl = jdbcUrl;
    this.dataDirectory = dataDirectory;
    this.server = server;
    this.profile = profile;
    this.user = user;
    this.database = database;
    this.password = password;
    this.passwordSource = passwordSource;
    this.dataDir = dataDir;
  }

  /**
   * Resolves {@code given} against the environment and the saved profiles.
   *
   * @param environment reads one environment variable; null or blank counts as not set
   * @param profiles the console's saved profiles, read only when a profile is named
   * @param defaultDataDir the embedded engine's data directory when --data-dir is not given, asked only then (it
   *     refuses an empty or relative XDG_DATA_HOME)
   * @param prompt asks for a password on the terminal, for --ask-password or a profile that asks
   */
  static ConnectionSettings resolve(Given given, Function<String, String> environment, Supplier<ProfileStore> profiles,
      Supplier<Path> defaultDataDir, Function<String, PasswordSource> prompt) {
    Optional<Path> dataDirOption = given.dataDir() == null ? Optional.empty()
        : Optional.of(DataDirOption.check(given.dataDir(), defaultDataDir));
    Function<String, String> env = name -> {
      String value = environment.apply(name);
      return value == null || value.isBlank() ? null : value.strip();
    };
    Optional<SavedProfile> saved = Optional.empty();
    Optional<Setting> profileSetting = Optional.empty();
    String profileName = given.profile() != null ? given.profile() : env.apply(PROFILE_VARIABLE);
    if (profileName != null) {
      String source = given.profile() != null ? Setting.option("--profile") : Setting.environment(PROFILE_VARIABLE);
      if (given.profile() != null && given.dataDir() != null) {
        throw new InvalidInputException("data-dir", "--data-dir applies to the embedded engine only; remove it "
            + "when connecting with --profile.");
      }
      if (given.profile() != null || given.dataDir() == null) {
        saved = Optional.of(find(profiles.get(), profileName, source));
        profileSetting = Optional.of(new Setting("profile", saved.get().name(), source));
      }
    }
    // An explicit --data-dir asks for the embedded engine: it outranks a server named by the environment.
    boolean embeddedByOption = given.dataDir() != null && given.jdbcUrl() == null;
    String url = given.jdbcUrl();
    String urlSource = Setting.option("--jdbc-url");
    if (url == null && !embeddedByOption) {
      if (env.apply(URL_VARIABLE) != null) {
        url = env.apply(URL_VARIABLE);
        urlSource = Setting.environment(URL_VARIABLE);
      } else if (saved.isPresent()) {
        url = saved.get().jdbcUrl();
        urlSource = Setting.profile(saved.get().name());
      }
    }
    if (url == null) {
      return embedded(given, env, embeddedByOption, dataDirOption, defaultDataDir);
    }
    if (given.dataDir() != null) {
      throw new InvalidInputException("data-dir", "--data-dir applies to the embedded engine only; remove it "
          + "when connecting with --jdbc-url.");
    }
    Setting server = new Setting("server", Redaction.url(url), urlSource);
    Setting user = pick("user", given.user(), "--user", env.apply(USER_VARIABLE), USER_VARIABLE, saved,
        SavedProfile::user, DEFAULT_USER);
    Setting database = pick("database", given.database(), "--database", env.apply(DATABASE_VARIABLE),
        DATABASE_VARIABLE, saved, SavedProfile::database, DEFAULT_DATABASE);
    PasswordSource source;
    Setting password;
    if (given.askPassword()) {
      source = prompt.apply(user.value());
      password = new Setting("password", "asked for at the terminal", Setting.option("--ask-password"));
    } else if (given.passwordVariable() != null) {
      PasswordSource named = PasswordSource.environment(given.passwordVariable());
      source = env.apply(given.passwordVariable()) == null ? PasswordSource.none() : named;
      password = new Setting("password", env.apply(given.passwordVariable()) == null ? "none ($"
          + given.passwordVariable() + " is not set)" : "from $" + given.passwordVariable(),
          Setting.option("--password-env"));
    } else if (env.apply(PASSWORD_VARIABLE) != null) {
      source = PasswordSource.environment(PASSWORD_VARIABLE);
      password = new Setting("password", "from $" + PASSWORD_VARIABLE, Setting.environment(PASSWORD_VARIABLE));
    } else if (saved.isPresent()) {
      SavedProfile p = saved.get();
      source = p.connectionProfile(() -> prompt.apply(user.value()).resolve()).password();
      String where = switch (p.password()) {
        case NONE -> "none";
        case ASK -> "asked for at connect";
        case ENVIRONMENT, FILE -> p.describePassword().replaceFirst("^password ", "");
      };
      password = new Setting("password", where, Setting.profile(p.name()));
    } else {
      source = PasswordSource.none();
      password = new Setting("password", "none", Setting.BUILT_IN);
    }
    // Validates URL, user and database with the sentences of a profile, before anything connects.
    ConnectionProfile.of(url, user.value(), source, database.value());
    return new ConnectionSettings(Optional.of(url), server, profileSetting, user, database, password, source,
        new Setting("data dir", "not used (a server is given)", Setting.BUILT_IN), defaultDataDir);
  }

  private static ConnectionSettings embedded(Given given, Function<String, String> env, boolean byOption,
      Optional<Path> dataDirOption, Supplier<Path> defaultDataDir) {
    if (given.database() != null) {
      throw new InvalidInputException("database", "--database applies to a server given with --jdbc-url or "
          + "--profile; the embedded engine always uses its own Atomic database " + Session.EMBEDDED_DATABASE + ".");
    }
    if (given.user() != null) {
      throw new InvalidInputException("user", "--user applies to a server given with --jdbc-url or --profile; "
          + "the embedded engine has its own user.");
    }
    if (!byOption) {
      for (String variable : List.of(USER_VARIABLE, DATABASE_VARIABLE)) {
        if (env.apply(variable) != null) {
          throw new InvalidInputException(variable.equals(USER_VARIABLE) ? "user" : "database", "$" + variable
              + " is set, but no server is named: set " + URL_VARIABLE + " or give --jdbc-url or --profile to "
              + "connect to your server, or unset " + variable + " to use the embedded engine.");
        }
      }
    }
    Path dir = dataDirOption.orElseGet(defaultDataDir);
    String dirSource = given.dataDir() != null ? Setting.option("--data-dir") : Setting.BUILT_IN;
    String why = byOption ? "--data-dir names its data directory" : "no --jdbc-url, $" + URL_VARIABLE + " or profile";
    return new ConnectionSettings(Optional.empty(), new Setting("server", "the embedded ClickHouse (" + why + ")",
        byOption ? Setting.option("--data-dir") : Setting.BUILT_IN), Optional.empty(),
        new Setting("user", "operator (the embedded engine's own)", Setting.BUILT_IN),
        new Setting("database", Session.EMBEDDED_DATABASE + " (the embedded engine's own)", Setting.BUILT_IN),
        new Setting("password", "the embedded engine's secret in its data directory", Setting.BUILT_IN),
        PasswordSource.none(), new Setting("data dir", dir.toString(), dirSource), () -> dir);
  }

  private static Setting pick(String name, String option, String optionName, String variableValue, String variable,
      Optional<SavedProfile> saved, Function<SavedProfile, String> fromProfile, String builtIn) {
    if (option != null) {
      return new Setting(name, option, Setting.option(optionName));
    }
    if (variableValue != null) {
      return new Setting(name, variableValue, Setting.environment(variable));
    }
    if (saved.isPresent()) {
      return new Setting(name, fromProfile.apply(saved.get()), Setting.profile(saved.get().name()));
    }
    return new Setting(name, builtIn, Setting.BUILT_IN);
  }

  private static SavedProfile find(ProfileStore store, String name, String source) {
    List<SavedProfile> all = store.list();
    return all.stream().filter(p -> p.name().equalsIgnoreCase(name.strip())).findFirst().orElseThrow(() -> {
      String how = source.startsWith("$") ? "set " + PROFILE_VARIABLE + " to" : "give --profile";
      String known = all.isEmpty() ? "there is none yet: save one on the console's Connection screen, or give the "
          + "server with --jdbc-url" : "the saved profiles are " + String.join(", ",
          all.stream().map(SavedProfile::name).toList());
      return new InvalidInputException("profile", "There is no saved profile '" + name + "' (" + source + ") in "
          + store.file() + "; " + known + ". " + capitalized(how) + " one of them.");
    });
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  public boolean embedded() {
    return jdbcUrl.isEmpty();
  }

  /** The embedded engine's data directory: --data-dir, or the built-in one. */
  public Path dataDirectory() {
    return dataDirectory.get();
  }

  /** The profile to connect with; only for a server ({@link #embedded()} false). */
  public ConnectionProfile profile() {
    if (jdbcUrl.isEmpty()) {
      throw new InvalidInputException("jdbc-url", "No server was given (--jdbc-url, $" + URL_VARIABLE
          + " or --profile); Cutover uses the embedded engine.");
    }
    return ConnectionProfile.of(jdbcUrl.get(), user.value(), passwordSource, database.value());
  }

  /** Every setting with where it came from, in the order {@code check --verbose} prints them. */
  public List<Setting> settings() {
    List<Setting> all = new ArrayList<>();
    all.add(server);
    profile.ifPresent(all::add);
    all.add(user);
    all.add(database);
    all.add(password);
    all.add(dataDir);
    return List.copyOf(all);
  }
}
