package dev.cutover.engine.embedded;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * The files of one embedded server's data directory: the ClickHouse store, the lock its server
 * holds, the record it publishes, and its log.
 */
record ServerDirectory(Path root) {

  ServerDirectory {
    root = root.toAbsolutePath().normalize();
  }

  Path store() {
    return root.resolve("clickhouse");
  }

  /** Held by the server process for its whole life; the OS releases it when that process dies. */
  Path serverLock() {
    return root.resolve("server.lock");
  }

  /** Held briefly by a process deciding whether to start a server or join one. */
  Path launchLock() {
    return root.resolve("launch.lock");
  }

  Path record() {
    return root.resolve("server.properties");
  }

  Path log() {
    return root.resolve("server.log");
  }

  Optional<ServerRecord> readRecord() {
    Path file = record();
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      p.load(in);
      return Optional.of(new ServerRecord(
          Long.parseLong(p.getProperty("pid")),
          p.getProperty("host"),
          Integer.parseInt(p.getProperty("port")),
          Instant.parse(p.getProperty("started"))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  void writeRecord(ServerRecord record) {
    Properties p = new Properties();
    p.setProperty("pid", Long.toString(record.pid()));
    p.setProperty("host", record.host());
    p.setProperty("port", Integer.toString(record.port()));
    p.setProperty("started", record.started().toString());
    try {
      Path partial = root.resolve("server.properties.partial");
      try (Writer out = Files.newBufferedWriter(partial)) {
        p.store(out, "Embedded ClickHouse of Cutover; written by the server process, removed when it stops");
      }
      Files.move(partial, record(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void clearRecordIfOwnedBy(long pid) {
    if (readRecord().map(r -> r.pid() == pid).orElse(false)) {
      clearRecord();
    }
  }

  void clearRecord() {
    try {
      Files.deleteIfExists(record());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
