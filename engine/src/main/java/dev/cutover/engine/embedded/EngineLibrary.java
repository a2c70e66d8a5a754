package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * Finds {@code libchdb.so}, the ClickHouse engine as a shared library, and fetches it once into a
 * per-user cache when it is not there yet.
 *
 * <p>The library comes from the npm package {@value #PACKAGE} at version {@value #VERSION}; {@code
 * npm pack} checks its integrity. {@code CUTOVER_LIBCHDB} names an existing library instead, for
 * machines without npm or network.
 */
public final class EngineLibrary {

  public static final String PACKAGE = "@chdb/lib-linux-x64-gnu";
  public static final String VERSION = "26.7.3-stable.1";
  public static final String ENV_OVERRIDE = "CUTOVER_LIBCHDB";
  static final String LIBRARY_FILE = "libchdb.so";
  private static final String ENTRY = "package/" + LIBRARY_FILE;

  private final Path cacheRoot;
  private final String override;
  private final String npm;

  EngineLibrary(Path cacheRoot, String override, String npm) {
    this.cacheRoot = cacheRoot;
    this.override = override;
    this.npm = npm;
  }

  /** The library as this user's environment places it: {@code CUTOVER_LIBCHDB}, else the cache. */
  public static EngineLibrary fromEnvironment() {
    return new EngineLibrary(UserDirectories.cache().resolve("engine"), System.getenv(ENV_OVERRIDE), "npm");
  }

  /** A library cached under {@code cacheRoot}, ignoring {@code CUTOVER_LIBCHDB}. */
  public static EngineLibrary cachedIn(Path cacheRoot) {
    return new EngineLibrary(cacheRoot, null, "npm");
  }

  /** Where the cached library lives (whether or not it is there yet). */
  public Path cachedPath() {
    return cacheRoot.resolve(VERSION).resolve(LIBRARY_FILE);
  }

  /**
   * Returns the path of a usable {@code libchdb.so}, fetching it first when needed.
   *
   * @throws EmbeddedEngineException with a sentence saying what to install or set
   */
  public Path resolve(EngineProgress progress) {
    if (override != null && !override.isBlank()) {
      Path path = Path.of(override);
      if (!Files.isRegularFile(path)) {
        throw new EmbeddedEngineException(
            ENV_OVERRIDE + " is set to " + path + ", which is not a file. Point it at an existing "
                + LIBRARY_FILE + " (" + PACKAGE + "@" + VERSION + ") or unset it to fetch one with npm.");
      }
      return path;
    }
    Path target = cachedPath();
    if (Files.isRegularFile(target)) {
      return target;
    }
    try {
      Files.createDirectories(target.getParent());
      // One fetch per user at a time: a second process waits, then finds the library in place.
      try (FileChannel lock = FileChannel.open(target.resolveSibling("fetch.lock"),
              StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          var ignored = lock.lock()) {
        if (!Files.isRegularFile(target)) {
          fetch(target, progress);
        }
      }
      return target;
    } catch (IOException e) {
      throw new EmbeddedEngineException(
          "Could not write the engine cache at " + target.getParent() + " (" + e.getMessage()
              + "). Free some space or fix its permissions, or set " + ENV_OVERRIDE
              + " to an existing " + LIBRARY_FILE + ".", e);
    }
  }

  private void fetch(Path target, EngineProgress progress) throws IOException {
    Path work = Files.createTempDirectory(target.getParent(), "fetch-");
    try {
      Path archive = npmPack(npm, work, progress);
      Path partial = work.resolve(LIBRARY_FILE);
      extract(archive, partial, progress);
      partial.toFile().setExecutable(true);
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      deleteTree(work);
    }
  }

  private static Path npmPack(String npmCommand, Path work, EngineProgress progress) throws IOException {
    String spec = PACKAGE + "@" + VERSION;
    List<String> command = List.of(npmCommand, "pack", spec, "--silent", "--pack-destination", work.toString());
    Process npm;
    try {
      npm = new ProcessBuilder(command).directory(work.toFile())
          .redirectErrorStream(true)
          .redirectOutput(work.resolve("npm.log").toFile())
          .start();
    } catch (IOException e) {
      throw new EmbeddedEngineException(
          "npm was not found, and Cutover needs it once to fetch the ClickHouse engine (" + spec
              + "). Install Node.js with npm (on Debian: apt-get install npm), or set "
              + ENV_OVERRIDE + " to an existing " + LIBRARY_FILE + ".", e);
    }
    long started = System.nanoTime();
    try {
      while (!npm.waitFor(1, TimeUnit.SECONDS)) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        progress.report("Fetching " + spec + " with npm (" + seconds + " s)", seconds, -1);
        if (seconds > 900) {
          npm.destroyForcibly();
          throw new EmbeddedEngineException("npm pack " + spec + " did not finish within 15 minutes. "
              + "Check the network and npm's registry settings (npm config get registry), or set "
              + ENV_OVERRIDE + " to an existing " + LIBRARY_FILE + ".");
        }
      }
    } catch (InterruptedException e) {
      npm.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new EmbeddedEngineException("Fetching the ClickHouse engine was interrupted.", e);
    }
    try (var files = Files.list(work)) {
      Path archive = files.filter(p -> p.getFileName().toString().endsWith(".tgz")).findFirst().orElse(null);
      if (npm.exitValue() != 0 || archive == null) {
        String log = Files.readString(work.resolve("npm.log")).strip();
        throw new EmbeddedEngineException("npm could not fetch " + spec + " (exit " + npm.exitValue()
            + (log.isEmpty() ? "" : ": " + lastLines(log, 6)) + "). Check the network and npm's registry "
            + "settings, or set " + ENV_OVERRIDE + " to an existing " + LIBRARY_FILE + ".");
      }
      return archive;
    }
  }

  /** Copies {@code package/libchdb.so} out of the npm tarball, reporting bytes written. */
  static void extract(Path archive, Path destination, EngineProgress progress) throws IOException {
    try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(archive)), 1 << 16)) {
      byte[] header = new byte[512];
      while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
        String name = tarString(header, 0, 100);
        String prefix = tarString(header, 345, 155);
        if (!prefix.isEmpty()) {
          name = prefix + "/" + name;
        }
        long size = Long.parseLong(tarString(header, 124, 12).trim(), 8);
        long padded = (size + 511) / 512 * 512;
        if (name.equals(ENTRY)) {
          copy(in, destination, size, progress);
          return;
        }
        in.skipNBytes(padded);
      }
    }
    throw new EmbeddedEngineException("The fetched package " + archive.getFileName() + " holds no "
        + ENTRY + ". Delete " + archive.getParent().getParent() + " and try again, or set "
        + ENV_OVERRIDE + " to an existing " + LIBRARY_FILE + ".");
  }

  private static void copy(InputStream in, Path destination, long size, EngineProgress progress)
      throws IOException {
    byte[] buffer = new byte[1 << 20];
    long done = 0;
    long lastReport = 0;
    try (OutputStream out = Files.newOutputStream(destination)) {
      while (done < size) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, size - done));
        if (n < 0) {
          throw new IOException("the package ends before " + LIBRARY_FILE + " is complete");
        }
        out.write(buffer, 0, n);
        done += n;
        if (done - lastReport >= 32L << 20 || done == size) {
          progress.report("Unpacking " + LIBRARY_FILE, done, size);
          lastReport = done;
        }
      }
    }
  }

  private static String tarString(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) {
      end++;
    }
    return new String(header, offset, end - offset, java.nio.charset.StandardCharsets.US_ASCII);
  }

  static String lastLines(String text, int lines) {
    String[] all = text.strip().split("\\R");
    return String.join(" | ", java.util.Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
