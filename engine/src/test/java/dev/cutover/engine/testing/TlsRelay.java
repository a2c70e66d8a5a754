package dev.cutover.engine.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * HTTPS in front of a plain HTTP port, made of the JDK's own TLS server sockets: it listens on
 * 127.0.0.1, presents a certificate, and forwards the bytes of each accepted session both ways to
 * the plain port. clickhouse-local cannot serve HTTPS itself, so this is how a client's TLS session
 * (certificate validation and host-name check included) reaches the embedded ClickHouse in tests.
 *
 * <p>It counts the handshakes that completed and those the client broke off, so that a test can
 * tell a refusal in TLS from a refusal anywhere else.
 */
public final class TlsRelay implements AutoCloseable {

  private final SSLServerSocket listener;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final Thread acceptor;

  private TlsRelay(SSLServerSocket listener, int targetPort) {
    this.listener = listener;
    this.targetPort = targetPort;
    this.acceptor = Thread.ofVirtual().name("tls-relay-" + listener.getLocalPort()).start(this::accept);
  }

  /** Listens on a free port of 127.0.0.1 with {@code identity}, forwarding to {@code 127.0.0.1:targetPort}. */
  public static TlsRelay start(TestCertificates.Identity identity, int targetPort) {
    try {
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(identity.keyStore(), identity.password());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      SSLServerSocket listener = (SSLServerSocket) context.getServerSocketFactory()
          .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
      return new TlsRelay(listener, targetPort);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("Could not start the TLS relay: " + e, e);
    }
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Handshakes that completed: sessions a client accepted. */
  public long handshakes() {
    return completed.get();
  }

  /** Handshakes the client broke off, for example because it did not trust the certificate. */
  public long refusedHandshakes() {
    return failed.get();
  }

  /** Waits until at least {@code total} handshakes have ended either way; whether they had in time. */
  public boolean awaitSessions(long total, java.time.Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (completed.get() + failed.get() < total) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        SSLSocket client = (SSLSocket) listener.accept();
        open.add(client);
        Thread.ofVirtual().start(() -> serve(client));
      } catch (IOException e) {
        // closed: the relay is done
      }
    }
  }

  private void serve(SSLSocket client) {
    try {
      client.startHandshake();
    } catch (IOException e) {
      failed.incrementAndGet();
      closeQuietly(client);
      return;
    }
    completed.incrementAndGet();
    Socket server = new Socket();
    open.add(server);
    try {
      server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
      Thread upstream = Thread.ofVirtual().start(() -> pump(client, server));
      pump(server, client);
      upstream.join();
    } catch (IOException e) {
      // the plain port is gone: the client sees its session end
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(client);
      closeQuietly(server);
    }
  }

  /** Copies until either side ends, then closes both, so that the other direction ends too. */
  private void pump(Socket from, Socket to) {
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      byte[] buffer = new byte[16 * 1024];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side closed
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private void closeQuietly(Socket socket) {
    open.remove(socket);
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException e) {
      // already closed
    }
    open.forEach(this::closeQuietly);
    try {
      acceptor.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
