package dev.cutover.engine.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * A small file system of a test's own: a tmpfs of a given size mounted on a folder (which needs root, as the
 * build machine gives), filled and freed with a ballast file of real blocks. Closing it unmounts it.
 */
public final class SmallDisk implements AutoCloseable {

  private final Path mount;
  private final Path ballast;

  private SmallDisk(Path mount) {
    this.mount = mount;
    this.ballast = mount.resolve("ballast");
  }

  /** Mounts a tmpfs of {@code mib} MiB on {@code folder}; empty when this machine does not let the test mount one. */
  public static java.util.Optional<SmallDisk> mount(Path folder, int mib) throws IOException, InterruptedException {
    Files.createDirectories(folder);
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + mib + "m", "tmpfs", folder.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      System.out.println("[small-disk] cannot mount a tmpfs here: " + out.strip());
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new SmallDisk(folder));
  }

  public Path root() {
    return mount;
  }

  /** Free bytes on the file system now. */
  public long free() throws IOException {
    return Files.getFileStore(mount).getUsableSpace();
  }

  /** Grows the ballast until {@code bytes} are left free (or none, when 0): real blocks, not a sparse file. */
  public void leave(long bytes) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
    try (FileChannel c = FileChannel.open(ballast, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND)) {
      while (free() > bytes) {
        zeros.clear();
        zeros.limit((int) Math.min(zeros.capacity(), Math.max(4096, free() - bytes)));
        try {
          c.write(zeros);
        } catch (IOException full) {
          return; // no space left at all
        }
      }
    }
  }

  /** Removes the ballast: the space it held is free again. */
  public void clear() throws IOException {
    Files.deleteIfExists(ballast);
  }

  @Override
  public void close() throws IOException {
    Files.deleteIfExists(ballast);
    Process p = new ProcessBuilder("umount", "-l", mount.toString()).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    try {
      p.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
