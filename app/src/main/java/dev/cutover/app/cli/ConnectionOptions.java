package dev.cutover.app.cli;

import dev.cutover.engine.EmbeddedEngine;
import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.Redaction;
import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where to connect, shared by every command: the embedded default, or a server given by an option, an environment
 * variable or a saved profile of the console (see {@link ConnectionSettings} for which wins). The password never
 * comes from the command line: it comes from an environment variable, a file a profile names, or a prompt.
 */
public final class ConnectionOptions {

  /** The environment variable read for the password unless --password-env names another. */
  public static final String DEFAULT_PASSWORD_VARIABLE = ConnectionSettings.PASSWORD_VARIABLE;

  @Option(names = "--jdbc-url", paramLabel = "URL",
      description = "Connect to this ClickHouse server instead of the embedded one, e.g. jdbc:clickhouse://host:8123 "
          + "or jdbc:clickhouse:https://host:8443 (default: $CUTOVER_JDBC_URL, else the profile's).")
  String jdbcUrl;

  @Option(names = "--profile", paramLabel = "NAME",
      description = "Connect as the console's saved profile NAME says (~/.config/cutover/profiles.yaml; default: "
          + "$CUTOVER_PROFILE). Options and CUTOVER_* variables override its settings one by one.")
  String profile;

  @Option(names = "--user", paramLabel = "NAME",
      description = "ClickHouse user on a server (default: $CUTOVER_USER, else the profile's, else default).")
  String user;

  @Option(names = "--database", paramLabel = "NAME",
      description = "Working database for Cutover's own state on a server; must be Atomic (default: "
          + "$CUTOVER_DATABASE, else the profile's, else default). The embedded engine always uses its own, cutover.")
  String database;

  @Option(names = "--password-env", paramLabel = "VARIABLE",
      description = "Environment variable that holds the password (default: " + DEFAULT_PASSWORD_VARIABLE
          + ", else where the profile says).")
  String passwordVariable;

  @Option(names = "--ask-password", description = "Ask for the password on the terminal.")
  boolean askPassword;

  // Text, not a Path: an empty value (an unset variable in a script) must be seen as such, not read as the
  // working directory.
  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Use the embedded ClickHouse on this data directory, an absolute path: a new or empty folder, or "
          + "one Cutover made (default: ~/.local/share/cutover/embedded).")
  String dataDir;

  @Option(names = "--shards", paramLabel = "N",
      description = "Use the embedded local cluster of N shards (2 to 8) in the data directory's folder cluster instead "
          + "of one embedded server, starting the shards that are not running: for a sharded repair on this machine (docs/CLUSTER.md).")
  Integer shards;

  @Option(names = {"-v", "--verbose"},
      description = "Say where each connection setting came from, and each step of connecting, on stderr.")
  boolean verbose;

  private ConnectionSettings resolved;

  /**
   * Takes the connection options written before the command ({@code cutover --data-dir D backfill}) where the
   * command's own are not given, so that they are never silently ignored; the same option given on both sides with
   * two values is refused.
   */
  public void inherit(ConnectionOptions before) {
    jdbcUrl = one("--jdbc-url", jdbcUrl, before.jdbcUrl);
    profile = one("--profile", profile, before.profile);
    user = one("--user", user, before.user);
    database = one("--database", database, before.database);
    passwordVariable = one("--password-env", passwordVariable, before.passwordVariable);
    dataDir = one("--data-dir", dataDir, before.dataDir);
    shards = one("--shards", shards, before.shards);
    askPassword |= before.askPassword;
    verbose |= before.verbose;
    resolved = null;
  }

  /** Whether any connection option was given. */
  public boolean given() {
    return jdbcUrl != null || profile != null || user != null || database != null || passwordVariable != null
        || dataDir != null || shards != null || askPassword || verbose;
  }

  private static <T> T one(String option, T after, T before) {
    if (after != null && before != null && !after.equals(before)) {
      throw new InvalidInputException(option.substring(2), option + " is given twice, before and after the command, "
          + "with two values; give it once.");
    }
    return after != null ? after : before;
  }

  /** The settings as the options, the environment and the profiles give them, resolved once. */
  public ConnectionSettings settings() {
    if (resolved == null) {
      ConnectionSettings.Given given = new ConnectionSettings.Given(jdbcUrl, user, database, profile,
          passwordVariable, askPassword, dataDir);
      resolved = ConnectionSettings.resolve(given, System::getenv, ProfileStore::forUser,
          EmbeddedEngine::defaultDataDirectory, ConnectionOptions::terminalPrompt);
    }
    return resolved;
  }

  /** The number of shards --shards asks for, refused in a sentence unless it is one the local cluster can start. */
  public int localShards() {
    if (!settings().embedded()) {
      throw new InvalidInputException("shards", "--shards starts the embedded local cluster; it cannot be given with a "
          + "server (--jdbc-url, a profile or $CUTOVER_JDBC_URL), whose spec names its own cluster.");
    }
    if (shards < 2 || shards > Session.MAX_LOCAL_SHARDS) {
      throw new InvalidInputException("shards", "--shards " + shards + " is not a number of shards from 2 to "
          + Session.MAX_LOCAL_SHARDS + "; give one, or leave it out for one server.");
    }
    return shards;
  }

  /** Where the embedded local cluster keeps its shards: the data directory's folder {@code cluster}. */
  public Path clusterRoot() {
    return EmbeddedEngine.localClusterFolder(settings().dataDirectory());
  }

  /**
   * {@link #clusterRoot()}, for starting the cluster there: the data directory is made Cutover's first (created,
   * or an empty one marked), or refused in a sentence when it holds what Cutover did not make.
   */
  public Path claimedClusterRoot() {
    EmbeddedEngine.claim(settings().dataDirectory());
    return clusterRoot();
  }

  /** Whether --shards asks for the embedded local cluster. */
  public boolean localCluster() {
    return shards != null;
  }

  public boolean verbose() {
    return verbose;
  }

  public boolean embedded() {
    return settings().embedded();
  }

  /** The embedded engine's data directory: --data-dir, checked, or the built-in one. */
  public Path dataDirectory() {
    return settings().dataDirectory();
  }

  /** The profile for a server; only meaningful when {@link #embedded()} is false. */
  public ConnectionProfile profile() {
    return settings().profile();
  }

  private static PasswordSource terminalPrompt(String user) {
    return PasswordSource.prompt(() -> {
      Console console = System.console();
      if (console == null) {
        throw new InvalidInputException("ask-password", "--ask-password needs a terminal; set the password in $"
            + DEFAULT_PASSWORD_VARIABLE + " instead.");
      }
      return console.readPassword("Password for %s: ", user);
    });
  }

  /**
   * Opens a session as these options say. With --verbose, first every setting and where it came from, then each
   * step of connecting, on {@code err}; without it only work that takes long (fetching the engine) is reported.
   */
  public Session open(PrintWriter err) {
    ConnectionSettings settings = settings();
    if (verbose) {
      err.println("Connection settings (an option wins over an environment variable, which wins over the profile):");
      settings.settings().forEach(s -> err.println(s.line()));
      err.flush();
    }
    if (shards != null) {
      return Session.cluster(claimedClusterRoot(), localShards(), progress(err));
    }
    if (!settings.embedded()) {
      if (verbose) {
        err.println("Connecting to " + Redaction.url(settings.profile().jdbcUrl()) + " as " + settings.profile().user());
        err.flush();
      }
      return Session.connect(settings.profile());
    }
    return Session.embedded(settings.dataDirectory(), progress(err));
  }

  /** Progress of getting the embedded engine ready: every step with --verbose, else only work that measures itself. */
  public EngineProgress progress(PrintWriter err) {
    EngineProgress all = progressTo(err);
    // Joining, connecting and starting report no amount; fetching and unpacking the engine, which take minutes
    // once, do.
    return verbose ? all : (step, done, total) -> {
      if (done >= 0) {
        all.report(step, done, total);
      }
    };
  }

  /** Progress lines on stderr, one per step; byte counts as a percentage. */
  public static EngineProgress progressTo(PrintWriter err) {
    return new EngineProgress() {
      private String lastStep = "";
      private long lastPercent = -1;

      @Override
      public void report(String step, long done, long total) {
        if (total > 0) {
          long percent = done * 100 / total;
          if (percent / 10 != lastPercent / 10 || !step.equals(lastStep)) {
            err.printf("%s: %d%%%n", step, percent);
            err.flush();
          }
          lastPercent = percent;
        } else if (!step.replaceAll("\\(\\d+ s\\)", "").equals(lastStep.replaceAll("\\(\\d+ s\\)", ""))
            || step.matches(".*\\((\\d*[05]) s\\).*")) {
          err.println(step);
          err.flush();
        }
        lastStep = step;
      }
    };
  }
}
