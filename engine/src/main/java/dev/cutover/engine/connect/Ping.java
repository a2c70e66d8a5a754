package dev.cutover.engine.connect;

import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.ServerHealth;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * ClickHouse's {@code GET /ping} ("Ok.") over a plain socket with a hard timeout, so that a status
 * bar learns within a second or two that a server is gone, whatever the driver's own timeouts are.
 * The timeout bounds the connect, and then the whole answer, not each read alone.
 * A TLS endpoint is only connected to: a handshake would need the trust settings of the JDBC URL.
 */
final class Ping {

  private Ping() {}

  static ServerHealth ping(ConnectionProfile profile, Duration timeout) {
    URI uri = ConnectionProfile.httpUri(profile.jdbcUrl());
    String host = uri.getHost();
    boolean tls = profile.tls();
    int port = uri.getPort() > 0 ? uri.getPort() : tls ? 8443 : 8123;
    int millis = (int) Math.max(1, timeout.toMillis());
    String where = "ClickHouse at " + host + ":" + port;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), millis);
      if (tls) {
        return ServerHealth.answering(where + " accepts connections.");
      }
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      OutputStream out = socket.getOutputStream();
      out.write(("GET /ping HTTP/1.0\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answer = new String(readWithin(socket, deadline), StandardCharsets.US_ASCII);
      if (answer.startsWith("HTTP/1.") && answer.contains(" 200 ") && answer.contains("Ok.")) {
        return ServerHealth.answering(where + " answers.");
      }
      String status = answer.isEmpty() ? "nothing" : answer.lines().findFirst().orElse("").strip();
      return ServerHealth.lost(where + " answered /ping with " + status + " instead of Ok.");
    } catch (SocketTimeoutException e) {
      return ServerHealth.lost(where + " did not answer within " + millis + " ms.");
    } catch (IOException e) {
      return ServerHealth.lost(where + " does not answer: " + (e.getMessage() == null ? e.getClass().getSimpleName()
          : e.getMessage()) + ".");
    }
  }

  /**
   * The answer, up to 512 bytes or the end of the stream, all of it by {@code deadline}: each read
   * may wait only for what is left, so a peer that sends a byte now and then cannot stretch the probe.
   */
  private static byte[] readWithin(Socket socket, long deadline) throws IOException {
    InputStream in = socket.getInputStream();
    byte[] answer = new byte[512];
    int length = 0;
    while (length < answer.length) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        throw new SocketTimeoutException("no whole answer in time");
      }
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
      int n = in.read(answer, length, answer.length - length);
      if (n < 0) {
        break;
      }
      length += n;
    }
    return java.util.Arrays.copyOf(answer, length);
  }
}
