package dev.cutover.engine.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The life of a server process after it starts: who uses it, when it stops, and how.
 *
 * <p>It serves while any Cutover process holds a live lease ({@link ServerLease}); when none has for
 * the idle period, or when {@code cutover server stop} asks, or when the operating system sends
 * SIGTERM, it stops <em>gracefully</em>: it withdraws its record so that nobody joins a stopping
 * server, cancels the queries that run and waits for them, then ends clickhouse-local's keep-alive
 * query, so that clickhouse-local shuts its servers and its context down inside {@code
 * query_stable_v2}. Once that returns, the process ends with {@code _exit}: the engine is already
 * shut down, and its static destructors, which could race threads that never stopped, do not run.
 * Every start, join, leave and stop is one line of {@code server.log}, with its reason.
 */
final class ServerLife {

  /** How the log names a stop that {@code cutover server stop} (a stop request) asked for. */
  static final String ASKED = "asked to stop: ";

  /**
   * The reason of a stop nobody asked for: only a client can end the serving query without going through
   * {@link #stop}, by killing it or by shutting the server down.
   */
  static final String UNASKED = "ClickHouse ended its serving query without a stop being asked: a client killed it "
      + "(KILL QUERY) or shut the server down (SYSTEM SHUTDOWN)";

  /** How long a stop may take before the process ends anyway. */
  static final Duration STOP_GRACE = Duration.ofSeconds(30);
  /** A server just started waits this long for its first client before idling counts. */
  static final Duration FIRST_CLIENT = Duration.ofSeconds(20);

  private final ServerDirectory dir;
  private final int port;
  private final boolean restricted;
  private final Duration idle;
  /** The operator's secret, read once at start: a stop must not depend on a file still being there. */
  private final char[] key;
  private final Instant started = Instant.now();
  private final CountDownLatch served = new CountDownLatch(1);
  private volatile String stopReason;
  private boolean everSeen;
  private Instant idleSince;

  ServerLife(ServerDirectory dir, int port, boolean restricted, Duration idle) {
    this.dir = dir;
    this.port = port;
    this.restricted = restricted;
    this.idle = idle;
    this.key = restricted ? dir.readSecret() : new char[0];
  }

  static void log(String line) {
    System.out.println(Instant.now() + " server " + ProcessHandle.current().pid() + ": " + line);
    System.out.flush();
  }

  /**
   * Watches the leases and the stop request, once a second, until the server stops. Nothing that
   * goes wrong in one look ends the watching: a server nobody watches would never stop.
   */
  void watch() {
    while (stopReason == null) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        return;
      }
      try {
        if (!Files.isDirectory(dir.root())) {
          stop("its data folder " + dir.root() + " was deleted");
          return;
        }
        if (look()) {
          return;
        }
      } catch (RuntimeException e) {
        log("could not look at its clients (" + e + "); looking again in a second");
      }
    }
  }

  /** One look at the stop request and the leases; returns whether the server stopped. */
  private boolean look() {
    if (stopIfAsked()) {
      return true;
    }
    Instant now = Instant.now();
    List<ServerLease.Holder> leases = ServerLease.read(dir);
    int live = 0;
    for (ServerLease.Holder h : leases) {
      if (h.live(now)) {
        live++;
        everSeen = true;
      } else {
        log("client " + h.pid() + " (" + h.what() + ") is gone without letting go: its process "
            + (ProcessHandle.of(h.pid()).map(ProcessHandle::isAlive).orElse(false) ? "stopped renewing its lease"
                : "ended"));
        delete(h.file());
      }
    }
    everSeen |= leftSince(started);
    boolean awaitingFirst = !everSeen && now.isBefore(started.plus(FIRST_CLIENT));
    if (live > 0 || awaitingFirst) {
      idleSince = null;
      return false;
    }
    if (idleSince == null) {
      idleSince = now;
      if (!idle.isZero()) {
        log((everSeen ? "no client is left" : "no client joined") + "; stopping in " + idle.toSeconds()
            + " s unless one joins");
      }
    }
    if (!now.isBefore(idleSince.plus(idle))) {
      // A process that asks the server to stop writes its request, then lets go of its lease: a request written
      // since the first look above is why the last lease went, and the log says so.
      if (stopIfAsked()) {
        return true;
      }
      return stopIdle(idle.isZero() ? (everSeen ? "its last client left" : "no client joined")
          : "idle: no Cutover process used it for " + Duration.between(idleSince, now).toSeconds() + " s");
    }
    return false;
  }

  /**
   * Stops for want of clients, unless one joined meanwhile; returns whether it stopped. A joining process takes its
   * lease, then looks for the stopping mark: one that took its lease after the leases were read above, and looked
   * before the mark was written, joins, and a stop now would kill its first query. So the mark is written first and
   * the leases read again: a lease found then calls the stop off (the mark goes, and a process that saw it and waits
   * for the stop joins instead); a lease taken after this read finds the mark, and waits for the stop.
   */
  boolean stopIdle(String reason) {
    try {
      PrivateFiles.write(dir.stopping(), Long.toString(ProcessHandle.current().pid()));
    } catch (IOException e) {
      log("could not mark the server as stopping: " + e.getMessage());
    }
    Instant now = Instant.now();
    List<ServerLease.Holder> joined = ServerLease.read(dir).stream().filter(h -> h.live(now)).toList();
    if (!joined.isEmpty()) {
      delete(dir.stopping());
      log("client " + joined.getFirst().pid() + " (" + joined.getFirst().what() + ") joined as the server was about "
          + "to stop (" + reason + "); it serves on");
      idleSince = null;
      everSeen = true;
      return false;
    }
    stop(reason);
    return true;
  }

  /** Stops when a process has asked it to, with its reason; returns whether it did. */
  private boolean stopIfAsked() {
    if (!Files.exists(dir.stopRequest())) {
      return false;
    }
    String reason = read(dir.stopRequest());
    delete(dir.stopRequest());
    stop(ASKED + reason);
    return true;
  }

  /** Whether a client let go of its lease after {@code instant}: one came and went between two looks. */
  private boolean leftSince(Instant instant) {
    try {
      return Files.getLastModifiedTime(ServerLease.lastLeft(dir)).toInstant().isAfter(instant);
    } catch (IOException e) {
      return false;
    }
  }

  /** Stops gracefully, once; returns when clickhouse-local has returned, or after the grace period. */
  void stop(String reason) {
    synchronized (this) {
      if (stopReason != null) {
        awaitServed();
        return;
      }
      stopReason = reason;
    }
    log("stopping (" + reason + ")");
    try {
      PrivateFiles.write(dir.stopping(), Long.toString(ProcessHandle.current().pid()));
    } catch (IOException e) {
      log("could not mark the server as stopping: " + e.getMessage());
    }
    withdrawRecord();
    Instant deadline = Instant.now().plus(STOP_GRACE);
    // The clients' queries first, waiting for them; then the keep-alive, which ends the engine.
    post("KILL QUERY WHERE query_id != '" + ServerMain.KEEP_ALIVE + "' SYNC");
    while (Instant.now().isBefore(deadline)) {
      post("KILL QUERY WHERE query_id = '" + ServerMain.KEEP_ALIVE + "' ASYNC");
      try {
        if (served.await(2, TimeUnit.SECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        break;
      }
    }
    log("ClickHouse did not stop within " + STOP_GRACE.toSeconds() + " s; ending the process");
    withdrawRecord();
    exit(ServerMain.EXIT_FAILED);
  }

  /** Removes the record that tells clients where to connect, if it is still this server's. */
  void withdrawRecord() {
    try {
      dir.clearRecordIfOwnedBy(ProcessHandle.current().pid());
    } catch (RuntimeException e) {
      log("could not withdraw its record " + dir.record() + ": " + e.getMessage());
    }
  }

  String reason() {
    return stopReason;
  }

  /**
   * The reason of the stop once clickhouse-local has returned: the one given, or {@link #UNASKED} when none
   * was, logged as the start of any stop is, so that whoever reads the log later learns why.
   */
  String reasonOnceServed() {
    synchronized (this) {
      if (stopReason != null) {
        return stopReason;
      }
      stopReason = UNASKED;
    }
    log("stopping (" + UNASKED + ")");
    return UNASKED;
  }

  /** clickhouse-local returned from {@code query_stable_v2}. */
  void served() {
    served.countDown();
  }

  private void awaitServed() {
    try {
      served.await(STOP_GRACE.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Ends the process at once, without running static destructors or shutdown hooks: the engine has
   * shut down inside {@code query_stable_v2} already.
   */
  static void exit(int code) {
    System.out.flush();
    System.err.flush();
    try {
      MethodHandle exit = Linker.nativeLinker().downcallHandle(Linker.nativeLinker().defaultLookup().find("_exit")
          .orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
      exit.invokeExact(code);
    } catch (Throwable e) {
      Runtime.getRuntime().halt(code);
    }
  }

  /** One statement over a plain socket, as the user that may run it; the password travels in a header. */
  private void post(String statement) {
    String user = restricted ? ServerAccess.OPERATOR : ServerAccess.DEFAULT;
    byte[] body = statement.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer keyBytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(key));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(15_000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST / HTTP/1.0\r\nHost: 127.0.0.1\r\nX-ClickHouse-User: " + user + "\r\nX-ClickHouse-Key: ")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(keyBytes.array(), 0, keyBytes.limit());
      out.write(("\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      socket.getInputStream().readAllBytes();
    } catch (IOException e) {
      // not listening any more: the engine is on its way down
    } finally {
      Arrays.fill(keyBytes.array(), (byte) 0);
    }
  }

  /** Names the crash files earlier servers left, once each, and marks them as reported. */
  void reportEarlierCrashes() {
    if (!Files.isDirectory(dir.crashes())) {
      return;
    }
    try (var files = Files.list(dir.crashes())) {
      for (var f : files.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
        log("an earlier server crashed; its crash file is " + f);
        Files.move(f, f.resolveSibling(f.getFileName() + ".reported"));
      }
    } catch (IOException e) {
      log("could not read " + dir.crashes() + ": " + e.getMessage());
    }
  }

  private static String read(java.nio.file.Path file) {
    try {
      String reason = Files.readString(file).strip();
      return reason.isEmpty() ? NO_REASON : reason;
    } catch (IOException e) {
      return NO_REASON;
    }
  }

  /** What a stop request without a reason says in the log. */
  static final String NO_REASON = "(no reason given)";

  private static void delete(java.nio.file.Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // removed by someone else
    }
  }
}
