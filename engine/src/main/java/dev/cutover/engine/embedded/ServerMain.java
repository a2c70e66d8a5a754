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
import java.util.List;

/**
 * The child process that hosts the embedded ClickHouse. It runs clickhouse-local inside this JVM
 * through {@code query_stable_v2}, serving HTTP on 127.0.0.1 until its standard input reaches end
 * of file: the parent closes it to stop the server, and a dead parent closes it too.
 *
 * <p>Arguments: {@code <libchdb.so> <data directory> <http port>}. It holds {@code server.lock} in
 * the data directory for its whole life, so that only one server ever uses that store, and
 * publishes {@code server.properties} once the server answers {@code /ping}.
 *
 * <p>Exit codes: 0 stopped normally, 1 ClickHouse failed, 3 another server holds the directory.
 */
public final class ServerMain {

  static final int EXIT_FAILED = 1;
  static final int EXIT_LOCKED = 3;

  private ServerMain() {}

  public static void main(String[] args) throws Throwable {
    Path library = Path.of(args[0]);
    ServerDirectory dir = new ServerDirectory(Path.of(args[1]));
    int port = Integer.parseInt(args[2]);

    try (FileChannel channel = FileChannel.open(dir.serverLock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      if (lock == null) {
        System.err.println("Another Cutover server is already using " + dir.root() + ".");
        System.exit(EXIT_LOCKED);
        return;
      }
      Files.createDirectories(dir.store());
      Thread.ofPlatform().daemon().name("publish-endpoint").start(() -> publishWhenReady(dir, port));
      String error = serve(library, dir.store(), port);
      // When started by a JVM, clickhouse-local may end this process from inside query_stable_v2 once
      // stdin closes, so the parent withdraws the record too (EmbeddedServer.stop).
      dir.clearRecordIfOwnedBy(ProcessHandle.current().pid());
      if (error != null) {
        System.err.println("ClickHouse stopped with an error: " + error);
        System.exit(EXIT_FAILED);
      }
    }
    System.exit(0);
  }

  /** Runs clickhouse-local as an HTTP server; returns its error message, or null when it ended cleanly. */
  private static String serve(Path library, Path store, int port) throws Throwable {
    List<String> argv = List.of(
        "clickhouse",
        "--multiquery",
        "--path=" + store,
        "--listen_host=127.0.0.1",
        "--http_port=" + port,
        // Serve until stdin reaches end of file: the server lives exactly as long as the pipe from its parent.
        "--query=SYSTEM START LISTEN HTTP; SELECT count() FROM file('/dev/stdin', LineAsString) FORMAT Null");
    SymbolLookup lookup = SymbolLookup.libraryLookup(library, Arena.global());
    Linker linker = Linker.nativeLinker();
    MethodHandle query = linker.downcallHandle(
        lookup.find("query_stable_v2").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    MethodHandle free = linker.downcallHandle(
        lookup.find("free_result_v2").orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
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

  private static void publishWhenReady(ServerDirectory dir, int port) {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
    while (Instant.now().isBefore(deadline)) {
      if (answersPing(port)) {
        dir.writeRecord(new ServerRecord(ProcessHandle.current().pid(), "127.0.0.1", port, Instant.now()));
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
