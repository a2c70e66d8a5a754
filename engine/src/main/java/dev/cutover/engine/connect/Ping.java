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

/**
 * ClickHouse's {@code GET /ping} ("Ok.") over a plain socket with a hard timeout, so that a status
 * bar learns within a second or two that a server is gone, whatever the driver's own timeouts are.
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
      socket.setSoTimeout(millis);
      OutputStream out = socket.getOutputStream();
      out.write(("GET /ping HTTP/1.0\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readNBytes(512), StandardCharsets.US_ASCII);
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
}
