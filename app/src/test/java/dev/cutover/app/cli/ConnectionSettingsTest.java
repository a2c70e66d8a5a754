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
    return ConnectionSettings.resolve(new ConnectionSettings.Given(url, user, database, profile, null, false, dataDir),
        env::get, () -> store, dir.resolve("embedded"), u -> PasswordSource.prompt(() -> "typed".toCharArray()));
  }

  /** name → "value (source)" for every setting. */
  private static Map<String, String> shown(ConnectionSettings s) {
    return s.settings().stream().collect(Collectors.toMap(Setting::name, x -> x.value() + " (" + x.source() + ")"));
  }

  @Test
  void withNothingGivenTheEmbeddedEngineAndItsOwnDatabase() {
    ConnectionSettings s = resolve(null, null, null, null, null);
    assertTrue(s.embedded());
    assertEquals(dir.resolve("embedded"), s.dataDirectory());
    assertEquals("cutover (the embedded engine's own) (built-in)", shown(s).get("database"));
  }

  @Test
  void aProfileGivesEverySettingTheOptionsAndEnvironmentDoNot() {
    ConnectionSettings s = resolve(null, null, null, "prod-eu", null);
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
    ConnectionSettings s = resolve(null, "cli-user", null, null, null);
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
    ConnectionSettings staging = resolve(null, null, null, "staging", null);
    assertEquals("stager (profile staging)", shown(staging).get("user"));
    assertEquals("asked for at connect (profile staging)", shown(staging).get("password"));
    assertEquals("jdbc:clickhouse://ch.override:8123", staging.profile().jdbcUrl());

    env.remove("CUTOVER_JDBC_URL");
    env.remove("CUTOVER_DATABASE");
    env.remove("CUTOVER_PROFILE");
    ConnectionSettings builtIn = resolve("jdbc:clickhouse://h:8123", null, null, null, null);
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
  void refusalsNameTheOptionOrVariableThatFixesThem() {
    env.put("CUTOVER_DATABASE", "analytics");
    var noServer = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, null, null));
    assertEquals("$CUTOVER_DATABASE is set, but no server is named: set CUTOVER_JDBC_URL or give --jdbc-url or "
        + "--profile to connect to your server, or unset CUTOVER_DATABASE to use the embedded engine.",
        noServer.getMessage());
    env.clear();

    var unknown = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, "prod", null));
    assertEquals("There is no saved profile 'prod' (option --profile) in " + store.file() + "; the saved profiles "
        + "are prod-eu, staging. Give --profile one of them.", unknown.getMessage());
    env.put("CUTOVER_PROFILE", "prod");
    var unknownInEnv = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, null, null));
    assertTrue(unknownInEnv.getMessage().endsWith("Set CUTOVER_PROFILE to one of them."), unknownInEnv.getMessage());
    env.clear();

    var both = assertThrows(InvalidInputException.class, () -> resolve(null, null, null, "prod-eu", dir));
    assertEquals("--data-dir applies to the embedded engine only; remove it when connecting with --profile.",
        both.getMessage());
    var userOnEmbedded = assertThrows(InvalidInputException.class, () -> resolve(null, "ops", null, null, null));
    assertTrue(userOnEmbedded.getMessage().startsWith("--user applies to a server given with --jdbc-url or "
        + "--profile"), userOnEmbedded.getMessage());
  }
}
