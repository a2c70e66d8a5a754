package dev.cutover.app.spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes a set of files into one folder so that no reader, in this process or another, ever sees one
 * half written: each file goes to a temporary file beside it and is renamed over the old one in one
 * step, under a lock on the folder that every writer takes. A file whose bytes are already what
 * would be written is left alone, so its modification time says when its contents last changed.
 *
 * <p>Every command given {@code --spec demo} writes the demo's spec out again before it reads it;
 * twenty of them at once overwrote the file another was reading, which then read an empty spec or a
 * transform cut short.
 */
final class FolderWriter {

  /** The lock file every writer of a folder holds while it writes there. */
  static final String LOCK = ".cutover-write.lock";

  /**
   * A file lock belongs to the whole process: two threads of one process that lock the same file
   * through two channels are refused, not made to wait. Threads of this process wait here first.
   */
  private static final Map<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

  private FolderWriter() {}

  /**
   * Makes each file of {@code contents} (a name in {@code folder}, and its bytes) hold exactly those
   * bytes; returns the names that were written, leaving out those that already held them.
   */
  static java.util.List<String> write(Path folder, Map<String, byte[]> contents) {
    try {
      Files.createDirectories(folder);
      Path key = folder.toAbsolutePath().normalize();
      ReentrantLock local = IN_PROCESS.computeIfAbsent(key, k -> new ReentrantLock());
      local.lock();
      try (FileChannel channel = FileChannel.open(key.resolve(LOCK), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE); FileLock held = channel.lock()) {
        java.util.List<String> written = new java.util.ArrayList<>();
        for (Map.Entry<String, byte[]> file : contents.entrySet()) {
          if (replace(key.resolve(file.getKey()), file.getValue())) {
            written.add(file.getKey());
          }
        }
        return written;
      } finally {
        local.unlock();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Puts {@code bytes} in {@code target} by one rename, unless it holds them already; whether it wrote. */
  private static boolean replace(Path target, byte[] bytes) throws IOException {
    if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), bytes)) {
      return false;
    }
    Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
    try {
      Files.write(temporary, bytes);
      try {
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("The file system of " + target.getParent() + " cannot replace a file in one step, so "
            + target.getFileName() + " could be seen half written; keep the data folder on a local file system.", e);
      }
      return true;
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
