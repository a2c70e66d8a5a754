package dev.cutover.engine.api;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A repair's whole state in one read, for every panel that shows it: where it stands ({@link #status()}:
 * phase, B, the live writer, the verdict, the next step), its runs, which version consumers read, and the gate
 * of the step consumers can take now with when it was judged. Everything that can disagree on a screen is read
 * here together, so the panels built from one snapshot cannot contradict each other; each says how old it is.
 *
 * @param at when this snapshot was read
 * @param runs the target's runs, newest first
 * @param reads which version the consumer view reads
 * @param gate the gate of the step consumers can take now (the rollback gate while they read v2), with when it was
 *     judged: judging it reads the data, so it is judged again only when something it depends on moved (the repair,
 *     the verdict, a run, the live edges, what consumers read), and is otherwise the one judged before, with its
 *     time; empty only in a snapshot made without one
 * @param armed the armed cutover, when one is armed
 */
public record RepairSnapshot(Instant at, RepairStatus status, List<RunRecord> runs, Gate.Version reads,
    Optional<Judged> gate, Optional<Armed> armed) {

  public RepairSnapshot {
    runs = List.copyOf(runs);
  }

  /** A snapshot read without an armed cutover. */
  public RepairSnapshot(Instant at, RepairStatus status, List<RunRecord> runs, Gate.Version reads,
      Optional<Judged> gate) {
    this(at, status, runs, reads, gate, Optional.empty());
  }

  /** A gate and when it was judged. */
  public record Judged(Gate gate, Instant at) {}

  /** The newest run, if any. */
  public Optional<RunRecord> latestRun() {
    return runs.stream().findFirst();
  }

  /**
   * Whether {@code other} was read from the same state as this one, as far as the gate depends on it: the same
   * repair record, verdict, runs and their states, live edges and version read. Then a gate judged for one holds
   * for the other.
   */
  public boolean sameGround(RepairSnapshot other) {
    // While one backfill run holds the repair, the cutover gate is closed whatever its hours do: its edges move
    // with every batch, and judging the data again each time would tell nothing new.
    Optional<String> holder = status.repair().flatMap(Repair::operation).map(Repair.Operation::runId)
        .filter(r -> !r.isEmpty());
    if (holder.isPresent() && holder.equals(other.status.repair().flatMap(Repair::operation)
        .map(Repair.Operation::runId)) && reads == other.reads) {
      return true;
    }
    return status.repair().map(Repair::version).equals(other.status.repair().map(Repair::version))
        && status.repair().map(Repair::phase).equals(other.status.repair().map(Repair::phase))
        && status.verdict().map(RepairStatus.Verdict::id).equals(other.status.verdict().map(RepairStatus.Verdict::id))
        && status.live().liveEdge().equals(other.status.live().liveEdge())
        && status.live().targetEdge().equals(other.status.live().targetEdge())
        && reads == other.reads
        && runs.stream().map(r -> r.id() + ":" + r.state()).toList()
            .equals(other.runs.stream().map(r -> r.id() + ":" + r.state()).toList());
  }
}
