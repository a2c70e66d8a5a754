package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that joins a server at the moment the server stops for want of clients: it took its lease after the
 * server read the leases and looked for the stopping mark before the server wrote it, so it joins, and the stop
 * would kill its first query. The server reads the leases again once its mark is written and calls the stop off; a
 * process that saw the mark and waits for the stop joins instead of waiting forever.
 */
class StopCalledOffTest {

  @TempDir Path root;

  @Test
  void anIdleStopFindsTheLeaseTakenMeanwhileAndCallsItselfOff() throws Exception {
    ServerDirectory dir = new ServerDirectory(root);
    ServerLife life = new ServerLife(dir, 0, false, Duration.ZERO);
    try (ServerLease joined = ServerLease.take(dir, "a command joining")) {
      assertFalse(life.stopIdle("its last client left"), "a client joined: the server serves on");
      assertFalse(Files.exists(dir.stopping()), "the stopping mark is withdrawn, so nobody waits for the stop");
    }
  }

  @Test
  void aProcessWaitingForAStopThatIsCalledOffJoinsAndOneWaitingForARealStopStartsTheNext() throws Exception {
    ServerDirectory dir = new ServerDirectory(root);
    Files.createDirectories(root);
    try (FileChannel server = FileChannel.open(dir.serverLock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock held = server.lock(); // the server's hold on its directory
      Files.writeString(dir.stopping(), Long.toString(ProcessHandle.current().pid()));
      CompletableFuture<Boolean> calledOff = CompletableFuture.supplyAsync(() -> await(dir));
      Thread.sleep(300);
      assertFalse(calledOff.isDone(), "it waits while the server is stopping");
      Files.delete(dir.stopping()); // the server called its stop off
      assertFalse(calledOff.get(5, TimeUnit.SECONDS), "the stop was called off: join the server that serves on");

      Files.writeString(dir.stopping(), Long.toString(ProcessHandle.current().pid()));
      CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> await(dir));
      Thread.sleep(300);
      assertFalse(stopped.isDone());
      held.release(); // the server stopped and let go of the directory
      assertTrue(stopped.get(5, TimeUnit.SECONDS), "the stop happened: start the next server");
    }
  }

  private static boolean await(ServerDirectory dir) {
    try {
      return RunningServer.awaitLockFree(dir);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
