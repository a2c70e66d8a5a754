package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.cli.ExitCodes;
import dev.cutover.engine.embedded.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the embedded server keeps its data, as a script in a hurry gives it: an empty --data-dir (an unset
 * variable), an empty or relative XDG_DATA_HOME, a relative path, a folder that is not Cutover's. Each is refused
 * with exit 2 and a sentence, run from a checkout in a child process, and the checkout is left exactly as it was
 * (every entry, every permission) with nothing created in it or in the user's data folder. Once it once planted a
 * store in the working directory and made 2,083 entries of it, .git included, owner-only.
 */
class DataDirectoryRefusedTest {

  @TempDir Path temp;

  @AfterEach
  void stopServer() {
    EmbeddedServer.stopRunning(temp.resolve("fresh"), "the test is done");
  }

  private Map<String, String> environment() {
    Map<String, String> env = new HashMap<>();
    env.put("XDG_DATA_HOME", temp.resolve("xdg-data").toString());
    env.put("XDG_CONFIG_HOME", temp.resolve("xdg-config").toString());
    for (String unset : List.of("CUTOVER_JDBC_URL", "CUTOVER_PROFILE", "CUTOVER_USER", "CUTOVER_DATABASE", "DISPLAY",
        "WAYLAND_DISPLAY")) {
      env.put(unset, null);
    }
    return env;
  }

  private record Refusal(String name, Map<String, String> environment, List<String> args, String sentence) {}

  @Test
  void anEmptyRelativeOrForeignDataDirectoryIsRefusedAndTheWorkingDirectoryIsLeftAsItWas() throws Exception {
    Path checkout = checkout();
    Path defaultData = temp.resolve("xdg-data/cutover/embedded");
    String empty = "--data-dir is empty: an unset variable in a script? Give a directory, or leave the option out for "
        + defaultData + ".";
    Map<String, String> emptyXdg = environment();
    emptyXdg.put("XDG_DATA_HOME", "");
    Map<String, String> relativeXdg = environment();
    relativeXdg.put("XDG_DATA_HOME", "data");
    Map<String, String> emptyCache = environment();
    emptyCache.put("XDG_CACHE_HOME", "");
    Map<String, String> emptyConfig = environment();
    emptyConfig.put("XDG_CONFIG_HOME", "");
    Path unused = temp.resolve("unused");
    String foreign = "The data directory " + checkout + " already holds what Cutover did not make (.git, README.md, "
        + "app and 2 more). Cutover makes its folders readable by their owner only, so it uses only a folder it made, "
        + "an empty one, or one that holds its file cutover-directory; nothing was changed in " + checkout
        + ". Choose a new or empty folder. (option --data-dir)";
    List<Refusal> refusals = List.of(
        new Refusal("an empty --data-dir after the command", environment(), List.of("check", "--data-dir", ""), empty),
        new Refusal("an empty --data-dir before the command", environment(), List.of("--data-dir", "", "check"), empty),
        new Refusal("an empty --data-dir=", environment(), List.of("check", "--data-dir="), empty),
        new Refusal("a blank --data-dir", environment(), List.of("check", "--data-dir", " "), empty),
        new Refusal("an empty --data-dir for cutover server", environment(), List.of("server", "--data-dir", ""), empty),
        new Refusal("an empty --data-dir for the console", environment(), List.of("--data-dir", ""), empty),
        new Refusal("an empty --data-dir for the local cluster", environment(),
            List.of("check", "--shards", "2", "--data-dir", ""), empty),
        new Refusal("a relative --data-dir", environment(), List.of("check", "--data-dir", "data"),
            "--data-dir 'data' is a relative path: a command run from another directory would use another data "
                + "directory. Give an absolute path, such as " + checkout.resolve("data") + "."),
        new Refusal("an empty XDG_DATA_HOME", emptyXdg, List.of("check"), "$XDG_DATA_HOME is set but empty: an unset "
            + "variable in a script? Set it to an absolute folder, or unset it (unset XDG_DATA_HOME) for "
            + "~/.local/share."),
        new Refusal("an empty XDG_DATA_HOME for the console", emptyXdg, List.of(), "$XDG_DATA_HOME is set but empty: "
            + "an unset variable in a script? Set it to an absolute folder, or unset it (unset XDG_DATA_HOME) for "
            + "~/.local/share."),
        new Refusal("a relative XDG_DATA_HOME", relativeXdg, List.of("check"), "$XDG_DATA_HOME is 'data', a relative "
            + "path, which the XDG base directory specification does not allow (it would name a different folder in "
            + "every working directory); set it to an absolute folder, or unset it for ~/.local/share."),
        new Refusal("an empty XDG_CACHE_HOME, where the engine is kept", emptyCache, List.of("check", "--data-dir",
            unused.toString()), "$XDG_CACHE_HOME is set but empty: an unset variable in a script? Set it to an "
                + "absolute folder, or unset it (unset XDG_CACHE_HOME) for ~/.cache."),
        new Refusal("an empty XDG_CONFIG_HOME, where profiles are kept", emptyConfig, List.of("check", "--profile",
            "prod"), "$XDG_CONFIG_HOME is set but empty: an unset variable in a script? Set it to an absolute folder, "
                + "or unset it (unset XDG_CONFIG_HOME) for ~/.config."),
        new Refusal("a checkout as the data directory", environment(), List.of("check", "--data-dir",
            checkout.toString()), foreign),
        new Refusal("a checkout as the local cluster's data directory", environment(), List.of("check", "--shards",
            "2", "--data-dir", checkout.toString()), foreign));

    List<String> before = listing(checkout);
    List<String> said = new ArrayList<>();
    for (Refusal r : refusals) {
      ChildRun run = ChildRun.of(checkout, r.environment(), r.args());
      assertEquals(ExitCodes.INPUT, run.exit(), r.name() + ": " + run.out() + run.err());
      assertEquals("error: " + r.sentence(), run.err().strip(), r.name());
      assertEquals("", run.out(), r.name());
      assertEquals(before, listing(checkout), r.name() + ": the checkout changed");
      assertFalse(Files.exists(temp.resolve("xdg-data")), r.name() + ": the user's data folder was created");
      assertFalse(Files.exists(unused), r.name() + ": a data directory was created");
      said.add(r.name());
    }
    System.out.println("[data-dir] " + said.size() + " refusals, the checkout (" + before.size() + " entries) "
        + "unchanged after each: " + said);
  }

  @Test
  void theServerLogNamesTheCommandWhateverTheOrderOfItsOptionsAndWhyTheServerStopped() throws Exception {
    Path fresh = temp.resolve("fresh");
    Map<String, String> env = environment();
    env.put("CUTOVER_SERVER_IDLE", "0"); // it stops as soon as the command lets go of it
    ChildRun run = ChildRun.of(temp, env, List.of("--data-dir", fresh.toString(), "check"));
    assertEquals(ExitCodes.OK, run.exit(), run.err());
    assertTrue(Files.isRegularFile(fresh.resolve("cutover-directory")), "the data directory it made is marked");
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    String log = Files.readString(fresh.resolve("server.log"));
    while (!log.contains("stopped cleanly") && System.nanoTime() < deadline) {
      Thread.sleep(200);
      log = Files.readString(fresh.resolve("server.log"));
    }
    assertTrue(log.contains(" (cutover check) joined") && log.contains(" (cutover check) left"), log);
    assertFalse(log.contains("cutover console"), log);
    assertTrue(log.contains("stopped cleanly (its last client left)"), log);
    assertFalse(log.contains("null"), log);
  }

  /** An operator's checkout, with the group's rights umask 002 leaves: what an empty --data-dir once tightened. */
  private Path checkout() throws IOException {
    Path checkout = Files.createDirectory(temp.resolve("checkout"));
    Files.createDirectories(checkout.resolve(".git/refs/heads"));
    Files.writeString(checkout.resolve(".git/HEAD"), "ref: refs/heads/main\n");
    Files.writeString(checkout.resolve("README.md"), "# project\n");
    Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
    Files.createDirectories(checkout.resolve("app/src"));
    Files.writeString(checkout.resolve("app/src/Main.java"), "class Main {}\n");
    Files.createDirectories(checkout.resolve("src"));
    try (Stream<Path> all = Files.walk(checkout)) {
      for (Path p : all.toList()) {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxrwxr-x"
            : "rw-rw-r--"));
      }
    }
    return checkout;
  }

  /** Every entry under {@code root} with its type, permissions and size. */
  private static List<String> listing(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.map(p -> {
        try {
          boolean folder = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
          return root.relativize(p) + " " + (folder ? "d" : "f " + Files.size(p)) + " "
              + PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sorted().toList();
    }
  }
}
