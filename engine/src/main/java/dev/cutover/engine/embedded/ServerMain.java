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
 * The child process that hosts the embedded ClickHouse. It runs clickhouse-local inside this JVM
 * through {@code query_stable_v2}, serving HTTP on 127.0.0.1 until its standard input reaches end
 * of file: the parent closes it to stop the server, and a dead parent closes it too. Then this
 * process ends clickhouse-local's keep-alive query with {@code KILL QUERY}, and clickhouse-local
 * shuts down cleanly.
 *
 * <p>Arguments: {@code <libchdb.so> <data directory> <http port> <open|restricted>}. It holds
 * {@code server.lock} in the data directory for its whole life, so that only one server ever uses
 * that store, and publishes {@code server.properties} once the server answers {@code /ping}. A
 * restricted server reads its users from {@code access/} (see {@link ServerAccess}); its command
 * line names only that folder, never a password.
 *
 * <p>Exit codes: 0 stopped normally, 1 ClickHouse failed, 3 another server holds the directory.
 */
public final class ServerMain {

  static final int EXIT_FAILED = 1;
  static final int EXIT_LOCKED = 3;
  /** The id of clickhouse-local's own, endless query; killing it stops the server. */
  static final String KEEP_ALIVE = "cutover-keepalive";
  private static final Duration STOP_GRACE = Duration.ofSeconds(20);

  private static volatile boolean stopping;
  private static final CountDownLatch served = new CountDownLatch(1);

  private ServerMain() {}

  public static void main(String[] args) throws Throwable {
    Path library = Path.of(args[0]);
    ServerDirectory dir = new ServerDirectory(Path.of(args[1]));
    int port = Integer.parseInt(args[2]);
    boolean restricted = args.length > 3 && args[3].equals("restricted");

    try (FileChannel channel = FileChannel.open(dir.serverLock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      if (lock == null) {
        System.err.println("Another Cutover server is already using " + dir.root() + ".");
        System.exit(EXIT_LOCKED);
        return;
      }
      Files.createDirectories(dir.store());
      Thread.ofPlatform().daemon().name("publish-endpoint").start(() -> publishWhenReady(dir, port, restricted));
      Thread.ofPlatform().daemon().name("stop-on-eof").start(() -> stopWhenStdinCloses(dir, port, restricted));
      String error = serve(library, dir, port, restricted);
      served.countDown();
      dir.clearRecordIfOwnedBy(ProcessHandle.current().pid());
      if (error != null && !stopping) {
        System.err.println("ClickHouse stopped with an error: " + error);
        System.exit(EXIT_FAILED);
      }
    }
    System.exit(0);
  }

  /**
   * Waits for end of file on stdin (the parent closed it, or died), then ends the keep-alive query
   * as the user that may: clickhouse-local then returns from {@code query_stable_v2}. Should it not,
   * the process ends anyway after a grace period.
   */
  private static void stopWhenStdinCloses(ServerDirectory dir, int port, boolean restricted) {
    try {
      while (System.in.read() >= 0) {
        // the parent never writes; only end of file matters
      }
    } catch (IOException e) {
      // a broken pipe is an end of file too
    }
    stopping = true;
    Instant deadline = Instant.now().plus(STOP_GRACE);
    try {
      while (Instant.now().isBefore(deadline)) {
        killKeepAlive(port, restricted ? ServerAccess.OPERATOR : ServerAccess.DEFAULT,
            restricted ? dir.readSecret() : new char[0]);
        if (served.await(2, TimeUnit.SECONDS)) {
          return;
        }
      }
    } catch (InterruptedException | RuntimeException e) {
      // fall through to the hard stop
    }
    System.err.println("ClickHouse did not stop within " + STOP_GRACE.toSeconds() + " s of its parent leaving; "
        + "ending the process.");
    dir.clearRecordIfOwnedBy(ProcessHandle.current().pid());
    Runtime.getRuntime().halt(EXIT_FAILED);
  }

  /** {@code KILL QUERY} of the keep-alive over a plain socket; the password travels in a header, not the URL. */
  private static void killKeepAlive(int port, String user, char[] key) {
    byte[] body = ("KILL QUERY WHERE query_id = '" + KEEP_ALIVE + "' ASYNC").getBytes(StandardCharsets.US_ASCII);
    ByteBuffer keyBytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(key));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST / HTTP/1.0\r\nHost: 127.0.0.1\r\nX-ClickHouse-User: " + user + "\r\nX-ClickHouse-Key: ")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(keyBytes.array(), 0, keyBytes.limit());
      out.write(("\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      socket.getInputStream().readAllBytes();
    } catch (IOException e) {
      // not listening (yet, or any more): tried again until the grace period ends
    } finally {
      Arrays.fill(key, '\0');
      Arrays.fill(keyBytes.array(), (byte) 0);
    }
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
        // Serve until this query is killed (see stopWhenStdinCloses). It reads no file, so a restricted
        // default user needs no right to read files to run it.
        "--query=SYSTEM START LISTEN HTTP; SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size = 1 "
            + "FORMAT Null"));
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
