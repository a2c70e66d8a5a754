package dev.cutover.engine.repair;

import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.Repair.Operation;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.StateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Whether the process that holds a repair is still there. On this host its process id answers;
 * in this process, the operations under way are known by name; a backfill's run record carries a
 * heartbeat; a process on another host is given a patience after which its hold is taken as gone.
 */
final class Holders {

  /** How long an operation of a process on another host may last before it is taken to be gone. */
  static final Duration OTHER_HOST_PATIENCE = Duration.ofMinutes(15);
  /** How long a backfill may take to record its run once it holds the repair. */
  static final Duration RUN_START_PATIENCE = Duration.ofMinutes(2);

  /** Operations under way in this process, by action, start and run: an entry missing here is one that ended. */
  private static final Set<String> IN_FLIGHT = ConcurrentHashMap.newKeySet();

  private final StateStore runs;

  Holders(StateStore runs) {
    this.runs = runs;
  }

  boolean gone(Operation op) {
    Instant now = Instant.now();
    if (!op.runId().isEmpty()) {
      Optional<RunRecord> run = runs.run(op.runId());
      if (run.isPresent()) {
        return !run.get().state().active() || run.get().interrupted(now, RunRecord.STALE_AFTER);
      }
      // The run is not recorded yet: its process is starting it, or died before it could.
      return Operator.gone(op.holder(), op.since(), RUN_START_PATIENCE, now) || here(op) && !IN_FLIGHT.contains(key(op));
    }
    if (here(op)) {
      return !IN_FLIGHT.contains(key(op));
    }
    return Operator.gone(op.holder(), op.since(), OTHER_HOST_PATIENCE, now);
  }

  private static boolean here(Operation op) {
    return op.holder().equals(Operator.actor());
  }

  private static String key(Operation op) {
    return op.action() + "@" + op.since().toEpochMilli() + "/" + op.runId();
  }

  /**
   * Writes the record that takes the repair for {@code op}, with the operation known to be under way
   * in this process before the record exists: another engine of this process that reads it at once
   * must not take it for the record of a process that is gone.
   */
  static Repair holding(Operation op, Supplier<Repair> write) {
    IN_FLIGHT.add(key(op));
    try {
      return write.get();
    } catch (RuntimeException e) {
      IN_FLIGHT.remove(key(op));
      throw e;
    }
  }

  static void ended(Repair held) {
    held.operation().ifPresent(op -> IN_FLIGHT.remove(key(op)));
  }

  static void ended(String runId) {
    IN_FLIGHT.removeIf(k -> k.endsWith("/" + runId) && !runId.isEmpty());
  }
}
