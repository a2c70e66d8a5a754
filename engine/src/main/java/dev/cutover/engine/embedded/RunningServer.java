package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The server that holds a data directory, as other processes find it: whether one holds it (its
 * {@code server.lock}), waiting until it has published its record and answers {@code /ping}, and
 * waiting until one that is stopping has let go of the directory.
 */
final class RunningServer {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private RunningServer() {}

  /**
   * Whether a server process holds the directory's lock: it runs, or starts, or stops. Asking creates
   * nothing: with no lock file no server ever ran there, and {@code cutover server status} of a folder
   * that is not Cutover's must leave it as it was.
   */
  static boolean lockHeld(ServerDirectory dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir.serverLock(), StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return true;
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /**
   * Waits until a server that is stopping has let go of the directory, and returns true; or returns false as soon as
   * the stop is called off (its mark withdrawn while the server still holds the directory: a client joined just as
   * it was about to stop for want of clients), and the server serves on.
   */
  static boolean awaitLockFree(ServerDirectory dir) throws IOException {
    Instant deadline = Instant.now().plus(ServerLife.STOP_GRACE).plusSeconds(5);
    while (lockHeld(dir)) {
      if (dir.stoppingServer().isEmpty() && lockHeld(dir)) {
        return false;
      }
      if (Instant.now().isAfter(deadline)) {
        throw stillStopping(dir);
      }
      sleep(100);
    }
    return true;
  }

  /** Why a wait for a stopping server gave up: it has outlived its grace, in the words of its log. */
  static EmbeddedEngineException stillStopping(ServerDirectory dir) {
    return new EmbeddedEngineException("The server on " + dir.root() + " has been stopping for more than "
        + ServerLife.STOP_GRACE.plusSeconds(5).toSeconds() + " s. Its log " + dir.log() + " ends with: "
        + ServerLog.tail(dir, 8));
  }

  /**
   * Waits until the server that holds the directory has published its record and answers /ping:
   * the one this process started as {@code process}, or, when that is null, whichever runs there.
   *
   * @throws StoppingException when the server being joined begins to stop
   * @throws PortTakenException when the server started here could not bind its port
   */
  static ServerRecord awaitRunning(ServerDirectory dir, Process process) {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (process == null && dir.stoppingServer().isPresent()) {
        throw new StoppingException();
      }
      if (process != null && !process.isAlive()) {
        String log = ServerLog.tail(dir, 12);
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
          && ping(record.get())) {
        return record.get();
      }
      sleep(100);
    }
    if (process != null) {
      process.destroyForcibly();
    }
    throw new EmbeddedEngineException("The embedded ClickHouse on " + dir.root() + " did not answer within "
        + START_TIMEOUT.toSeconds() + " s. Its log " + dir.log() + " ends with: " + ServerLog.tail(dir, 12));
  }

  /**
   * Whether the server answers {@code /ping} with 200. A plain {@code HttpURLConnection}: the JDK's HttpClient
   * sets up TLS when it is built, a third of a second of every command's start for a request over plain HTTP.
   */
  private static boolean ping(ServerRecord record) {
    HttpURLConnection connection = null;
    try {
      connection = (HttpURLConnection) URI.create("http://" + record.host() + ":" + record.port() + "/ping").toURL()
          .openConnection(Proxy.NO_PROXY); // the server is this machine's, whatever proxy the JVM was given
      connection.setConnectTimeout(1_000);
      connection.setReadTimeout(2_000);
      return connection.getResponseCode() == 200; // the connection is closed below, its body unread
    } catch (IOException e) {
      return false;
    } finally {
      if (connection != null) {
        connection.disconnect();
      }
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

  /** The server this process was joining began to stop. */
  static final class StoppingException extends RuntimeException {}

  /** The chosen port was taken before the server could bind it; try another. */
  static final class PortTakenException extends RuntimeException {
    PortTakenException(String message) {
      super(message);
    }
  }
}
