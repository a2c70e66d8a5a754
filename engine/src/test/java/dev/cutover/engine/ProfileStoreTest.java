package dev.cutover.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.api.SavedProfile.Password;
import dev.cutover.engine.testing.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileStoreTest {

  @TempDir Path home;

  private ProfileStore store() {
    return new ProfileStore(home.resolve("config/cutover/profiles.yaml"));
  }

  private static SavedProfile prod() {
    return SavedProfile.of("prod-eu", "jdbc:clickhouse:https://ch.eu.internal:8443", "ops", "analytics",
        Password.ASK, "");
  }

  @Test
  void savedProfilesComeBackInNameOrderAndCanBeRenamedAndDeleted() {
    ProfileStore store = store();
    assertEquals(List.of(), store.list(), "no file yet means no profiles");
    store.save(prod(), Optional.empty());
    store.save(SavedProfile.of("Archive", "jdbc:clickhouse://archive:8123", "reader", "history", Password.ENVIRONMENT,
        "ARCHIVE_PASSWORD"), Optional.empty());

    List<SavedProfile> listed = store.list();
    assertEquals(List.of("Archive", "prod-eu"), listed.stream().map(SavedProfile::name).toList());
    assertEquals(prod(), listed.get(1));
    assertEquals("password from $ARCHIVE_PASSWORD", listed.get(0).describePassword());

    SavedProfile renamed = SavedProfile.of("prod-eu-1", prod().jdbcUrl(), "ops", "analytics", Password.NONE, "");
    store.save(renamed, Optional.of("prod-eu"));
    assertEquals(List.of("Archive", "prod-eu-1"), store.list().stream().map(SavedProfile::name).toList());

    store.delete("archive");
    assertEquals(List.of(renamed), store.list());
  }

  @Test
  void theFileIsReadableByItsOwnerOnlyAndHoldsNoPassword() throws Exception {
    ProfileStore store = store();
    store.save(prod(), Optional.empty());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.file())));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.file().getParent())));
    String text = Files.readString(store.file());
    assertTrue(text.contains("password_from: ask"), text);
    assertFalse(text.matches("(?s).*\\bpassword:.*"), text);
    try (var files = Files.list(store.file().getParent())) {
      assertEquals(List.of(store.file()), files.toList(), "no temporary file is left behind");
    }
  }

  @Test
  void aFileThatCarriesAPasswordIsRefusedNotRead() throws Exception {
    ProfileStore store = store();
    Files.createDirectories(store.file().getParent());
    Files.writeString(store.file(), """
        profiles:
          - name: prod
            jdbc_url: jdbc:clickhouse://ch:8123
            user: ops
            database: analytics
            password_from: none
            password: hunter2
        """);
    var e = assertThrows(InvalidInputException.class, store::list);
    assertTrue(e.getMessage().contains("never reads a password from this file"), e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"), "the refused value is not repeated");
  }

  @Test
  void badFieldsAreRefusedWithASentenceAndNothingIsWritten() {
    ProfileStore store = store();
    var url = assertThrows(InvalidInputException.class, () -> SavedProfile.of("prod", "http://ch:8123", "ops",
        "analytics", Password.NONE, ""));
    assertTrue(url.getMessage().contains("is not a ClickHouse URL"), url.getMessage());
    var credentials = assertThrows(InvalidInputException.class, () -> SavedProfile.of("prod",
        "jdbc:clickhouse://ops:secret@ch:8123", "ops", "analytics", Password.NONE, ""));
    assertFalse(credentials.getMessage().contains("secret"), credentials.getMessage());
    var env = assertThrows(InvalidInputException.class, () -> SavedProfile.of("prod", "jdbc:clickhouse://ch:8123",
        "ops", "analytics", Password.ENVIRONMENT, ""));
    assertTrue(env.getMessage().contains("environment variable"), env.getMessage());
    var file = assertThrows(InvalidInputException.class, () -> SavedProfile.of("prod", "jdbc:clickhouse://ch:8123",
        "ops", "analytics", Password.FILE, "relative/secret"));
    assertTrue(file.getMessage().contains("absolute path"), file.getMessage());
    var name = assertThrows(InvalidInputException.class, () -> SavedProfile.of("  ", "jdbc:clickhouse://ch:8123",
        "ops", "analytics", Password.NONE, ""));
    assertTrue(name.getMessage().contains("profile name"), name.getMessage());
    assertFalse(Files.exists(store.file()), "nothing was saved");

    store.save(prod(), Optional.empty());
    var twice = assertThrows(InvalidInputException.class, () -> store.save(SavedProfile.of("PROD-EU",
        "jdbc:clickhouse://other:8123", "ops", "analytics", Password.NONE, ""), Optional.empty()));
    assertTrue(twice.getMessage().contains("exists already"), twice.getMessage());
    assertEquals(List.of(prod()), store.list());
  }

  @Test
  void aSavedProfileConnectsAndAsksForItsPasswordOnlyWhenConnecting() {
    var server = TestEngine.server();
    AtomicInteger asked = new AtomicInteger();
    SavedProfile local = SavedProfile.of("local", server.jdbcUrl(), "default", "cutover", Password.ASK, "");
    var profile = local.connectionProfile(() -> {
      asked.incrementAndGet();
      return new char[0];
    });
    assertEquals(0, asked.get(), "building the profile asks nothing");
    try (Session session = Session.connect(profile)) {
      assertTrue(session.server().version().toString().startsWith("26."), session.server().version().toString());
    }
    assertTrue(asked.get() >= 1, "the password was asked for at connect");
  }

  /** A profile's own hooks are read under the spec's rules, and saving the profile again keeps them. */
  @Test
  void aProfilesHooksAreReadAndKeptWhenItIsSavedAgain() throws Exception {
    ProfileStore store = store();
    Files.createDirectories(store.file().getParent());
    Files.writeString(store.file(), """
        profiles:
          - name: prod-eu
            jdbc_url: jdbc:clickhouse:https://ch.eu.internal:8443
            user: ops
            database: analytics
            password_from: ask
            hooks:
              - on: before_cutover
                command: [/usr/local/bin/page-oncall, --team, data]
                timeout: 20s
        """);
    SavedProfile read = store.list().getFirst();
    assertEquals(1, read.hooks().size());
    assertEquals(List.of("/usr/local/bin/page-oncall", "--team", "data"), read.hooks().getFirst().command());
    assertEquals(read.hooks(), read.connectionProfile(() -> new char[0]).hooks(), "a repair through it runs them");
    store.save(SavedProfile.of("prod-eu", read.jdbcUrl(), "ops", "analytics", Password.NONE, "")
        .withHooks(read.hooks()), Optional.of("prod-eu"));
    assertEquals(read.hooks(), store.list().getFirst().hooks(), "saved again, the hooks are kept");

    Files.writeString(store.file(), Files.readString(store.file()).replace("before_cutover", "before_lunch"));
    var bad = assertThrows(InvalidInputException.class, store::list);
    assertTrue(bad.getMessage().contains("before_lunch") && bad.getMessage().contains("before_cutover"),
        bad.getMessage());
  }
}
