package dev.cutover.engine.embedded;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.PasswordSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The embedded ClickHouse: a real ClickHouse 26.7 engine running in a child JVM and serving HTTP on
 * 127.0.0.1, with its data in a directory that persists across launches.
 *
 * <p>At most one server runs on a data directory. {@link #startOrJoin} starts one, or joins the one
 * another Cutover process already runs there. Closing an instance that started its server stops
 * that server; closing a joined instance leaves it running.
 *
 * <pre>{@code
 * try (EmbeddedServer server = EmbeddedServer.startOrJoin(UserDirectories.embeddedData(),
 *     EngineLibrary.fromEnvironment(), EngineProgress.NONE)) {
 *   String url = server.jdbcUrl(); // jdbc:clickhouse://127.0.0.1:PORT
 * }
 * }</pre>
 */
public final class EmbeddedServer implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
  private static final long LOG_ROTATE_BYTES = 8L << 20;
  /** The environment the server process keeps; everything else is dropped. */
  private static final java.util.Set<String> INHERITED = java.util.Set.of("PATH", "HOME", "USER", "LOGNAME", "LANG",
      "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR");

  private final ServerDirectory dir;
  private final ServerRecord record;
  private final Process process; // null when joined
  private final OptionalLong clearedStalePid;
  private final Thread shutdownHook;

  private EmbeddedServer(ServerDirectory dir, ServerRecord record, Process process, OptionalLong clearedStalePid) {
    this.dir = dir;
    this.record = record;
    this.process = process;
    this.clearedStalePid = clearedStalePid;
    if (process != null) {
      shutdownHook = Thread.ofPlatform().unstarted(this::stop);
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    } else {
      shutdownHook = null;
    }
  }

  /** Joins the server running on {@code dataDirectory}, or starts a {@linkplain ServerAccess#restricted() restricted} one there. */
  public static EmbeddedServer startOrJoin(Path dataDirectory, EngineLibrary library, EngineProgress progress) {
    return startOrJoin(dataDirectory, library, ServerAccess.restricted(), progress);
  }

  /**
   * Joins the server running on {@code dataDirectory}, whatever its access, or starts one there with
   * {@code access}.
   *
   * @throws EmbeddedEngineException with a sentence and the tail of the server's log when it fails
   */
  public static EmbeddedServer startOrJoin(Path dataDirectory, EngineLibrary library, ServerAccess access,
      EngineProgress progress) {
    ServerDirectory dir = new ServerDirectory(dataDirectory);
    try {
      Files.createDirectories(dir.root());
    } catch (IOException e) {
      throw new EmbeddedEngineException("Cannot create the data directory " + dir.root() + " (" + e.getMessage()
          + "). Choose another data directory or fix its permissions.", e);
    }
    synchronized (EmbeddedServer.class) {
      try (FileChannel channel = FileChannel.open(dir.launchLock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock ignored = channel.lock()) {
        if (serverLockHeld(dir)) {
          progress.report("Joining the Cutover server running on " + dir.root(), -1, -1);
          return new EmbeddedServer(dir, awaitRunning(dir, null), null, OptionalLong.empty());
        }
        OptionalLong stale = OptionalLong.empty();
        int preferredPort = 0;
        Optional<ServerRecord> leftover = dir.readRecord();
        if (leftover.isPresent()) {
          // The lock is free, so the process that wrote this record is gone: its record is stale.
          stale = OptionalLong.of(leftover.get().pid());
          // Clients of the dead server still hold its port: come back on it if it is free.
          preferredPort = leftover.get().port();
          dir.clearRecord();
          progress.report("Cleared a stale server record left by process " + leftover.get().pid(), -1, -1);
        }
        Path lib = library.resolve(progress);
        prepareAccess(dir, access);
        return start(dir, lib, access, progress, stale, preferredPort);
      } catch (IOException e) {
        throw new EmbeddedEngineException("Cannot lock " + dir.launchLock() + " (" + e.getMessage()
            + "). Check that the data directory is on a local disk you can write to.", e);
      }
    }
  }

  /** Writes who may connect; an open server with no users of its own runs with no configuration at all. */
  private static void prepareAccess(ServerDirectory dir, ServerAccess access) throws IOException {
    if (access.configured()) {
      dir.writeAccess(access);
    } else {
      Files.deleteIfExists(dir.config());
      Files.deleteIfExists(dir.users());
    }
  }

  private static EmbeddedServer start(ServerDirectory dir, Path lib, ServerAccess access, EngineProgress progress,
      OptionalLong stale, int preferredPort) throws IOException {
    rotateLog(dir);
    String lastFailure = null;
    for (int attempt = 1; attempt <= 3; attempt++) {
      int port = attempt == 1 && portFree(preferredPort) ? preferredPort : freePort();
      progress.report("Starting ClickHouse on 127.0.0.1:" + port, -1, -1);
      Process process = spawn(dir, lib, port, access.defaultRestricted());
      try {
        ServerRecord record = awaitRunning(dir, process);
        return new EmbeddedServer(dir, record, process, stale);
      } catch (PortTakenException e) {
        lastFailure = e.getMessage(); // another program took the port between our check and its bind
      }
    }
    throw new EmbeddedEngineException("ClickHouse could not bind a free port on 127.0.0.1 after three tries ("
        + lastFailure + "). Check what is listening with ss -ltnp.");
  }

  private static Process spawn(ServerDirectory dir, Path lib, int port, boolean restricted) throws IOException {
    Path javaHome = Path.of(System.getProperty("java.home"));
    String classpath = codeSource();
    List<String> command = new ArrayList<>(List.of(
        javaHome.resolve("bin").resolve("java").toString(),
        "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        "--enable-native-access=ALL-UNNAMED",
        "-cp", classpath,
        ServerMain.class.getName(),
        lib.toString(), dir.root().toString(), Integer.toString(port), restricted ? "restricted" : "open"));
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.log().toFile()));
    // The server inherits no variable it does not need: a password in CUTOVER_PASSWORD, or in whatever
    // --password-env names, stays with the process the operator started.
    builder.environment().keySet().retainAll(INHERITED);
    // ClickHouse installs signal handlers inside the child JVM; the JDK's signal-chaining library keeps both working.
    Path jsig = javaHome.resolve("lib").resolve("libjsig.so");
    if (Files.isRegularFile(jsig)) {
      builder.environment().put("LD_PRELOAD", jsig.toString());
    }
    return builder.start();
  }

  private static String codeSource() {
    try {
      return Path.of(ServerMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits until the server that holds the directory has published its record and answers /ping. */
  private static ServerRecord awaitRunning(ServerDirectory dir, Process process) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (process != null && !process.isAlive()) {
        String log = tail(dir, 12);
        if (process.exitValue() == ServerMain.EXIT_LOCKED) {
          throw new EmbeddedEngineException("Another process started a server on " + dir.root()
              + " at the same moment. Run the command again to join it.");
        }
        if (log.contains("Address already in use") || log.contains("NETWORK_ERROR")) {
          throw new PortTakenException(lastLine(log));
        }
        throw new EmbeddedEngineException("The embedded ClickHouse stopped while starting (exit "
            + process.exitValue() + "). Its log " + dir.log() + " ends with: " + log);
      }
      Optional<ServerRecord> record = dir.readRecord();
      if (record.isPresent() && (process == null || record.get().pid() == process.pid())
          && ping(http, record.get())) {
        return record.get();
      }
      sleep(100);
    }
    if (process != null) {
      process.destroyForcibly();
    }
    throw new EmbeddedEngineException("The embedded ClickHouse on " + dir.root() + " did not answer within "
        + START_TIMEOUT.toSeconds() + " s. Its log " + dir.log() + " ends with: " + tail(dir, 12));
  }

  private static boolean ping(HttpClient http, ServerRecord record) {
    HttpRequest request = HttpRequest.newBuilder(
            URI.create("http://" + record.host() + ":" + record.port() + "/ping"))
        .timeout(Duration.ofSeconds(2)).build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddedEngineException("Interrupted while waiting for the embedded ClickHouse.", e);
    }
  }

  private static boolean serverLockHeld(ServerDirectory dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir.serverLock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return true;
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    }
  }

  private static boolean portFree(int port) {
    if (port <= 0) {
      return false;
    }
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void rotateLog(ServerDirectory dir) throws IOException {
    if (Files.isRegularFile(dir.log()) && Files.size(dir.log()) > LOG_ROTATE_BYTES) {
      Files.move(dir.log(), dir.log().resolveSibling("server.log.1"), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  static String tail(ServerDirectory dir, int lines) {
    try {
      if (!Files.isRegularFile(dir.log())) {
        return "(no log)";
      }
      return EngineLibrary.lastLines(Files.readString(dir.log(), java.nio.charset.StandardCharsets.ISO_8859_1), lines);
    } catch (IOException e) {
      return "(log unreadable: " + e.getMessage() + ")";
    }
  }

  private static String lastLine(String text) {
    String[] parts = text.split(" \\| ");
    return parts[parts.length - 1];
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddedEngineException("Interrupted while waiting for the embedded ClickHouse.", e);
    }
  }

  public String host() {
    return record.host();
  }

  public int port() {
    return record.port();
  }

  /** A JDBC URL for this server, without a database. */
  public String jdbcUrl() {
    return "jdbc:clickhouse://" + host() + ":" + port();
  }

  public Path dataDirectory() {
    return dir.root();
  }

  /** Whether the server admits only {@code operator} to do work (see {@link ServerAccess}). */
  public boolean restricted() {
    return record.restricted();
  }

  /** The ClickHouse user to connect as: {@code operator} on a restricted server, else {@code default}. */
  public String user() {
    return record.restricted() ? ServerAccess.OPERATOR : ServerAccess.DEFAULT;
  }

  /** Where that user's password comes from: the data directory's secret file, or none. */
  public PasswordSource password() {
    return record.restricted() ? PasswordSource.file(dir.secret()) : PasswordSource.none();
  }

  /** How to connect to this server, working in {@code database}. */
  public ConnectionProfile profile(String database) {
    return ConnectionProfile.of(jdbcUrl(), user(), password(), database);
  }

  /** Whether this instance started the server (and stops it on close), rather than joining it. */
  public boolean owner() {
    return process != null;
  }

  /** The process id of the server. */
  public long pid() {
    return record.pid();
  }

  /** When a dead process had left its record behind, its pid: that stale record was cleared. */
  public OptionalLong clearedStaleRecordOf() {
    return clearedStalePid;
  }

  /** Whether the server still runs (for a joined server: whether it still answers). */
  public boolean running() {
    if (process != null) {
      return process.isAlive();
    }
    return ProcessHandle.of(record.pid()).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Stops the server if this instance started it: closes its stdin, waits, then kills it. */
  @Override
  public void close() {
    if (process == null) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook is running this
    }
    stop();
  }

  private void stop() {
    try {
      process.getOutputStream().close(); // end of file on the server's stdin: it stops serving
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    if (!process.isAlive()) {
      dir.clearRecordIfOwnedBy(process.pid());
    }
  }

  @Override
  public String toString() {
    return "embedded ClickHouse at " + host() + ":" + port() + " (data: " + dir.root() + ")";
  }

  /** The chosen port was taken before the server could bind it; try another. */
  private static final class PortTakenException extends RuntimeException {
    PortTakenException(String message) {
      super(message);
    }
  }
}
