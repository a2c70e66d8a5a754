package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whoever stops the server of a data directory may remove the directory next. A server on its way
 * down has withdrawn its record (nobody joins it) but still writes the directory while it closes its
 * tables; a stop that found no record and returned at once let a caller delete the folder under it.
 */
class ServerStopTest {

  @TempDir Path dir;

  @Test
  void aStopReturnsOnlyOnceAServerAlreadyOnItsWayDownHasEnded() throws Exception {
    ServerDirectory directory = new ServerDirectory(dir);
    // A server stopping on its own: its lock still held, its record withdrawn, its process still running.
    Process stopping = new ProcessBuilder("sleep", "2").start();
    try (FileChannel channel = PrivateFiles.open(directory.serverLock()); FileLock held = channel.lock()) {
      Files.writeString(directory.stopping(), Long.toString(stopping.pid()));
      assertFalse(Files.exists(directory.record()));

      Optional<String> stopped = ServerStop.stopRunning(directory, "the test removes the folder next");

      assertTrue(stopped.isEmpty(), "no server served the directory: " + stopped);
      assertFalse(stopping.isAlive(), "the stop returned while the stopping server's process still ran");
    } finally {
      stopping.destroyForcibly();
    }
  }
}
