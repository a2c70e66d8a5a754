package dev.cutover.engine.ledger;

import dev.cutover.engine.api.RunRecord;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The backfill runs executing in this process. A run whose record names this process but which is
 * not here has ended, even if its last state could not be written (the server was down then).
 *
 * <p>The set belongs to the process, not to one store or engine: the console opens a new engine
 * when it reconnects, and a run started through the old one still executes here. Only the engine
 * reads it, when it reads a run's record ({@link #process}); the record itself stays a value.
 */
public final class LiveRuns {

  private static final Set<String> RUNNING = ConcurrentHashMap.newKeySet();

  private LiveRuns() {}

  public static void started(String runId) {
    RUNNING.add(runId);
  }

  public static void ended(String runId) {
    RUNNING.remove(runId);
  }

  public static boolean running(String runId) {
    return RUNNING.contains(runId);
  }

  /**
   * What this process can tell of the process that runs {@code run}: this process, which runs it or has ended it; a
   * process of this host, there or gone; or one of another host, which only its heartbeat tells of. A process id
   * of this host that now names a process started after the run's last heartbeat is another process's (the run's
   * process beat then, and an id names one living process at a time): the run's is gone. Where the start of that
   * process cannot be read, the heartbeat decides, as for another host.
   */
  static RunRecord.Process process(RunRecord run) {
    if (!run.host().equals(Operator.host())) {
      return RunRecord.Process.UNSEEN;
    }
    if (run.pid() == ProcessHandle.current().pid()) {
      return running(run.id()) ? RunRecord.Process.HERE : RunRecord.Process.GONE;
    }
    Optional<ProcessHandle> handle = run.pid() > 0 ? ProcessHandle.of(run.pid()) : Optional.empty();
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return RunRecord.Process.GONE;
    }
    return handle.get().info().startInstant().map(started -> started.isAfter(run.heartbeat())
        ? RunRecord.Process.GONE : RunRecord.Process.THERE).orElse(RunRecord.Process.UNSEEN);
  }
}
