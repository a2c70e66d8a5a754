package dev.cutover.engine.embedded;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The files of one embedded server's data directory: the ClickHouse store, the lock its server
 * holds, the record it publishes, and its log.
 */
record ServerDirectory(Path root) {

  /** The name of the ClickHouse store's folder. */
  static final String STORE = "clickhouse";

  /** Every name Cutover gives an entry of a data directory: a folder whose entries all have one is Cutover's. */
  static final Set<String> ENTRIES = entries();

  ServerDirectory {
    root = root.toAbsolutePath().normalize();
  }

  private static Set<String> entries() {
    ServerDirectory any = new ServerDirectory(Path.of("/"));
    return Stream.of(any.store(), any.serverLock(), any.launchLock(), any.record(), any.clients(), any.stopRequest(),
        any.stopping(), any.crashes(), any.ownerOnly(), any.restartRecord(), any.log(), any.rotatedLog(), any.access(),
        any.localCluster(), any.root.resolve(DirectoryClaim.MARKER)).map(p -> p.getFileName().toString())
        .collect(Collectors.toUnmodifiableSet());
  }

  Path store() {
    return root.resolve(STORE);
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

  /** One lease file per process that uses the server; the server stops once none has been live for its idle period. */
  Path clients() {
    return root.resolve("clients");
  }

  /** Written by {@code cutover server stop}: the server stops at once, gracefully, with the reason inside. */
  Path stopRequest() {
    return root.resolve("stop.request");
  }

  /** Written by a server as it begins to stop, with its process id: nobody joins a server on its way down. */
  Path stopping() {
    return root.resolve("stopping");
  }

  /** The process id of a server that is stopping now, if one is. */
  java.util.OptionalLong stoppingServer() {
    try {
      long pid = Long.parseLong(Files.readString(stopping()).strip());
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? java.util.OptionalLong.of(pid)
          : java.util.OptionalLong.empty();
    } catch (IOException | NumberFormatException e) {
      return java.util.OptionalLong.empty();
    }
  }

  /** Where the JVM of the server writes a crash file, should it ever crash; the next server names it in the log. */
  Path crashes() {
    return root.resolve("crashes");
  }

  /**
   * Written once the whole tree has been made owner-only: from then on everything in it is created
   * so, and a start only checks the top of the tree instead of walking all of it again.
   */
  Path ownerOnly() {
    return root.resolve("owner-only");
  }

  /** The last death of the server that {@code cutover server} saw, and what it did about it. */
  Path restartRecord() {
    return root.resolve("restart.properties");
  }

  Optional<ServerRestart> readRestart() {
    return ServerRestart.read(restartRecord());
  }

  Path log() {
    return root.resolve("server.log");
  }

  /** The log before its last rotation. */
  Path rotatedLog() {
    return root.resolve("server.log.1");
  }

  /** Where the command line and the console keep the local cluster of this data directory. */
  Path localCluster() {
    return root.resolve("cluster");
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

  /**
   * This server's part in a local cluster, when it is a shard of one: its native (TCP) port, the
   * cluster's shards and their shared secret. The server merges it into its configuration.
   */
  Path clusterConfig() {
    return access().resolve("config.d").resolve("cluster.xml");
  }

  /** Whether this server is a shard of a local cluster: it then opens its native port too. */
  boolean clustered() {
    return Files.isRegularFile(clusterConfig());
  }

  /** Writes this server's part in a local cluster (see {@link #clusterConfig()}). */
  void writeCluster(String xml) {
    try {
      PrivateFiles.createFolder(access());
      PrivateFiles.createFolder(clusterConfig().getParent());
      writePrivate(clusterConfig(), xml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sets the operator's password of this directory, before its server first starts: a cluster's nodes share one. */
  void writeSecret(char[] secret) {
    try {
      PrivateFiles.createFolder(access());
      writePrivate(secret(), new String(secret));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The password of the user {@code operator}: random, made once per data directory, readable by its owner only. */
  Path secret() {
    return access().resolve("operator.secret");
  }

  /** Writes the configuration and users for {@code access}, making the operator's secret first if there is none. */
  void writeAccess(ServerAccess access) {
    try {
      PrivateFiles.createFolder(access());
      if (access.defaultRestricted() && !Files.isRegularFile(secret())) {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        PrivateFiles.create(secret(), HexFormat.of().formatHex(random)); // another process's, if it was first
      }
      char[] operator = access.defaultRestricted() ? readSecret() : new char[0];
      String operatorHash = ServerAccess.sha256(operator);
      Arrays.fill(operator, '\0');
      writePrivate(users(), access.usersXml(operatorHash, plainReads()));
      writeConfig(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The server's configuration: its users when it has some of its own, and a short keep-alive. An idle
   * kept-alive connection of a client holds the HTTP listener open while the engine stops; with two
   * seconds, a stop never waits longer for it.
   */
  void writeConfig(boolean withUsers) {
    try {
      PrivateFiles.createFolder(access());
      writePrivate(config(), "<clickhouse>\n  <keep_alive_timeout>" + KEEP_ALIVE_SECONDS + "</keep_alive_timeout>\n"
          + (withUsers ? "  <user_directories>\n    <users_xml><path>" + users() + "</path></users_xml>\n"
              + "  </user_directories>\n" : "") + "</clickhouse>\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether the server reads its files by plain {@code pread} rather than ClickHouse's default, its reader
   * threads: on a file system that refuses a read that would not block ({@code preadv2} with {@code
   * RWF_NOWAIT}; tmpfs does), the default hands every read, of every small file too, to a reader thread
   * and waits for it. Attaching 4,288 hours of v1 to an empty table took 1.5 ms a part so on tmpfs, 0.36
   * ms by plain reads; on ext4, which answers such reads from its page cache, the two took the same
   * (runs of 2026-12-03, in docs/BENCHMARKS.md's history).
   */
  boolean plainReads() {
    try {
      return Files.getFileStore(root).type().equals("tmpfs");
    } catch (IOException e) {
      return false; // the server's default: slower there, never wrong
    }
  }

  /** How long the server keeps an idle client connection open. */
  static final int KEEP_ALIVE_SECONDS = 2;

  char[] readSecret() {
    try {
      return Files.readString(secret()).strip().toCharArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Written beside the target with owner-only permissions from the start, then moved into place. */
  private static void writePrivate(Path file, String text) throws IOException {
    PrivateFiles.write(file, text);
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
      StringWriter text = new StringWriter();
      p.store(text, "Embedded ClickHouse of Cutover; written by the server process, removed when it stops");
      writePrivate(record(), text.toString());
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
