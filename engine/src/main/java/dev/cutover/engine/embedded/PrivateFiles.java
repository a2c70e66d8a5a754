package dev.cutover.engine.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The embedded data directory is its owner's alone: folders {@code 0700}, files {@code 0600}. A
 * part of a table holds its rows in plain columns and {@code metadata/*.sql} its definition, so
 * another local user who could read them would read the data without any password. Everything a
 * Cutover process writes there is created owner-only from the start; the server itself runs with
 * the umask {@value #UMASK}, so that what ClickHouse creates later (new parts after inserts and
 * merges) is owner-only too; and {@link #tighten} makes a tree an older version left owner-only.
 */
final class PrivateFiles {

  /** The umask of the server process. */
  static final String UMASK = "077";

  private static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private PrivateFiles() {}

  /**
   * Creates a folder (and any missing parents) when it is missing, and makes it owner-only; a folder
   * already there is left to {@link #tighten} at the server's next start.
   */
  static void createFolder(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      Files.createDirectories(folder);
      Files.setPosixFilePermissions(folder, FOLDER);
    }
  }

  /** Opens (creating owner-only when missing) a file to lock or append to. */
  static FileChannel open(Path file, StandardOpenOption... options) throws IOException {
    Set<StandardOpenOption> set = EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    set.addAll(Set.of(options));
    return FileChannel.open(file, set, PosixFilePermissions.asFileAttribute(FILE));
  }

  /** Creates an empty owner-only file when there is none; an existing file is left as it is. */
  static void touch(Path file) throws IOException {
    try (FileChannel ignored = open(file)) {
      // created, or already there
    }
  }

  /** Appends one line (a newline is added) to a file, creating it owner-only when missing. */
  static void appendLine(Path file, String line) throws IOException {
    try (FileChannel channel = open(file, StandardOpenOption.APPEND)) {
      channel.write(StandardCharsets.UTF_8.encode(line + "\n"));
    }
  }

  /** Replaces the content of a file in place, creating it owner-only when missing. */
  static void overwrite(Path file, String text) throws IOException {
    try (FileChannel channel = open(file, StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.write(StandardCharsets.UTF_8.encode(text));
    }
  }

  /**
   * Writes {@code text} to a file beside the target, owner-only from the start, then moves it into place. The
   * file beside it has a name of its own: two processes that join one server at the same moment each write its
   * files, and with one shared name one of them failed.
   */
  static void write(Path file, String text) throws IOException {
    Path partial = partial(file, text);
    try {
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(partial);
    }
  }

  /**
   * Creates {@code file} with {@code text}, whole and owner-only, unless it exists; returns whether this call
   * made it. Of two processes making what must be made once (a secret, a layout of ports) at the same moment,
   * one makes it and the other reads what the first made.
   */
  static boolean create(Path file, String text) throws IOException {
    Path partial = partial(file, text);
    try {
      Files.createLink(file, partial); // refuses a name that exists, where a move would replace it
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (UnsupportedOperationException | IOException e) {
      try { // a file system without hard links: a plain move refuses an existing name too, if less atomically
        Files.move(partial, file);
        return true;
      } catch (FileAlreadyExistsException taken) {
        return false;
      }
    } finally {
      Files.deleteIfExists(partial);
    }
  }

  private static Path partial(Path file, String text) throws IOException {
    Path partial = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName() + ".", ".partial",
        fileAttribute());
    try {
      Files.writeString(partial, text);
      return partial;
    } catch (IOException e) {
      Files.deleteIfExists(partial);
      throw e;
    }
  }

  static FileAttribute<Set<PosixFilePermission>> fileAttribute() {
    return PosixFilePermissions.asFileAttribute(FILE);
  }

  /**
   * Takes every right of group and others away from {@code root} and everything under it (symbolic
   * links are not followed: what they point to inside the tree is reached on its own path); returns
   * how many entries were changed. The owner's rights stay as they are.
   */
  static int tighten(Path root) throws IOException {
    return tighten(root, Integer.MAX_VALUE);
  }

  /** As {@link #tighten(Path)}, down to {@code depth} levels below {@code root} (1: its own entries). */
  static int tighten(Path root, int depth) throws IOException {
    int[] changed = {0};
    Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), depth, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes) throws IOException {
        changed[0] += restrict(folder) ? 1 : 0;
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        if (!attributes.isSymbolicLink()) {
          changed[0] += restrict(file) ? 1 : 0;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE; // removed meanwhile
      }
    });
    return changed[0];
  }

  private static boolean restrict(Path entry) throws IOException {
    Set<PosixFilePermission> now = Files.getPosixFilePermissions(entry, LinkOption.NOFOLLOW_LINKS);
    if (java.util.Collections.disjoint(now, OTHERS)) {
      return false;
    }
    Set<PosixFilePermission> owner = EnumSet.copyOf(now);
    owner.removeAll(OTHERS);
    Files.setPosixFilePermissions(entry, owner);
    return true;
  }
}
