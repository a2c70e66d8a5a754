package dev.cutover.engine.ledger;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The backfill runs executing in this process. A run whose record names this process but which is
 * not here has ended, even if its last state could not be written (the server was down then).
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
}
