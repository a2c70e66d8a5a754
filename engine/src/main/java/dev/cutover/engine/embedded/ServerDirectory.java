package dev.cutover.engine.embedded;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
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

  /** Who may connect: the server's configuration, its users, and the operator's secret; owner-only. */
  Path access() {
    return root.resolve("access");
  }

  Path config() {
    return access().resolve("config.xml");
  }

  Path users() {
    return access().resolve("users.xml");
  }

  /** The password of the user {@code operator}: random, made once per data directory, readable by its owner only. */
  Path secret() {
    return access().resolve("operator.secret");
  }

  /** Writes the configuration and users for {@code access}, making the operator's secret first if there is none. */
  void writeAccess(ServerAccess access) {
    try {
      Files.createDirectories(access());
      Files.setPosixFilePermissions(access(), PosixFilePermissions.fromString("rwx------"));
      if (access.defaultRestricted() && !Files.isRegularFile(secret())) {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        writePrivate(secret(), HexFormat.of().formatHex(random));
      }
      char[] operator = access.defaultRestricted() ? readSecret() : new char[0];
      String operatorHash = ServerAccess.sha256(operator);
      Arrays.fill(operator, '\0');
      writePrivate(users(), access.usersXml(operatorHash));
      writePrivate(config(), "<clickhouse>\n  <user_directories>\n    <users_xml><path>" + users()
          + "</path></users_xml>\n  </user_directories>\n</clickhouse>\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  char[] readSecret() {
    try {
      return Files.readString(secret()).strip().toCharArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Written beside the target with owner-only permissions from the start, then moved into place. */
  private void writePrivate(Path file, String text) throws IOException {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    Files.deleteIfExists(partial);
    Files.createFile(partial, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(partial, text);
    Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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
          Instant.parse(p.getProperty("started")),
          "restricted".equals(p.getProperty("access"))));
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
    p.setProperty("access", record.restricted() ? "restricted" : "open");
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
