package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which folders Cutover makes its own. A data directory is made owner-only, its whole tree, so it must
 * never be a folder that holds anything else: a checkout, a home folder, the working directory that an
 * empty {@code --data-dir} named once. A folder is Cutover's when it holds the marker file {@value
 * #MARKER}, written when Cutover makes the folder or first uses an empty one, or when every entry in it
 * is one Cutover makes there (a data directory of a version older than the marker); any other folder is
 * refused in a sentence before anything is created in it or any permission changed.
 */
final class DirectoryClaim {

  /** The file that says a folder is Cutover's. */
  static final String MARKER = "cutover-directory";

  /** A file of Cutover's being written beside its target (see {@link PrivateFiles#write}). */
  private static final Pattern PARTIAL = Pattern.compile("(.+)\\.\\d+\\.partial");

  /** What a file system may keep in the root of a volume mounted for the data. */
  private static final Set<String> FILE_SYSTEM = Set.of("lost+found");

  /** The two kinds of folder Cutover makes, each with the names it gives the entries in it. */
  enum Kind {
    /** A server's data directory (see {@link ServerDirectory}). */
    DATA("The data directory") {
      @Override
      boolean own(String name) {
        return ServerDirectory.ENTRIES.contains(name);
      }

      @Override
      boolean sign(String name) {
        // A lone folder named clickhouse could be anyone's: the other names are Cutover's own words.
        return own(name) && !name.equals(ServerDirectory.STORE);
      }
    },
    /** The folder of a local cluster: its layout and one data directory per shard. */
    CLUSTER("The local cluster's folder") {
      @Override
      boolean own(String name) {
        return name.equals(LocalCluster.LAYOUT) || name.matches(LocalCluster.SHARD_PATTERN);
      }

      @Override
      boolean sign(String name) {
        return own(name);
      }
    };

    private final String what;

    Kind(String what) {
      this.what = what;
    }

    abstract boolean own(String name);

    /** Whether only Cutover gives an entry this name: a folder of such entries is Cutover's. */
    abstract boolean sign(String name);
  }

  /** What the entries of an existing folder say about it. */
  enum Standing {
    /** It holds the marker. */
    MARKED,
    /** It holds nothing (or only what Cutover is writing there this moment). */
    EMPTY,
    /** Every entry is one Cutover makes, and one of them only Cutover makes: an older version's folder. */
    EARLIER,
    /** It holds something Cutover did not make. */
    FOREIGN
  }

  private DirectoryClaim() {}

  /** What a folder whose entries are named {@code names} is to Cutover. */
  static Standing judge(Kind kind, Collection<String> names) {
    if (names.contains(MARKER)) {
      return Standing.MARKED;
    }
    List<String> entries = names.stream().filter(n -> !FILE_SYSTEM.contains(n) && !partialOfOwn(kind, n)).toList();
    if (entries.isEmpty()) {
      return Standing.EMPTY;
    }
    return entries.stream().allMatch(kind::own) && entries.stream().anyMatch(kind::sign) ? Standing.EARLIER
        : Standing.FOREIGN;
  }

  /** The entries among {@code names} that Cutover did not make, sorted. */
  static List<String> foreign(Kind kind, Collection<String> names) {
    return names.stream().filter(n -> !n.equals(MARKER) && !FILE_SYSTEM.contains(n) && !kind.own(n)
        && !partialOfOwn(kind, n)).sorted().toList();
  }

  private static boolean partialOfOwn(Kind kind, String name) {
    Matcher m = PARTIAL.matcher(name);
    return m.matches() && (kind.own(m.group(1)) || m.group(1).equals(MARKER));
  }

  /**
   * Makes {@code folder} Cutover's before anything is written there: creates it (and any missing parent)
   * owner-only with the marker when it is missing, marks an empty folder or an older version's, and
   * accepts a marked one as it is.
   *
   * @throws InvalidInputException when the path is relative, names a file, or names a folder that holds
   *     entries Cutover did not make; nothing is created and no permission changed then
   */
  static void claim(Path folder, Kind kind) {
    if (!folder.isAbsolute()) {
      throw new InvalidInputException("data-dir", kind.what + " " + (folder.toString().isEmpty() ? "is an empty path"
          : "'" + folder + "' is a relative path") + ": it would be a folder of whatever directory Cutover runs in. "
          + "Give an absolute path.");
    }
    try {
      if (Files.exists(folder) && !Files.isDirectory(folder)) {
        throw new InvalidInputException("data-dir", kind.what + " " + folder + " is a file, not a folder; give the "
            + "path of a new or empty folder.");
      }
      if (!Files.exists(folder)) {
        Files.createDirectories(folder);
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        mark(folder);
        return;
      }
      List<String> names;
      try (Stream<Path> entries = Files.list(folder)) {
        names = entries.map(p -> p.getFileName().toString()).toList();
      }
      switch (judge(kind, names)) {
        case MARKED -> { }
        case EMPTY, EARLIER -> mark(folder);
        case FOREIGN -> throw refused(folder, kind, foreign(kind, names));
      }
    } catch (IOException e) {
      throw new EmbeddedEngineException(kind.what + " " + folder + " cannot be created or read (" + e.getMessage()
          + "). Choose a folder of your own on a local disk, or fix its permissions.", e);
    }
  }

  private static InvalidInputException refused(Path folder, Kind kind, List<String> foreign) {
    int shown = Math.min(3, foreign.size());
    String named = String.join(", ", foreign.subList(0, shown))
        + (foreign.size() > shown ? " and " + (foreign.size() - shown) + " more" : "");
    return new InvalidInputException("data-dir", kind.what + " " + folder + " already holds what Cutover did not "
        + "make (" + named + "). Cutover makes its folders readable by their owner only, so it uses only a folder it "
        + "made, an empty one, or one that holds its file " + MARKER + "; nothing was changed in " + folder
        + ". Choose a new or empty folder.");
  }

  private static void mark(Path folder) throws IOException {
    PrivateFiles.create(folder.resolve(MARKER), "This folder is Cutover's (made or first used on " + Instant.now()
        + " by process " + ProcessHandle.current().pid() + "). Cutover keeps it readable by its owner only, and "
        + "changes permissions only in folders that hold this file.\n");
  }
}
