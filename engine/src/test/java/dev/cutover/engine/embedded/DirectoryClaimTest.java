package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.embedded.DirectoryClaim.Kind;
import dev.cutover.engine.embedded.DirectoryClaim.Standing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cutover makes a folder its own, and so owner-only, only when it made it, found it empty, or finds its
 * marker or only entries it makes there; a folder that holds anything else (a checkout, a home folder) is
 * refused in a sentence with nothing created in it and no permission changed.
 */
class DirectoryClaimTest {

  @TempDir Path temp;

  @Test
  void aFolderIsCutoversByItsMarkerByBeingEmptyOrByHoldingOnlyWhatCutoverMakes() {
    assertEquals(Standing.MARKED, DirectoryClaim.judge(Kind.DATA, List.of("cutover-directory", "notes.txt")));
    assertEquals(Standing.EMPTY, DirectoryClaim.judge(Kind.DATA, List.of()));
    assertEquals(Standing.EMPTY, DirectoryClaim.judge(Kind.DATA, List.of("lost+found",
        "cutover-directory.8812731.partial")), "a mounted volume, and a marker being written this moment");
    assertEquals(Standing.EARLIER, DirectoryClaim.judge(Kind.DATA, List.of("clickhouse", "launch.lock", "server.lock",
        "server.log", "server.log.1", "access", "clients", "crashes", "owner-only", "restart.properties", "cluster",
        "server.properties.4411.partial")));
    assertEquals(Standing.EARLIER, DirectoryClaim.judge(Kind.DATA, List.of("cluster")), "a data directory of --shards");
    assertEquals(Standing.FOREIGN, DirectoryClaim.judge(Kind.DATA, List.of("clickhouse")),
        "a lone clickhouse folder could be anyone's");
    assertEquals(Standing.FOREIGN, DirectoryClaim.judge(Kind.DATA, List.of(".git", "clickhouse", "launch.lock",
        "server.log", "README.md")), "a checkout an empty --data-dir once planted a store in");
    assertEquals(List.of(".git", "README.md", "notes.partial"), DirectoryClaim.foreign(Kind.DATA, List.of("README.md",
        "launch.lock", ".git", "notes.partial")));
    assertEquals(Standing.EARLIER, DirectoryClaim.judge(Kind.CLUSTER, List.of("cluster.properties", "shard-1",
        "shard-12")));
    assertEquals(Standing.FOREIGN, DirectoryClaim.judge(Kind.CLUSTER, List.of("cluster.properties", "shard-x")));
  }

  @Test
  void aMissingFolderIsCreatedOwnerOnlyWithItsMarker() throws Exception {
    Path data = temp.resolve("a/b/embedded");
    DirectoryClaim.claim(data, Kind.DATA);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        data.resolve(DirectoryClaim.MARKER))));
    assertEquals(List.of(DirectoryClaim.MARKER), names(data));
    DirectoryClaim.claim(data, Kind.DATA); // its own: accepted again, as it is
    assertEquals(List.of(DirectoryClaim.MARKER), names(data));
  }

  @Test
  void anEmptyFolderAndAnOlderVersionsFolderAreMarked() throws Exception {
    Path empty = Files.createDirectory(temp.resolve("empty"));
    DirectoryClaim.claim(empty, Kind.DATA);
    assertEquals(List.of(DirectoryClaim.MARKER), names(empty));

    Path older = Files.createDirectory(temp.resolve("older"));
    Files.createDirectories(older.resolve("clickhouse/store"));
    Files.writeString(older.resolve("launch.lock"), "");
    Files.writeString(older.resolve("server.log"), "started\n");
    DirectoryClaim.claim(older, Kind.DATA);
    assertEquals(List.of("clickhouse", DirectoryClaim.MARKER, "launch.lock", "server.log"), names(older));
  }

  @Test
  void aFolderThatHoldsWhatCutoverDidNotMakeIsRefusedUntouched() throws Exception {
    Path checkout = checkout();
    List<String> before = listing(checkout);
    var e = assertThrows(InvalidInputException.class, () -> DirectoryClaim.claim(checkout, Kind.DATA));
    assertEquals("data-dir", e.field());
    assertEquals("The data directory " + checkout + " already holds what Cutover did not make (.git, README.md, "
        + "notes.txt and 1 more). Cutover makes its folders readable by their owner only, so it uses only a folder it "
        + "made, an empty one, or one that holds its file cutover-directory; nothing was changed in " + checkout
        + ". Choose a new or empty folder.", e.getMessage());
    assertEquals(before, listing(checkout), "nothing created, no permission changed");

    // Starting a server there, or a local cluster, is refused the same way, before anything is written.
    assertThrows(InvalidInputException.class, () -> EmbeddedServer.startOrJoin(checkout,
        EngineLibrary.fromEnvironment(), EngineProgress.NONE));
    assertThrows(InvalidInputException.class, () -> LocalCluster.startOrJoin(checkout, 2,
        EngineLibrary.fromEnvironment(), Duration.ZERO, EngineProgress.NONE));
    assertEquals(before, listing(checkout), "nothing created, no permission changed");
  }

  @Test
  void aRelativePathAFileAndAnEmptyPathAreRefused() throws Exception {
    var relative = assertThrows(InvalidInputException.class, () -> DirectoryClaim.claim(Path.of("data"), Kind.DATA));
    assertEquals("The data directory 'data' is a relative path: it would be a folder of whatever directory Cutover "
        + "runs in. Give an absolute path.", relative.getMessage());
    var empty = assertThrows(InvalidInputException.class, () -> DirectoryClaim.claim(Path.of(""), Kind.DATA));
    assertEquals("The data directory is an empty path: it would be a folder of whatever directory Cutover runs in. "
        + "Give an absolute path.", empty.getMessage());
    Path file = Files.writeString(temp.resolve("file"), "x");
    var notFolder = assertThrows(InvalidInputException.class, () -> DirectoryClaim.claim(file, Kind.DATA));
    assertEquals("The data directory " + file + " is a file, not a folder; give the path of a new or empty folder.",
        notFolder.getMessage());
  }

  @Test
  void serverStatusOfAFolderThatIsNotCutoversCreatesNothingThere() throws Exception {
    Path checkout = checkout();
    List<String> before = listing(checkout);
    assertTrue(EmbeddedServer.serving(checkout).isEmpty());
    assertTrue(EmbeddedServer.describeRunning(checkout).isEmpty());
    assertTrue(EmbeddedServer.stopRunning(checkout, "asked of the wrong folder").isEmpty());
    assertEquals(before, listing(checkout));
  }

  /** A folder of an operator's: a checkout with files and folders open to the group, as umask 002 leaves them. */
  private Path checkout() throws IOException {
    Path checkout = Files.createDirectory(temp.resolve("checkout"));
    Files.createDirectories(checkout.resolve(".git/objects"));
    Files.writeString(checkout.resolve(".git/config"), "[core]\n");
    Files.writeString(checkout.resolve("README.md"), "# project\n");
    Files.writeString(checkout.resolve("notes.txt"), "notes\n");
    Files.createDirectories(checkout.resolve("src"));
    Files.writeString(checkout.resolve("launch.lock"), ""); // what an earlier start planted there does not make it Cutover's
    try (Stream<Path> all = Files.walk(checkout)) {
      for (Path p : all.toList()) {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxrwxr-x"
            : "rw-rw-r--"));
      }
    }
    return checkout;
  }

  /** Every entry under {@code root} with its type and permissions. */
  private static List<String> listing(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.map(p -> {
        try {
          return root.relativize(p) + " " + (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "d" : "f") + " "
              + PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).sorted().toList();
    }
  }

  private static List<String> names(Path folder) throws IOException {
    try (Stream<Path> entries = Files.list(folder)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
