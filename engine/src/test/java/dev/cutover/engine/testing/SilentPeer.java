package dev.cutover.engine.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP listener on the loopback that accepts every connection and then says nothing (or only a
 * byte now and then, or passes the bytes to a real server until it is frozen): what a stopped or
 * hung server, or a port that is not ClickHouse's, looks like to a client. Connections stay open
 * until {@link #close}.
 */
public final class SilentPeer implements AutoCloseable {

  private final ServerSocket listener;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private volatile boolean frozen;

  private SilentPeer(Duration dribble, int target) throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("silent-peer").start(() -> {
      while (!listener.isClosed()) {
        try {
          Socket socket = listener.accept();
          accepted.add(socket);
          if (dribble != null) {
            Thread.ofVirtual().start(() -> dribble(socket, dribble));
          } else if (target > 0 && !frozen) {
            relay(socket, target);
          }
        } catch (IOException e) {
          return; // closed
        }
      }
    });
  }

  /** Accepts and never sends a byte. */
  public static SilentPeer silent() throws IOException {
    return new SilentPeer(null, 0);
  }

  /** Accepts and sends one byte of an HTTP status line every {@code every}, never a whole answer. */
  public static SilentPeer dribbling(Duration every) throws IOException {
    return new SilentPeer(every, 0);
  }

  /** Passes every connection on to {@code 127.0.0.1:port} until {@link #freeze}. */
  public static SilentPeer before(int port) throws IOException {
    return new SilentPeer(null, port);
  }

  /**
   * From now on passes nothing either way and connects nothing new, with every connection left open:
   * the server behind it looks stopped (SIGSTOP), not gone.
   */
  public void freeze() {
    frozen = true;
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** A JDBC URL that leads here. */
  public String jdbcUrl() {
    return "jdbc:clickhouse://127.0.0.1:" + port();
  }

  /** How many connections it accepted. */
  public int connections() {
    return accepted.size();
  }

  private void relay(Socket client, int target) throws IOException {
    Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
    accepted.add(server);
    Thread.ofVirtual().start(() -> pump(client, server));
    Thread.ofVirtual().start(() -> pump(server, client));
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[8192];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (!frozen) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // one side closed
    }
    if (!frozen) {
      close(from);
      close(to);
    }
  }

  private static void dribble(Socket socket, Duration every) {
    try {
      OutputStream out = socket.getOutputStream();
      for (byte b : "HTTP/1.0 200 OK\r\n\r\n".repeat(100).getBytes(StandardCharsets.US_ASCII)) {
        Thread.sleep(every);
        out.write(b);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // the client gave up
    }
  }

  private static void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : accepted) {
      close(s);
    }
  }
}
