package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.engine.api.EngineProgress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded data is its owner's alone: a data directory an older version left open is made
 * owner-only at the next start, and what ClickHouse writes afterwards (parts of inserts, the part of
 * a merge, metadata) is owner-only too, so that another local user can neither list it nor read a
 * part or a table's definition, even when every folder above it lets them through.
 */
class PrivateDataTest {

  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  @TempDir Path temp;
  private Path data;

  @AfterEach
  void stopServer() {
    if (data != null) {
      EmbeddedServer.stopRunning(data, "the test is done");
    }
  }

  @Test
  void anOpenDataDirectoryIsTightenedAtStartAndWhatClickHouseWritesLaterIsOwnerOnly() throws Exception {
    // A temporary folder any user may pass through, as /tmp or a home folder often is.
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    data = temp.resolve("embedded");
    long firstPid;
    try (EmbeddedServer first = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(),
        EngineProgress.NONE)) {
      firstPid = first.pid();
      execute(first, "CREATE DATABASE world ENGINE = Atomic",
          "CREATE TABLE world.trades (book String, qty UInt32) ENGINE = MergeTree ORDER BY book",
          "INSERT INTO world.trades VALUES ('secret-book-1', 1)");
    }
    EmbeddedServer.stopRunning(data, "an older version left it open");
    // Gone for good, whoever stopped it (with no client left it may be on its way down by itself).
    ProcessHandle.of(firstPid).ifPresent(p -> p.onExit().join());

    // As an older version left it: folders 0755, files 0644, and never walked.
    Files.delete(data.resolve("owner-only"));
    int opened = 0;
    for (Path entry : Stream.concat(Stream.of(data), entries(data).stream()).toList()) {
      if (!Files.isSymbolicLink(entry)) {
        boolean folder = Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS);
        Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString(folder ? "rwxr-xr-x" : "rw-r--r--"));
        opened++;
      }
    }
    List<String> said = new CopyOnWriteArrayList<>();
    try (EmbeddedServer server = EmbeddedServer.startOrJoin(data, EngineLibrary.fromEnvironment(),
        (step, done, total) -> said.add(step))) {
      String notice = "Made " + opened + " entries of " + data + " readable by their owner only (folders 0700, files "
          + "0600): an earlier version of Cutover had left them open to other local users.";
      assertTrue(said.contains(notice), said.toString());
      assertTrue(Files.readString(data.resolve("server.log")).contains(notice + " ("), "server.log gives the notice");

      // New parts of three inserts, then the part of their merge, all written by ClickHouse after the start.
      execute(server, "INSERT INTO world.trades VALUES ('secret-book-2', 2)",
          "INSERT INTO world.trades VALUES ('secret-book-3', 3)",
          "OPTIMIZE TABLE world.trades FINAL");
      List<Path> merged = entries(data).stream().filter(p -> p.getFileName().toString().matches("all_1_3_\\d+"))
          .toList();
      assertEquals(1, merged.size(), "the merge wrote one new part: " + merged);

      List<String> open = new ArrayList<>();
      for (Path entry : Stream.concat(Stream.of(data), entries(data).stream()).toList()) {
        if (Files.isSymbolicLink(entry)) {
          continue;
        }
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(entry, LinkOption.NOFOLLOW_LINKS));
        boolean folder = Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS);
        if (!mode.equals(folder ? "rwx------" : "rw-------")) {
          open.add(mode + " " + data.relativize(entry));
        }
      }
      assertEquals(List.of(), open, "every folder 0700, every file 0600");
      assertTrue(partsOf(merged.getFirst()).size() > 2, "the merged part holds files");

      assertAnotherUserCannotRead(data);
    }
  }

  /**
   * As {@code nobody}: the data directory refuses to be listed or entered; and with every folder
   * opened to be passed through (not listed), each file still refuses to be read, and each folder to
   * be listed. A control file open to all is read, so that a refusal is the files' doing.
   */
  private void assertAnotherUserCannotRead(Path data) throws Exception {
    boolean root = ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    Assumptions.assumeTrue(root && Files.isExecutable(Path.of("/usr/sbin/runuser")),
        "reading as another user needs root (to become nobody) and runuser");
    Path control = temp.resolve("control.txt");
    Files.writeString(control, "open to all");
    Files.setPosixFilePermissions(control, PosixFilePermissions.fromString("rw-r--r--"));

    List<Path> files = new ArrayList<>();
    List<Path> folders = new ArrayList<>();
    for (Path entry : entries(data)) {
      if (Files.isSymbolicLink(entry)) {
        continue;
      }
      (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) ? folders : files).add(entry);
    }
    folders.add(data);
    List<Path> definitions = files.stream().filter(f -> f.toString().contains("/metadata/")
        && f.toString().endsWith(".sql")).toList();
    assertTrue(definitions.stream().anyMatch(f -> f.getFileName().toString().equals("world.sql")), files.toString());
    assertTrue(files.stream().anyMatch(f -> f.getFileName().toString().equals("trades.sql")), "the table's definition");
    List<Path> columns = files.stream().filter(f -> f.toString().endsWith(".bin")).toList();
    assertTrue(columns.size() >= 2, "the parts' column files: " + columns);

    assertEquals(List.of("READ " + control), readableByNobody(files, folders, control), "nothing of the data");
    for (Path folder : folders) {
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx-----x"));
    }
    try {
      assertEquals(List.of("READ " + control), readableByNobody(files, folders, control),
          "with every folder passable, still nothing: the files themselves refuse");
    } finally {
      PrivateFiles.tighten(data);
    }
  }

  /** What {@code nobody} manages to read or list among these, as {@code READ path} and {@code LISTED path}. */
  private static List<String> readableByNobody(List<Path> files, List<Path> folders, Path control) throws Exception {
    List<String> command = new ArrayList<>(List.of("/usr/sbin/runuser", "-u", "nobody", "--", "/bin/sh", "-c",
        "for f in \"$@\"; do if [ -d \"$f\" ]; then ls \"$f\" >/dev/null 2>&1 && echo \"LISTED $f\"; "
            + "else cat \"$f\" >/dev/null 2>&1 && echo \"READ $f\"; fi; done; exit 0", "probe", control.toString()));
    files.forEach(f -> command.add(f.toString()));
    folders.forEach(f -> command.add(f.toString()));
    Process probe = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(probe.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, probe.exitValue(), out);
    return out.lines().toList();
  }

  private static List<Path> partsOf(Path part) throws IOException {
    try (Stream<Path> files = Files.list(part)) {
      return files.toList();
    }
  }

  /** Everything under {@code root}, not following links, without {@code root} itself. */
  private static List<Path> entries(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> !p.equals(root)).toList();
    }
  }

  private static void execute(EmbeddedServer server, String... statements) throws Exception {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(),
        new String(server.password().resolve())); Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }
}
