package dev.cutover.engine.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP listener on the loopback that accepts every connection and then says nothing, or only a
 * byte now and then: what a stopped or hung server, or a port that is not ClickHouse's, looks like
 * to a client. Connections stay open until {@link #close}.
 */
public final class SilentPeer implements AutoCloseable {

  private final ServerSocket listener;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();

  private SilentPeer(Duration dribble) throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("silent-peer").start(() -> {
      while (!listener.isClosed()) {
        try {
          Socket socket = listener.accept();
          accepted.add(socket);
          if (dribble != null) {
            Thread.ofVirtual().start(() -> dribble(socket, dribble));
          }
        } catch (IOException e) {
          return; // closed
        }
      }
    });
  }

  /** Accepts and never sends a byte. */
  public static SilentPeer silent() throws IOException {
    return new SilentPeer(null);
  }

  /** Accepts and sends one byte of an HTTP status line every {@code every}, never a whole answer. */
  public static SilentPeer dribbling(Duration every) throws IOException {
    return new SilentPeer(every);
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

  private static void dribble(Socket socket, Duration every) {
    try {
      OutputStream out = socket.getOutputStream();
      for (byte b : "HTTP/1.0 200 OK\r\n\r\n".repeat(100).getBytes(java.nio.charset.StandardCharsets.US_ASCII)) {
        Thread.sleep(every);
        out.write(b);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // the client gave up
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : accepted) {
      s.close();
    }
  }
}
