package dev.cutover.engine.ledger;

import dev.cutover.engine.api.RunRecord;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The backfill runs executing in this process. A run whose record names this process but which is
 * not here has ended, even if its last state could not be written (the server was down then).
 *
 * <p>The set belongs to the process, not to one store or engine: the console opens a new engine
 * when it reconnects, and a run started through the old one still executes here. Only the engine
 * reads it, when it reads a run's record ({@link #processGone}); the record itself stays a value.
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
   * Whether the process that runs {@code run} is gone: it is this process and the run no longer
   * executes here, or it ran on this host under a process id that no longer exists. A process on
   * another host is judged by its heartbeat alone.
   */
  static boolean processGone(RunRecord run) {
    if (!run.host().equals(Operator.host())) {
      return false;
    }
    if (run.pid() == ProcessHandle.current().pid()) {
      return !running(run.id());
    }
    return run.pid() > 0 && ProcessHandle.of(run.pid()).map(p -> !p.isAlive()).orElse(true);
  }
}
