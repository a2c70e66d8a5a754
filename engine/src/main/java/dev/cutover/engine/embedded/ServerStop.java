package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.ledger.Operator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stopping the server of a data directory gracefully ({@code cutover server stop}), and what is known
 * of why a server stops or stopped: the reason it gave in its log, its crash file, or that it ended
 * without a word. The server itself does the stopping ({@link ServerLife}); this side writes the
 * request and waits for the process to end.
 */
final class ServerStop {

  private ServerStop() {}

  /**
   * Leaves the server a request to stop, with {@code reason} inside; it stops at its next look. A request
   * without a reason names the process that made it, so that the log still says who stopped the server.
   */
  static void writeRequest(ServerDirectory dir, String reason) {
    String given = reason == null || reason.isBlank() ? "by process " + ProcessHandle.current().pid() + " ("
        + Operator.command() + "), " + ServerLife.NO_REASON : reason.strip();
    try {
      PrivateFiles.write(dir.stopRequest(), given);
    } catch (IOException e) {
      throw new EmbeddedEngineException("Cannot ask the server to stop: " + dir.stopRequest() + " cannot be written ("
          + e.getMessage() + ").", e);
    }
  }

  /** Asks the server on {@code dir} whose process is {@code pid} to stop, and waits for it. */
  static boolean request(ServerDirectory dir, long pid, String reason) {
    writeRequest(dir, reason);
    return awaitExit(pid);
  }

  /** Waits for the process {@code pid} to end, at most the stop's grace and 5 s; true once it has ended. */
  private static boolean awaitExit(long pid) {
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty()) {
      return true;
    }
    try {
      process.get().onExit().get(ServerLife.STOP_GRACE.toSeconds() + 5, TimeUnit.SECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return !process.get().isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Stops the server that runs on {@code dir}, if one does, gracefully; returns where it served, or
   * empty when none ran. Either way no server process of {@code dir} runs once it returns: one already
   * on its way down (its last client gone, or asked by another process) has withdrawn its record but
   * still writes the directory as it closes its tables, and is waited for too.
   */
  static Optional<String> stopRunning(ServerDirectory dir, String reason) {
    try {
      if (!RunningServer.lockHeld(dir)) {
        return Optional.empty();
      }
    } catch (IOException e) {
      throw new EmbeddedEngineException("Cannot read " + dir.serverLock() + " (" + e.getMessage() + ").", e);
    }
    Optional<ServerRecord> record = dir.readRecord();
    if (record.isEmpty()) {
      OptionalLong stopping = dir.stoppingServer();
      if (stopping.isPresent() && !awaitExit(stopping.getAsLong())) {
        throw RunningServer.stillStopping(dir);
      }
      return Optional.empty();
    }
    if (!request(dir, record.get().pid(), reason)) {
      throw new EmbeddedEngineException("The server on " + dir.root() + " (process " + record.get().pid() + ") did not "
          + "stop within " + (ServerLife.STOP_GRACE.toSeconds() + 5) + " s. Its log " + dir.log() + " ends with: "
          + ServerLog.tail(dir, 8));
    }
    return Optional.of("127.0.0.1:" + record.get().port() + " (process " + record.get().pid() + ")");
  }

  /**
   * Why the server process {@code pid} ended, in words from its own log: the reason it gave when it
   * stopped, its crash file, or that it ended without a word (killed). Empty while it runs.
   */
  static Optional<String> whyStopped(ServerDirectory dir, long pid) {
    if (alive(pid)) {
      return Optional.empty();
    }
    Path crash = dir.crashes().resolve("hs_err_pid" + pid + ".log");
    if (Files.isRegularFile(crash)) {
      return Optional.of("it crashed; its crash file is " + crash);
    }
    try {
      Optional<String> reason = ServerLog.stoppingReason(dir, pid);
      if (reason.isPresent()) {
        return Optional.of("it stopped (" + reason.get() + ")");
      }
    } catch (IOException e) {
      return Optional.of("it ended, and its log " + dir.log() + " cannot be read (" + e.getMessage() + ")");
    }
    return Optional.of("its process " + pid + " ended without a word in " + dir.log() + ": it was killed");
  }

  /**
   * Why the server process {@code pid} is stopping while it still runs, in the words of its log.
   * Empty while it serves and once it has ended; the log is read only once the server has marked
   * itself as stopping, so that asking is cheap while it serves.
   */
  static Optional<String> whyStopping(ServerDirectory dir, long pid) {
    if (dir.stoppingServer().orElse(-1) != pid) {
      return Optional.empty();
    }
    try {
      return Optional.of(ServerLog.stoppingReason(dir, pid).orElse("no reason in its log yet"));
    } catch (IOException e) {
      return Optional.of("its log " + dir.log() + " cannot be read (" + e.getMessage() + ")");
    }
  }

  /**
   * Whether the server process {@code pid} stops, or stopped, because someone asked it to ({@code
   * cutover server stop}), rather than by its idle period, a signal or a crash.
   */
  static boolean requested(ServerDirectory dir, long pid) {
    try {
      return (!alive(pid) || dir.stoppingServer().orElse(-1) == pid)
          && ServerLog.stoppingReason(dir, pid).map(r -> r.startsWith(ServerLife.ASKED)).orElse(false);
    } catch (IOException e) {
      return false;
    }
  }

  /** The reason the server process {@code pid} gave in its log as it began to stop, if it did. */
  static Optional<String> reason(ServerDirectory dir, long pid) {
    try {
      return ServerLog.stoppingReason(dir, pid);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
