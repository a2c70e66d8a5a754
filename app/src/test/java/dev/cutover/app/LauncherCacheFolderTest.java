package dev.cutover.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two launchers (./cutover and the runtime image's) make their cache folder from XDG_CACHE_HOME before Java
 * starts: one set but empty or relative is refused there as Cutover refuses it, with exit 2, and no folder is made
 * in the working directory. They run with no PATH, so that a launcher that went on could not build or start anything.
 */
class LauncherCacheFolderTest {

  @TempDir Path work;

  @Test
  void anEmptyOrRelativeCacheFolderIsRefusedByBothLaunchers() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    String empty = "error: $XDG_CACHE_HOME is set but empty: an unset variable in a script? Set it to an absolute "
        + "folder, or unset it (unset XDG_CACHE_HOME) for ~/.cache.";
    String relative = "error: $XDG_CACHE_HOME is 'cache', a relative path, which the XDG base directory specification "
        + "does not allow (it would name a different folder in every working directory); set it to an absolute folder, "
        + "or unset it for ~/.cache.";
    for (List<String> launcher : List.of(List.of("/bin/bash", root.resolve("cutover").toString()),
        List.of("/bin/sh", root.resolve("jlink/src/main/launcher/cutover").toString()))) {
      assertEquals(empty, refusal(launcher, ""), launcher.toString());
      assertEquals(relative, refusal(launcher, "cache"), launcher.toString());
    }
    try (Stream<Path> made = Files.list(work)) {
      assertEquals(List.of(), made.toList(), "nothing made in the working directory");
    }
  }

  /** What {@code launcher check} says on stderr with XDG_CACHE_HOME set to {@code value}; its exit must be 2. */
  private String refusal(List<String> launcher, String value) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(Stream.concat(launcher.stream(), Stream.of("check")).toList())
        .directory(work.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("XDG_CACHE_HOME", value);
    builder.environment().put("PATH", work.resolve("no-such-folder").toString());
    Process p = builder.start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor(30, TimeUnit.SECONDS);
    assertEquals(2, p.exitValue(), launcher + " with XDG_CACHE_HOME='" + value + "': " + err);
    return err;
  }
}
