package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What runs on a data directory, as {@code cutover server status} and the console's connection
 * watch see it from outside: the server that serves there, and the processes that use it.
 */
final class ServerStatus {

  private ServerStatus() {}

  /**
   * The process of the server that serves on {@code dir} now: its lock held and its record
   * published. Empty while none runs, and while one starts or stops (it withdraws its record first).
   */
  static OptionalLong serving(ServerDirectory dir) {
    try {
      if (!RunningServer.lockHeld(dir)) {
        return OptionalLong.empty();
      }
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    return dir.readRecord().map(r -> OptionalLong.of(r.pid())).orElse(OptionalLong.empty());
  }

  /** Where the server of {@code dir} serves and since when, if one runs. */
  static Optional<String> describeRunning(ServerDirectory dir) {
    try {
      if (!RunningServer.lockHeld(dir)) {
        return Optional.empty();
      }
    } catch (IOException e) {
      throw new EmbeddedEngineException("Cannot read " + dir.serverLock() + " (" + e.getMessage() + ").", e);
    }
    return Optional.of(dir.readRecord().map(r -> "The server serves at 127.0.0.1:" + r.port() + " (process " + r.pid()
        + ", since " + r.started() + ", data " + dir.root() + ").").orElse("A server holds " + dir.root() + " but "
            + "is starting or stopping."));
  }

  /** The processes that hold a live lease on the server of {@code dir}, as {@code process N (what)}. */
  static List<String> clients(ServerDirectory dir) {
    Instant now = Instant.now();
    return ServerLease.read(dir).stream().filter(h -> h.live(now)).map(Object::toString).toList();
  }
}
