package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.DiskSpace;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.sql.Timeouts;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Room on the server's disk for the run's next batch: the reserve Cutover keeps ({@link DiskSpace#reserve()})
 * plus what a batch takes at its peak (its rows in staging and the same parts in v2, estimated from v1's bytes
 * per hour). While the disk holds less, the run pauses before its next batch, its record says why, and it
 * resumes by itself once space returns; a batch the server refused for space ({@code NOT_ENOUGH_SPACE}) waits
 * the same way and is tried again without spending an attempt. So a disk that fills during a run pauses it
 * instead of failing it, and the server is never asked to write a table's definition on a full disk.
 *
 * <p>Free space is read with the bound of a probe ({@link Timeouts#PROBE}), not a statement's: the dispatcher
 * reads it before each batch, and a server that stopped answering must not hold the dispatcher for the whole
 * silence bound (it did: a frozen server then ended the run one silence bound late). A read that fails starts
 * the batch, which finds the outage out and reports it, unless a batch in flight found it meanwhile.
 */
final class DiskHeadroom {

  /** How often a paused run looks at the disk again. */
  static final Duration POLL = Duration.ofSeconds(2);
  /** How often a run that waits for room says so again. */
  static final Duration SAY_AGAIN = Duration.ofSeconds(30);

  private final Sql sql;
  /** The same statements, bounded as a probe: for the reads of free space. */
  private final Sql probing;
  private final TableSpec spec;
  private final long batchBytes;
  private final StateRecorder recorder;
  private final BooleanSupplier operatorPaused;
  private volatile boolean waiting;

  DiskHeadroom(Sql sql, TableSpec spec, long batchBytes, StateRecorder recorder, BooleanSupplier operatorPaused) {
    this.sql = sql;
    this.probing = sql.silentAtMost(Timeouts.PROBE);
    this.spec = spec;
    this.batchBytes = batchBytes;
    this.recorder = recorder;
    this.operatorPaused = operatorPaused;
  }

  /** What one batch of {@code batchHours} takes at its peak: twice v1's bytes for that many hours of {@code range}. */
  static long batchBytes(Sql sql, TableSpec spec, HourRange range, int batchHours) {
    try {
      long bytes = sql.queryLong("measure " + spec.liveTable(), "SELECT sum(bytes_on_disk) FROM system.parts WHERE "
          + "active AND database = ? AND table = ? AND toUInt64OrZero(partition_id) >= ? AND toUInt64OrZero(partition_id) "
          + "< ?", spec.database().name(), spec.liveTable().name(), range.from().epochSecond(), range.to().epochSecond());
      return 2 * bytes / Math.max(1, range.hours()) * batchHours;
    } catch (QueryFailedException e) {
      return 0; // not measurable: the reserve alone stands
    }
  }

  /** Empty while the disk holds the reserve and a batch; else the sentence of why the run waits. */
  Optional<String> shortOfSpace() {
    long reserve = DiskSpace.reserve();
    long free;
    try {
      free = probing.disk().freeFor(spec.database(), spec.targetTable());
    } catch (QueryFailedException e) {
      // A server that does not say: the batch answers for itself, and one that does not answer is found out by it
      // (and reported) as any outage is.
      return Optional.empty();
    }
    if (free >= reserve + batchBytes) {
      return Optional.empty();
    }
    return Optional.of("the server's disk has " + DiskSpace.size(free) + " free, less than the reserve of "
        + DiskSpace.size(reserve) + " plus about " + DiskSpace.size(batchBytes) + " for the next batch; the run waits "
        + "and goes on by itself once that much is free (free space on the disk, or cancel the run and resume it "
        + "later)");
  }

  /**
   * Waits while the disk is short, with the run's record paused and saying why, until there is room or the run
   * stops; true when there is room.
   */
  boolean awaitRoom(BooleanSupplier stopping, Consumer<String> report) throws InterruptedException {
    Optional<String> why = shortOfSpace();
    if (why.isEmpty()) {
      return true;
    }
    synchronized (this) {
      if (!waiting && !operatorPaused.getAsBoolean()) {
        waiting = true;
        record(RunState.PAUSED, "paused: " + why.get());
      }
    }
    long said = 0;
    while (why.isPresent()) {
      if (stopping.getAsBoolean()) {
        return false;
      }
      if (System.nanoTime() - said >= SAY_AGAIN.toNanos() || said == 0) {
        report.accept(why.get());
        said = System.nanoTime();
      }
      Thread.sleep(POLL);
      why = shortOfSpace();
    }
    synchronized (this) {
      if (waiting && !operatorPaused.getAsBoolean()) {
        // The record must say the run goes on before it writes again: tried until the server takes it.
        for (int tries = 1; !record(RunState.RUNNING, "resumed: the server's disk has room again"); tries++) {
          if (stopping.getAsBoolean() || tries >= 30) {
            break;
          }
          Thread.sleep(POLL);
        }
      }
      waiting = false;
    }
    report.accept("");
    return true;
  }

  /** The run's record, when the disk lets it be written: with no room at all, the report alone says why. */
  private boolean record(RunState state, String message) {
    try {
      recorder.change(state, message);
      return true;
    } catch (RuntimeException e) {
      return false; // written once the disk has room again
    }
  }
}
