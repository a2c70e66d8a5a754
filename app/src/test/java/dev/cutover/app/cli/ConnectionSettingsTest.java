package dev.cutover.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PasswordSource;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.ProfileStore;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which source wins for each connection setting: option, then environment, then profile, then built-in. */
class ConnectionSettingsTest {

  @TempDir Path dir;
  private ProfileStore store;
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void saveProfiles() {
    store = new ProfileStore(dir.resolve("profiles.yaml"));
    store.save(SavedProfile.of("prod-eu", "jdbc:clickhouse://ch.eu.internal:8123", "ops", "analytics",
        SavedProfile.Password.ENVIRONMENT, "PROD_PASSWORD"), Optional.empty());
    store.save(SavedProfile.of("staging", "jdbc:clickhouse://ch.staging:8123", "stager", "scratch",
        SavedProfile.Password.ASK, ""), Optional.empty());
  }

  private ConnectionSettings resolve(String url, String user, String database, String profile, Path dataDir) {
    return resolve(url, user, database, profile, dataDir == null ? null : dataDir.toString());
  }

  private ConnectionSettings resolve(String url, String user, String database, String profile, String dataDir) {
    return ConnectionSettings.resolve(new ConnectionSettings.Given(url, user, database, profile, null, false, dataDir),
        env::get, () -> store, () -> dir.resolve("embedded"), u -> PasswordSource.prompt(() -> "typed".toCharArray()));
  }

  /** name → "value (source)" for every setting. */
  private static Map<String, String> shown(ConnectionSettings s) {
    return s.settings().stream().collect(Collectors.toMap(Setting::name, x -> x.value() + " (" + x.source() + ")"));
  }

  @Test
  void withNothingGivenTheEmbeddedEngineAndItsOwnDatabase() {
    ConnectionSettings s = resolve(null, null, null, null, (Path) null);
    assertTrue(s.embedded());
    assertEquals(dir.resolve("embedded"), s.dataDirectory());
    assertEquals("cutover (the embedded engine's own) (built-in)", shown(s).get("database"));
  }

  @Test
  void aProfileGivesEverySettingTheOptionsAndEnvironmentDoNot() {
    ConnectionSettings s = resolve(null, null, null, "prod-eu", (Path) null);
    assertFalse(s.embedded());
    assertEquals("jdbc:clickhouse://ch.eu.internal:8123", s.profile().jdbcUrl());
    assertEquals("ops", s.profile().user());
    assertEquals("analytics", s.profile().database());
    assertEquals("password from $PROD_PASSWORD", s.profile().password().describe());
    assertEquals(Map.of("server", "jdbc:clickhouse://ch.eu.internal:8123 (profile prod-eu)",
        "profile", "prod-eu (option --profile)", "user", "ops (profile prod-eu)",
        "database", "analytics (profile prod-eu)", "password", "from $PROD_PASSWORD (profile prod-eu)",
        "data dir", "not used (a server is given) (built-in)"), shown(s));
  }

  @Test
  void anOptionBeatsTheEnvironmentWhichBeatsTheProfileWhichBeatsTheBuiltInDefault() {
    env.put("CUTOVER_PROFILE", "prod-eu");
    env.put("CUTOVER_JDBC_URL", "jdbc:clickhouse://ch.override:8123");
    env.put("CUTOVER_USER", "env-user");
    env.put("CUTOVER_DATABASE", "env_db");
    env.put("CUTOVER_PASSWORD", "s3cret-in-env");
    ConnectionSettings s = resolve(null, "cli-user", null, null, (Path) null);
    Map<String, String> shown = shown(s);
    assertEquals("jdbc:clickhouse://ch.override:8123 ($CUTOVER_JDBC_URL)", shown.get("server"));
    assertEquals("prod-eu ($CUTOVER_PROFILE)", shown.get("profile"));
    assertEquals("cli-user (option --user)", shown.get("user"));
    assertEquals("env_db ($CUTOVER_DATABASE)", shown.get("database"));
    assertEquals("from $CUTOVER_PASSWORD ($CUTOVER_PASSWORD)", shown.get("password"));
    assertEquals("password from $CUTOVER_PASSWORD", s.profile().password().describe());
    assertFalse(s.settings().toString().contains("s3cret-in-env"), "no setting shows the password");

    // The option names another profile: it wins over CUTOVER_PROFILE; the environment still wins over it.
    env.remove("CUTOVER_USER");
    env.remove("CUTOVER_PASSWORD");
    ConnectionSettings staging = resolve(null, null, null, "staging", (Path) null);
    assertEquals("stager (profile staging)", shown(staging).get("user"));
    assertEquals("asked for at connect (profile staging)", shown(staging).get("password"));
    assertEquals("jdbc:clickhouse://ch.override:8123", staging.profile().jdbcUrl());

    env.remove("CUTOVER_JDBC_URL");
    env.remove("CUTOVER_DATABASE");
    env.remove("CUTOVER_PROFILE");
    ConnectionSettings builtIn = resolve("jdbc:clickhouse://h:8123", null, null, null, (Path) null);
    assertEquals("default (built-in)", shown(builtIn).get("user"));
    assertEquals("default (built-in)", shown(builtIn).get("database"));
    assertEquals("none (built-in)", shown(builtIn).get("password"));
  }

  @Test
  void anExplicitDataDirectoryChoosesTheEmbeddedEngineOverAServerInTheEnvironment() {
    env.put("CUTOVER_JDBC_URL", "jdbc:clickhouse://ch.override:8123");
    env.put("CUTOVER_PROFILE", "prod-eu");
    ConnectionSettings s = resolve(null, null, null, null, dir.resolve("mine"));
    assertTrue(s.embedded());
    assertEquals(dir.resolve("mine"), s.dataDirectory());
    assertEquals(dir.resolve("mine") + " (option --data-dir)", shown(s).get("data dir"));
  }

  @Test
  void anEmptyOrRelativeDataDirectoryIsRefusedNeverTakenAsTheWorkingDirectory() {
    for (String empty : java.util.List.of("", "  ")) {
      var e = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, null, empty));
      assertEquals("data-dir", e.field());
      assertEquals("--data-dir is empty: an unset variable in a script? Give a directory, or leave the option out "
          + "for " + dir.resolve("embedded") + ".", e.getMessage());
      // Before anything else is judged: with a server named too, the empty value is what is wrong first.
      assertEquals(e.getMessage(), assertThrows(InvalidInputException.class,
          () -> resolve("jdbc:clickhouse://h:8123", null, null, null, empty)).getMessage());
    }
    var relative = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, null, "data/embedded"));
    assertEquals("--data-dir 'data/embedded' is a relative path: a command run from another directory would use "
        + "another data directory. Give an absolute path, such as " + Path.of("").toAbsolutePath().resolve(
            "data/embedded") + ".", relative.getMessage());
    var tilde = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, null, "~/cutover-data"));
    assertEquals("--data-dir '~/cutover-data' starts with '~', which the shell expands only at the start of a word "
        + "(not after '='); give " + Path.of(System.getProperty("user.home"), "cutover-data") + ".", tilde.getMessage());
  }

  @Test
  void theDefaultDataDirectoryIsAskedForOnlyWhenTheEmbeddedEngineIsUsed() {
    java.util.function.Supplier<Path> refusing = () -> {
      throw new InvalidInputException("XDG_DATA_HOME", "$XDG_DATA_HOME is set but empty");
    };
    ConnectionSettings server = ConnectionSettings.resolve(new ConnectionSettings.Given("jdbc:clickhouse://h:8123",
        null, null, null, null, false, null), env::get, () -> store, refusing, u -> PasswordSource.none());
    assertFalse(server.embedded());
    var embedded = assertThrows(InvalidInputException.class, () -> ConnectionSettings.resolve(
        new ConnectionSettings.Given(null, null, null, null, null, false, null), env::get, () -> store, refusing,
        u -> PasswordSource.none()));
    assertEquals("XDG_DATA_HOME", embedded.field());
    var empty = assertThrows(InvalidInputException.class, () -> ConnectionSettings.resolve(
        new ConnectionSettings.Given(null, null, null, null, null, false, ""), env::get, () -> store, refusing,
        u -> PasswordSource.none()));
    assertTrue(empty.getMessage().endsWith("leave the option out for the default, $XDG_DATA_HOME/cutover/embedded "
        + "(~/.local/share/cutover/embedded)."), empty.getMessage());
  }

  @Test
  void refusalsNameTheOptionOrVariableThatFixesThem() {
    env.put("CUTOVER_DATABASE", "analytics");
    var noServer = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, null, (Path) null));
    assertEquals("$CUTOVER_DATABASE is set, but no server is named: set CUTOVER_JDBC_URL or give --jdbc-url or "
        + "--profile to connect to your server, or unset CUTOVER_DATABASE to use the embedded engine.",
        noServer.getMessage());
    env.clear();

    var unknown = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, "prod", (Path) null));
    assertEquals("There is no saved profile 'prod' (option --profile) in " + store.file() + "; the saved profiles "
        + "are prod-eu, staging. Give --profile one of them.", unknown.getMessage());
    env.put("CUTOVER_PROFILE", "prod");
    var unknownInEnv = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, null, (Path) null));
    assertTrue(unknownInEnv.getMessage().endsWith("Set CUTOVER_PROFILE to one of them."), unknownInEnv.getMessage());
    env.clear();

    var both = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, "prod-eu", dir));
    assertEquals("--data-dir applies to the embedded engine only; remove it when connecting with --profile.",
        both.getMessage());
    var userOnEmbedded = assertThrows(InvalidInputException.class, () -> resolve(null, "ops", null, null, (Path) null));
    assertTrue(userOnEmbedded.getMessage().startsWith("--user applies to a server given with --jdbc-url or "
        + "--profile"), userOnEmbedded.getMessage());
  }
}
