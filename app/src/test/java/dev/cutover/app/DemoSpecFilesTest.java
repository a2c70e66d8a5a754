package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cutover.app.spec.DemoSpec;
import dev.cutover.engine.Session;
import dev.cutover.engine.testing.TestEngine;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --spec demo} writes the demo's spec into the user's data folder before reading it. Commands
 * run at once each rewrote it under the others: 1 of 40 parallel {@code status} read an empty spec or a
 * transform cut short. The files are now written once, whole, under a lock, and only when they change.
 */
class DemoSpecFilesTest {

  @TempDir Path home;

  /** Processes started at once on a data folder with no spec yet: every one reads the whole spec. */
  @Test
  void commandsStartedAtOnceOnAFreshDataFolderEachReadTheWholeDemoSpec() throws Exception {
    int processes = Integer.getInteger("cutover.specReaders", 20);
    // The demo spec names the database trading: a small demo world there, so that status has a world to read.
    CommandRun seeded = CommandRun.of(List.of("demo", "seed", "--reset", "--jdbc-url", TestEngine.server().jdbcUrl(),
        "--database", Session.EMBEDDED_DATABASE, "--scale", "0.05", "--history-days", "2", "--end", "2026-11-30T09:00"));
    assertEquals(0, seeded.exit(), seeded.err());
    Map<String, String> environment = Map.of("XDG_DATA_HOME", home.resolve("data").toString(), "HOME",
        home.toString(), "CUTOVER_SPEC", "");
    List<Process> started = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      Path output = home.resolve("status-" + i + ".txt");
      outputs.add(output);
      started.add(ChildRun.start(home, environment, List.of("status", "--spec", "demo", "--jdbc-url",
          TestEngine.server().jdbcUrl(), "--database", Session.EMBEDDED_DATABASE), output));
    }
    List<String> failed = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      assertTrue(started.get(i).waitFor(5, TimeUnit.MINUTES), "status " + i + " ended");
      if (started.get(i).exitValue() != 0) {
        failed.add("status " + i + " exited " + started.get(i).exitValue() + ": " + Files.readString(outputs.get(i)));
      }
    }
    TestEngine.execute("DROP DATABASE " + DemoSpec.DEFAULT_DATABASE + " SYNC");
    assertEquals(List.of(), failed, "every command read the demo spec whole");

    Path folder = home.resolve("data").resolve("cutover").resolve("specs").resolve("demo");
    for (String file : DemoSpec.FILES) {
      byte[] bundled = bundled(file);
      if (file.equals(DemoSpec.SPEC)) {
        String text = new String(bundled, java.nio.charset.StandardCharsets.UTF_8);
        bundled = text.replaceFirst("(?m)^database: .*$", "database: " + DemoSpec.DEFAULT_DATABASE)
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      }
      assertArrayEquals(bundled, Files.readAllBytes(folder.resolve(file)), file + " holds the bundled file whole");
    }
    try (Stream<Path> left = Files.list(folder)) {
      assertEquals(List.of(), left.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList(),
          "no temporary file is left behind");
    }
  }

  /** The same spec written again leaves its files as they were; a changed one is written, the rest are not. */
  @Test
  void writingTheSameSpecAgainLeavesItsFilesUntouched() throws Exception {
    Path folder = home.resolve("specs");
    Path spec = DemoSpec.export(folder, "trading", true);
    FileTime past = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));
    for (String file : DemoSpec.FILES) {
      Files.setLastModifiedTime(folder.resolve(file), past);
    }

    assertEquals(spec, DemoSpec.export(folder, "trading", true));
    for (String file : DemoSpec.FILES) {
      assertEquals(past, Files.getLastModifiedTime(folder.resolve(file)), file + " was not written again");
    }

    DemoSpec.export(folder, "trading_two", true);
    assertNotEquals(past, Files.getLastModifiedTime(spec), "the spec, which changed, was written");
    assertTrue(Files.readString(spec).contains("\ndatabase: trading_two\n"), Files.readString(spec));
    assertEquals(past, Files.getLastModifiedTime(folder.resolve("pnl_v2.sql")), "the transform, unchanged, was not");
  }

  private static byte[] bundled(String file) throws Exception {
    try (InputStream in = DemoSpec.class.getResourceAsStream("/dev/cutover/app/demo/" + file)) {
      return in.readAllBytes();
    }
  }
}
