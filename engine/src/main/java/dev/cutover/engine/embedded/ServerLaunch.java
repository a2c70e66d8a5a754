package dev.cutover.engine.embedded;

import dev.cutover.engine.api.EmbeddedEngineException;
import dev.cutover.engine.api.EngineProgress;
import dev.cutover.engine.ledger.Operator;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether this process joins the server that runs on a data directory or starts one there, decided
 * under {@code launch.lock} so that two processes never both start one: the directory claimed as
 * Cutover's (see {@link DirectoryClaim}), a lease, then the join, or a wait for a stopping server to
 * let go, the stale record of a dead one cleared, the directory made owner-only and its access
 * written, and a new server spawned.
 */
final class ServerLaunch {

  /**
   * One launch at a time in this JVM: the file lock on launch.lock only orders processes, and a
   * second thread of this one asking for it would be refused (OverlappingFileLockException), not made to wait.
   */
  private static final Object LAUNCHING = new Object();

  private ServerLaunch() {}

  /** See {@link EmbeddedServer#startOrJoin(Path, EngineLibrary, ServerAccess, Duration, EngineProgress)}. */
  static EmbeddedServer startOrJoin(Path dataDirectory, EngineLibrary library, ServerAccess access, Duration idle,
      EngineProgress progress) {
    // Before anything is created there or any permission changed: a folder that is not Cutover's is refused.
    DirectoryClaim.claim(dataDirectory, DirectoryClaim.Kind.DATA);
    ServerDirectory dir = new ServerDirectory(dataDirectory);
    synchronized (LAUNCHING) {
      try (FileChannel channel = PrivateFiles.open(dir.launchLock()); FileLock ignored = channel.lock()) {
        if (!RunningServer.lockHeld(dir)) {
          tighten(dir, progress); // before anything is written there; no server can start meanwhile
        }
        // The lease comes first: a server started here must not find itself without a client and idle away.
        ServerLease lease = ServerLease.take(dir, Operator.command());
        try {
          while (RunningServer.lockHeld(dir)) {
            try {
              if (dir.stoppingServer().isEmpty()) {
                progress.report("Joining the Cutover server running on " + dir.root(), -1, -1);
                ServerRecord running = RunningServer.awaitRunning(dir, null);
                return new EmbeddedServer(dir, running, false, OptionalLong.empty(), lease, null);
              }
            } catch (RunningServer.StoppingException e) {
              // it began to stop while this process waited to join: start the next one
            }
            progress.report("Waiting for the server on " + dir.root() + " to finish stopping", -1, -1);
            if (RunningServer.awaitLockFree(dir)) {
              break;
            }
            // The stop was called off, for this process's lease: the server serves on, and is joined.
          }
          OptionalLong stale = OptionalLong.empty();
          int preferredPort = 0;
          Optional<ServerRecord> leftover = dir.readRecord();
          if (leftover.isPresent()) {
            // The lock is free, so the process that wrote this record is gone: its record is stale.
            stale = OptionalLong.of(leftover.get().pid());
            // Clients of the dead server still hold its port: come back on it if it is free.
            preferredPort = leftover.get().port();
            dir.clearRecord();
            progress.report("Cleared a stale server record left by process " + leftover.get().pid(), -1, -1);
          } else {
            // A server that died under cutover server had its record withdrawn at once: its port is kept here.
            preferredPort = dir.readRestart().map(ServerRestart::port).orElse(0);
          }
          Path lib = library.resolve(progress);
          prepareAccess(dir, access);
          ServerSpawn.Started started = ServerSpawn.start(dir, lib, access.defaultRestricted(), idle, preferredPort,
              progress);
          return new EmbeddedServer(dir, started.record(), true, stale, lease, started.process());
        } catch (RuntimeException | IOException e) {
          lease.close();
          throw e;
        }
      } catch (IOException e) {
        throw new EmbeddedEngineException("Cannot lock " + dir.launchLock() + " (" + e.getMessage()
            + "). Check that the data directory is on a local disk you can write to.", e);
      }
    }
  }

  /**
   * Writes who may connect; an open server with no users of its own has a configuration without users,
   * unless its profile must read by plain pread.
   */
  private static void prepareAccess(ServerDirectory dir, ServerAccess access) throws IOException {
    if (access.configured() || dir.plainReads()) {
      dir.writeAccess(access);
    } else {
      Files.deleteIfExists(dir.users());
      dir.writeConfig(false);
    }
  }

  /**
   * Makes a data directory that an earlier version left readable by other local users owner-only,
   * before the server opens it, and says so once in the log and to whoever started the server. The
   * whole tree is walked once (about a second for 50,000 entries); after that, only its top.
   */
  private static void tighten(ServerDirectory dir, EngineProgress progress) {
    Instant began = Instant.now();
    int changed;
    try {
      boolean walked = Files.isRegularFile(dir.ownerOnly());
      changed = PrivateFiles.tighten(dir.root(), walked ? 1 : Integer.MAX_VALUE);
      if (!walked) {
        PrivateFiles.write(dir.ownerOnly(), "Everything under this folder was made readable by its owner only on "
            + Instant.now() + ", and is created so since.\n");
      }
    } catch (IOException e) {
      throw new EmbeddedEngineException("Cannot make the data directory " + dir.root() + " readable by its owner only ("
          + e + "). Check that everything under it belongs to you, or choose a data directory of your own.", e);
    }
    if (changed > 0) {
      String notice = "Made " + changed + " entries of " + dir.root() + " readable by their owner only (folders 0700, "
          + "files 0600): an earlier version of Cutover had left them open to other local users.";
      ServerLease.log(dir, notice + " (" + Duration.between(began, Instant.now()).toMillis() + " ms)");
      progress.report(notice, -1, -1);
    }
  }
}
