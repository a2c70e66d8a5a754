package dev.cutover.engine.embedded;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The process that hosts the embedded ClickHouse. It runs clickhouse-local inside this JVM through
 * {@code query_stable_v2}, serving HTTP on 127.0.0.1, detached from the process that started it: it
 * serves while any Cutover process holds a lease on it, and stops gracefully when none has for its
 * idle period, when {@code cutover server stop} asks, or on SIGTERM (see {@link ServerLife}).
 *
 * <p>Arguments: {@code <libchdb.so> <data directory> <http port> <open|restricted> <idle seconds>}.
 * It holds {@code server.lock} in the data directory for its whole life, so that only one server
 * ever uses that store, and publishes {@code server.properties} once the server answers {@code
 * /ping}. A restricted server reads its users from {@code access/} (see {@link ServerAccess}); its
 * command line names only that folder, never a password.
 *
 * <p>Exit codes: 0 stopped normally, 1 ClickHouse failed, 3 another server holds the directory.
 */
public final class ServerMain {

  static final int EXIT_FAILED = 1;
  static final int EXIT_LOCKED = 3;
  /** The id of clickhouse-local's own, endless query; killing it stops the server. */
  static final String KEEP_ALIVE = "cutover-keepalive";

  private ServerMain() {}

  public static void main(String[] args) throws Throwable {
    Path library = Path.of(args[0]);
    ServerDirectory dir = new ServerDirectory(Path.of(args[1]));
    int port = Integer.parseInt(args[2]);
    boolean restricted = args.length > 3 && args[3].equals("restricted");
    Duration idle = Duration.ofSeconds(args.length > 4 ? Long.parseLong(args[4]) : 300);

    try (FileChannel channel = PrivateFiles.open(dir.serverLock()); FileLock lock = channel.tryLock()) {
      if (lock == null) {
        System.err.println("Another Cutover server is already using " + dir.root() + ".");
        System.exit(EXIT_LOCKED);
        return;
      }
      PrivateFiles.createFolder(dir.store());
      Files.deleteIfExists(dir.stopping()); // left by the server before this one
      ServerLife life = new ServerLife(dir, port, restricted, idle);
      ServerLife.log("started on 127.0.0.1:" + port + " (" + (restricted ? "restricted" : "open") + " access, data "
          + dir.root() + "); it stops " + (idle.isZero() ? "as soon as" : idle.toSeconds() + " s after") + " the last "
          + "Cutover process using it leaves");
      life.reportEarlierCrashes();
      Thread.ofPlatform().daemon().name("publish-endpoint").start(() -> publishWhenReady(dir, port, restricted));
      Thread.ofPlatform().daemon().name("leases").start(life::watch);
      // SIGTERM and SIGINT: a graceful stop, the same as any other. They do not start the JVM's own exit,
      // which would hold the thread that waits in the engine and run the engine's static destructors; the
      // main thread ends the process with _exit once the engine has shut down.
      for (String signal : List.of("TERM", "INT", "HUP")) {
        sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> Thread.ofPlatform().daemon().start(() ->
            life.stop("the operating system asked (SIG" + signal + ")")));
      }
      String error = serve(library, dir, port, restricted);
      life.served();
      life.withdrawRecord();
      if (error != null && life.reason() == null) {
        ServerLife.log("ClickHouse stopped with an error: " + error);
        ServerLife.exit(EXIT_FAILED);
      }
      ServerLife.log("stopped cleanly (" + life.reasonOnceServed() + ")");
    }
    ServerLife.exit(0);
  }

  /** Runs clickhouse-local as an HTTP server; returns its error message, or null when it ended cleanly. */
  private static String serve(Path library, ServerDirectory dir, int port, boolean restricted) throws Throwable {
    List<String> argv = new ArrayList<>(List.of(
        "clickhouse",
        "--multiquery",
        "--path=" + dir.store(),
        "--listen_host=127.0.0.1",
        "--http_port=" + port,
        "--query_id=" + KEEP_ALIVE,
        // Serve until this query is killed (see ServerLife#stop). It reads no file, so a restricted
        // default user needs no right to read files to run it.
        "--query=SYSTEM START LISTEN HTTP; " + (dir.clustered() ? "SYSTEM START LISTEN TCP; " : "")
            + "SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size = 1 FORMAT Null"));
    if (restricted || Files.isRegularFile(dir.config())) {
      argv.add(1, "--config-file=" + dir.config());
    }
    SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
    Linker linker = Linker.nativeLinker();
    MethodHandle query = linker.downcallHandle(
        lookup.find("query_stable_v2").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    MethodHandle free = linker.downcallHandle(
        lookup.find("free_result_v2").orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
    // ClickHouse would install its own handlers for SIGTERM and SIGINT and start shutting its listeners down
    // on a signal, while its keep-alive query goes on: the graceful stop could no longer reach it. The JVM
    // handles the signals alone (ServerLife), and reports a crash in the data directory.
    lookup.find("chdb_set_signal_handlers_enabled").ifPresent(symbol -> {
      try {
        linker.downcallHandle(symbol, FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT)).invokeExact(0);
      } catch (Throwable e) {
        ServerLife.log("could not keep ClickHouse's signal handlers out: " + e);
      }
    });
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment array = arena.allocate(ValueLayout.ADDRESS, argv.size());
      for (int i = 0; i < argv.size(); i++) {
        array.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(argv.get(i)));
      }
      MemorySegment result = (MemorySegment) query.invokeExact(argv.size(), array);
      if (result.equals(MemorySegment.NULL)) {
        return "the engine returned no result";
      }
      // struct local_result_v2 { char* buf; size_t len; void* _vec; double elapsed;
      //                          uint64_t rows_read; uint64_t bytes_read; char* error_message; }
      MemorySegment error = result.reinterpret(56).get(ValueLayout.ADDRESS, 48);
      String message = error.equals(MemorySegment.NULL) ? null : error.reinterpret(1 << 16).getString(0);
      free.invokeExact(result);
      return message;
    }
  }

  private static void publishWhenReady(ServerDirectory dir, int port, boolean restricted) {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
    while (Instant.now().isBefore(deadline)) {
      if (answersPing(port)) {
        dir.writeRecord(new ServerRecord(ProcessHandle.current().pid(), "127.0.0.1", port, Instant.now(), restricted));
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * GET /ping over a plain socket. Deliberately not java.net.http: its selector thread outlives the
   * request, and a JVM that still runs it when clickhouse-local shuts down exits without returning
   * from {@code query_stable_v2}, so the record would never be withdrawn.
   */
  static boolean answersPing(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(2000);
      socket.getOutputStream().write(
          "GET /ping HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String response = new String(socket.getInputStream().readNBytes(512), StandardCharsets.US_ASCII);
      return response.startsWith("HTTP/1.") && response.contains(" 200 ") && response.endsWith("Ok.\n");
    } catch (IOException e) {
      return false;
    }
  }
}
