package dev.cutover.app.cli;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.connect.Session;
import dev.cutover.engine.embedded.EngineLibrary;
import dev.cutover.engine.embedded.EngineProgress;
import dev.cutover.engine.embedded.UserDirectories;
import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where to connect, shared by every command: the embedded default, or a server given by a JDBC URL
 * and a user. The password never comes from the command line: it comes from an environment
 * variable or an interactive prompt.
 */
public final class ConnectionOptions {

  /** The environment variable read for the password unless --password-env names another. */
  public static final String DEFAULT_PASSWORD_VARIABLE = "CUTOVER_PASSWORD";

  @Option(names = "--jdbc-url", paramLabel = "URL",
      description = "Connect to this ClickHouse server instead of the embedded one, "
          + "e.g. jdbc:clickhouse://host:8123 or jdbc:clickhouse:https://host:8443.")
  String jdbcUrl;

  @Option(names = "--user", paramLabel = "NAME", description = "ClickHouse user (default: ${DEFAULT-VALUE}).",
      defaultValue = "default")
  String user;

  @Option(names = "--database", paramLabel = "NAME",
      description = "Working database for Cutover's own state; must be Atomic (default: default on a server, "
          + "cutover on the embedded engine).")
  String database;

  @Option(names = "--password-env", paramLabel = "VARIABLE",
      description = "Environment variable that holds the password (default: " + DEFAULT_PASSWORD_VARIABLE + ").")
  String passwordVariable = DEFAULT_PASSWORD_VARIABLE;

  @Option(names = "--ask-password", description = "Ask for the password on the terminal.")
  boolean askPassword;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Data directory of the embedded ClickHouse (default: ~/.local/share/cutover/embedded).")
  Path dataDir;

  public boolean embedded() {
    return jdbcUrl == null;
  }

  public Path dataDirectory() {
    return dataDir != null ? dataDir : UserDirectories.embeddedData();
  }

  /** The profile for --jdbc-url; only meaningful when {@link #embedded()} is false. */
  public ConnectionProfile profile() {
    if (embedded()) {
      throw new InvalidInputException("jdbc-url", "No --jdbc-url was given; Cutover uses the embedded engine.");
    }
    return ConnectionProfile.of(jdbcUrl, user, passwordSource(), database == null ? "default" : database);
  }

  private PasswordSource passwordSource() {
    if (askPassword) {
      return PasswordSource.prompt(() -> {
        Console console = System.console();
        if (console == null) {
          throw new InvalidInputException("ask-password", "--ask-password needs a terminal; set the password in $"
              + passwordVariable + " instead.");
        }
        return console.readPassword("Password for %s: ", user);
      });
    }
    var source = PasswordSource.environment(passwordVariable);
    return System.getenv(passwordVariable) == null ? PasswordSource.none() : source;
  }

  /** Opens a session as these options say, reporting progress of starting the embedded engine to {@code err}. */
  public Session open(PrintWriter err) {
    if (!embedded()) {
      if (dataDir != null) {
        throw new InvalidInputException("data-dir", "--data-dir applies to the embedded engine only; "
            + "remove it when connecting with --jdbc-url.");
      }
      return Session.connect(profile());
    }
    if (database != null) {
      throw new InvalidInputException("database", "--database applies to a server given with --jdbc-url; "
          + "the embedded engine always uses its own Atomic database " + Session.EMBEDDED_DATABASE + ".");
    }
    return Session.embedded(dataDirectory(), EngineLibrary.fromEnvironment(), progressTo(err));
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
