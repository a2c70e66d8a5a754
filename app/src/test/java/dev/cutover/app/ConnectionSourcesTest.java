package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line connects to a real server as an option, an environment variable or a saved profile of the
 * console says, in that order; a wrong user from the losing source would be refused by the server.
 */
class ConnectionSourcesTest {

  @TempDir Path home;
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void saveAProfileWithAUserTheServerRefuses() {
    env.put("XDG_CONFIG_HOME", home.resolve("config").toString());
    env.put("XDG_DATA_HOME", home.resolve("data").toString());
    for (String variable : List.of("CUTOVER_JDBC_URL", "CUTOVER_USER", "CUTOVER_DATABASE", "CUTOVER_PROFILE",
        "CUTOVER_PASSWORD", "CUTOVER_SPEC")) {
      env.put(variable, null);
    }
    new ProfileStore(home.resolve("config/cutover/profiles.yaml")).save(SavedProfile.of("test-server",
        TestEngine.server().jdbcUrl(), "nobody", "elsewhere", SavedProfile.Password.NONE, ""), Optional.empty());
  }

  private ChildRun cutover(String... args) throws Exception {
    return ChildRun.of(home, env, List.of(args));
  }

  @Test
  void theEnvironmentOverridesTheProfileAndAnOptionOverridesBoth() throws Exception {
    env.put("CUTOVER_PROFILE", "test-server");
    env.put("CUTOVER_USER", "default");
    env.put("CUTOVER_DATABASE", "no_such_database");
    ChildRun check = cutover("check", "--verbose", "--database", "cutover");
    assertEquals(0, check.exit(), check.err());
    assertEquals(1, check.out().lines().count(), check.out());
    assertTrue(check.out().startsWith("ok: ClickHouse 26.7") && check.out().strip()
        .endsWith("(database cutover, user default)"), check.out());
    List<String> settings = new ArrayList<>(check.err().lines().toList());
    assertEquals(List.of(
        "Connection settings (an option wins over an environment variable, which wins over the profile):",
        "  server    " + TestEngine.server().jdbcUrl() + "  (from profile test-server)",
        "  profile   test-server  (from $CUTOVER_PROFILE)",
        "  user      default  (from $CUTOVER_USER)",
        "  database  cutover  (from option --database)",
        "  password  none  (from profile test-server)",
        "  data dir  not used (a server is given)  (built-in default)"), settings.subList(0, 7));

    ChildRun option = cutover("check", "--user", "nobody", "--database", "cutover");
    assertEquals(3, option.exit(), option.out() + option.err());
    assertTrue(option.err().startsWith("error: The server at 127.0.0.1:" + TestEngine.server().port()
        + " refused user 'nobody'"), option.err());
  }

  @Test
  void aProfileAloneNamesServerUserAndDatabase() throws Exception {
    ChildRun check = cutover("check", "--profile", "test-server");
    assertEquals(3, check.exit(), check.out() + check.err());
    assertTrue(check.err().startsWith("error: The server at 127.0.0.1:" + TestEngine.server().port()
        + " refused user 'nobody'"), check.err());
    assertEquals("", check.out());
  }
}
