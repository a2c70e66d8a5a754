package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Table definitions left empty in the store of an embedded server. ClickHouse keeps each table's definition
 * in a file of its own ({@code clickhouse/store/abc/<database uuid>/<table>.sql} for an Atomic database,
 * {@code clickhouse/metadata/<database>/<table>.sql} for another); a disk that ran out of space while one was
 * written can leave it empty, and a server with an empty definition refuses to start ("Cannot parse definition
 * from metadata file"). They are found before the server starts, named in one sentence with the way out, and
 * set aside by the recovery, which keeps every file it moves.
 */
public final class EmptyDefinitions {

  private static final Pattern DATABASE_UUID = Pattern.compile("ATTACH DATABASE \\S+ UUID '([0-9a-f-]{36})'");

  /** One empty definition: the database and table it defines, and its file. */
  public record Empty(String database, String table, Path file) {
    @Override
    public String toString() {
      return database + "." + table;
    }
  }

  private EmptyDefinitions() {}

  /** The empty definitions in the store of the data directory, databases' and tables'. */
  public static List<Empty> find(Path dataDirectory) {
    return find(new ServerDirectory(dataDirectory));
  }

  static List<Empty> find(ServerDirectory dir) {
    Path store = dir.store();
    Path metadata = store.resolve("metadata");
    if (!Files.isDirectory(metadata)) {
      return List.of();
    }
    List<Empty> out = new ArrayList<>();
    Map<String, String> databases = new HashMap<>();
    try (Stream<Path> files = Files.list(metadata)) {
      for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".sql")).sorted().toList()) {
        String name = decode(f.getFileName().toString());
        if (Files.size(f) == 0) {
          out.add(new Empty(name, "", f));
          continue;
        }
        Matcher m = DATABASE_UUID.matcher(Files.readString(f));
        if (m.find()) {
          databases.put(m.group(1), name);
        }
        Path ordinary = metadata.resolve(f.getFileName().toString().replaceFirst("\\.sql$", ""));
        // An Atomic database's folder there is a link to its folder in the store, read below by its UUID.
        if (Files.isDirectory(ordinary, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          out.addAll(emptyIn(ordinary, name));
        }
      }
      for (var db : databases.entrySet()) {
        Path tables = store.resolve("store").resolve(db.getKey().substring(0, 3)).resolve(db.getKey());
        if (Files.isDirectory(tables)) {
          out.addAll(emptyIn(tables, db.getValue()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static List<Empty> emptyIn(Path folder, String database) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      List<Empty> out = new ArrayList<>();
      for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".sql")).sorted().toList()) {
        if (Files.size(f) == 0) {
          out.add(new Empty(database, decode(f.getFileName().toString()).replaceFirst("\\.sql$", ""), f));
        }
      }
      return out;
    }
  }

  /** ClickHouse escapes a name in a file name as a URL's path does ({@code -} as {@code %2D}). */
  private static String decode(String fileName) {
    return URLDecoder.decode(fileName.replaceFirst("\\.sql$", "").replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /**
   * Refuses to start a server on a store with empty definitions, naming them and the recovery; before a start,
   * where ClickHouse would only say that it cannot parse the first one.
   */
  static void refuseToStart(ServerDirectory dir) {
    List<Empty> empty = find(dir);
    if (empty.isEmpty()) {
      return;
    }
    throw new EmbeddedEngineException("The server's store in " + dir.root() + " holds " + empty.size() + " table "
        + "definition(s) left empty, as a disk that ran out of space leaves them: " + String.join(", ",
            empty.stream().map(e -> e + " (" + dir.root().relativize(e.file()) + ")").toList()) + ". ClickHouse "
        + "cannot start with them. Free space on the disk, then recover the store (cutover server recover, with the "
        + "same data directory): it sets the empty definitions aside under " + dir.root().resolve("recovered")
        + ", gives Cutover's own tables their data back, and starts the server.");
  }

  /**
   * The columns ({@code `name` Type}, as ClickHouse writes them beside each part) of every table folder in the
   * store that no table of {@code known} (the UUIDs the server lists for its tables and databases) owns and that
   * holds a part: the data of a table whose definition was set aside.
   */
  public static Map<String, List<String>> orphans(Path dataDirectory, java.util.Set<String> known) {
    Path store = new ServerDirectory(dataDirectory).store().resolve("store");
    Map<String, List<String>> out = new HashMap<>();
    if (!Files.isDirectory(store)) {
      return out;
    }
    try (Stream<Path> prefixes = Files.list(store)) {
      for (Path prefix : prefixes.filter(Files::isDirectory).toList()) {
        try (Stream<Path> tables = Files.list(prefix)) {
          for (Path table : tables.filter(Files::isDirectory).toList()) {
            String uuid = table.getFileName().toString();
            if (known.contains(uuid)) {
              continue;
            }
            columns(table).ifPresent(c -> out.put(uuid, c));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The column lines of the first part of a table folder that has one. */
  private static java.util.Optional<List<String>> columns(Path table) throws IOException {
    try (Stream<Path> parts = Files.list(table)) {
      for (Path part : parts.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().equals("detached"))
          .sorted().toList()) {
        Path columns = part.resolve("columns.txt");
        if (Files.isRegularFile(columns)) {
          return java.util.Optional.of(Files.readAllLines(columns).stream().filter(l -> l.startsWith("`")).toList());
        }
      }
    }
    return java.util.Optional.empty();
  }

  /**
   * Moves every empty definition into {@code recovered/<time>/} of the data directory, keeping its path under
   * the store, and returns what it moved; a server must not run meanwhile.
   */
  /** What a recovery set aside, and the folder it kept them in (null when there was nothing). */
  public record SetAside(List<Empty> moved, Path folder) {}

  public static SetAside setAside(Path dataDirectory) {
    return setAside(new ServerDirectory(dataDirectory));
  }

  static SetAside setAside(ServerDirectory dir) {
    List<Empty> empty = find(dir);
    if (empty.isEmpty()) {
      return new SetAside(empty, null);
    }
    Path into = dir.root().resolve("recovered").resolve(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
        .withZone(ZoneOffset.UTC).format(Instant.now()));
    try {
      List<String> lines = new ArrayList<>();
      for (Empty e : empty) {
        Path to = into.resolve(dir.store().relativize(e.file()));
        PrivateFiles.createFolder(to.getParent());
        Files.move(e.file(), to, StandardCopyOption.ATOMIC_MOVE);
        lines.add(e + "\t" + dir.root().relativize(e.file()));
      }
      PrivateFiles.write(into.resolve("set-aside.tsv"), String.join("\n", lines) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("Could not set the empty definitions aside into " + into + ": " + e.getMessage(),
          e);
    }
    return new SetAside(empty, into);
  }
}
