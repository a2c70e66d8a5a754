package dev.cutover.engine;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.LiveDeployment;
import dev.cutover.engine.api.LiveWriterNote;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairSnapshot;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.repair.CorrectedView;
import dev.cutover.engine.repair.LiveWriterNotes;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.repair.Status;
import dev.cutover.engine.tables.TableNames;
import java.util.List;
import java.util.Optional;

/**
 * The repair of a target as a whole: where it stands, what it was, giving it up, and the audit trail
 * every step writes. The repair moves only by compare-and-set inside the steps; here it is read, or
 * abandoned by the operator's word.
 */
public final class RepairBook {

  private final Ground ground;

  RepairBook(Ground ground) {
    this.ground = ground;
  }

  /** The target's repair as its newest state record says, ended or not; reads one table list. */
  public Optional<Repair> current(TableSpec spec) {
    return repairs(spec).latest();
  }

  /**
   * The target's repair as its newest record says, once an operation whose process is gone (or whose run has ended)
   * is settled, as a status read settles it; reads the data only to settle.
   */
  public Optional<Repair> settled(TableSpec spec) {
    dev.cutover.engine.repair.Repairs r = repairs(spec);
    return r.settled().or(r::latest);
  }

  /** The state records of the target's repairs, newest first. */
  public List<Repair> history(TableSpec spec, int limit) {
    return repairs(spec).history(limit);
  }

  /** Where the repair stands, with the observed live writer, the verdict and the next step. */
  public RepairStatus status(TableSpec spec) {
    return new Status(ground.on(spec)).read();
  }

  /**
   * The repair's whole state in one read ({@link RepairSnapshot}): its status, its runs, which version consumers
   * read, an armed cutover, and the gate of the step they can take now. The gate reads the data, so when {@code previous} was read
   * from the same ground (the same repair record, verdict, runs, live edges and version read) its gate is kept,
   * with the time it was judged, for at most {@link #GATE_KEPT}; otherwise it is judged now (before the first
   * backfill that is quick: it says there is no repair to cut over). Reads only, except settling an operation whose
   * process is gone, as {@link #status} does.
   */
  /** How long a gate judged on the same ground is kept: a write into an old hour moves no edge, and is seen then. */
  static final java.time.Duration GATE_KEPT = java.time.Duration.ofMinutes(2);

  public RepairSnapshot snapshot(TableSpec spec, Optional<RepairSnapshot> previous) {
    // A run's end is two writes in order: its own record ends, then it lets go of the repair. Reading the runs first
    // and the repair after means a snapshot that shows a run ended never shows its repair still held by it (the
    // status settles a hold whose run has ended, as it settles one whose process is gone). A run the runs showed
    // active that the repair no longer holds ended in between: the runs are read once more.
    List<dev.cutover.engine.api.RunRecord> runs = ground.store().runs(TableNames.target(spec));
    RepairStatus status = status(spec);
    if (runs.stream().anyMatch(r -> r.state().active() && !heldBy(status, r))) {
      runs = ground.store().runs(TableNames.target(spec));
    }
    Gate.Version reads = new dev.cutover.engine.repair.ConsumerView(ground.sql(), spec).reads();
    Optional<dev.cutover.engine.api.Armed> armed = new dev.cutover.engine.cutover.Arming(ground.on(spec)).armed();
    RepairSnapshot read = new RepairSnapshot(status.at(), status, runs, reads, Optional.empty(), armed);
    Optional<RepairSnapshot.Judged> kept = previous.filter(p -> p.gate().isPresent() && p.sameGround(read))
        .flatMap(RepairSnapshot::gate).filter(g -> g.at().plus(GATE_KEPT).isAfter(read.at()));
    if (kept.isPresent()) {
      return new RepairSnapshot(read.at(), status, runs, reads, kept, armed);
    }
    var gates = new dev.cutover.engine.cutover.Gates(ground.on(spec));
    Gate gate = reads == Gate.Version.V2 ? gates.rollback() : gates.cutover();
    return new RepairSnapshot(read.at(), status, runs, reads, Optional.of(new RepairSnapshot.Judged(gate,
        java.time.Instant.now())), armed);
  }

  private static boolean heldBy(RepairStatus status, dev.cutover.engine.api.RunRecord run) {
    return status.repair().flatMap(Repair::operation).filter(op -> op.runId().equals(run.id())).isPresent();
  }

  /**
   * What deploying the corrected live writer as a materialized view would do now (or did): the view,
   * the future boundary B and the exact statement. Writes nothing.
   */
  public LiveDeployment liveDeployment(TableSpec spec) {
    return new CorrectedView(ground.on(spec)).plan();
  }

  /** What {@link #deployLive(TableSpec, HourPartition)} would do now, from {@code boundary}. Writes nothing. */
  public LiveDeployment liveDeployment(TableSpec spec, HourPartition boundary) {
    return new CorrectedView(ground.on(spec)).plan(java.util.Optional.of(boundary));
  }

  /**
   * Creates the spec's corrected view {@code TO} v2 from a future boundary B, and the repair that pins
   * B and records the view; the backfill then writes the hours before B once B has closed.
   */
  public LiveDeployment deployLive(TableSpec spec) {
    ground.store().ensureSchema();
    return new CorrectedView(ground.on(spec)).deploy();
  }

  /**
   * As {@link #deployLive(TableSpec)}, from a B chosen for several servers at once: refused when it is
   * earlier than this server's newest event and safety margin allow.
   */
  public LiveDeployment deployLive(TableSpec spec, HourPartition boundary) {
    ground.store().ensureSchema();
    return new CorrectedView(ground.on(spec)).deploy(java.util.Optional.of(boundary));
  }

  /**
   * Records in the audit trail that the open repair's corrected live writer, a job outside the database,
   * was deployed from B: the repair then waits for its first hour rather than asking for it. Declaring
   * the same writer again writes nothing. What the writer writes is still proven from the data.
   */
  public LiveWriterNote.Declared declareLiveWriter(TableSpec spec, String writer) {
    return repairs(spec).liveWriterNotes().declare(writer);
  }

  /**
   * Whether the open repair would take a declaration of a live writer deployed from {@code boundary}: it
   * pinned that B, and its writer is no corrected view, and consumers do not read v2 yet.
   */
  public boolean takesLiveWriterFrom(TableSpec spec, HourPartition boundary) {
    Optional<Repair> open = repairs(spec).open();
    return open.flatMap(Repair::boundary).filter(boundary::equals).isPresent()
        && LiveWriterNotes.refusal(open).isEmpty();
  }

  /** The newest declaration of the open repair's live writer; empty when there is none, or no open repair. */
  public Optional<LiveWriterNote> liveWriterNote(TableSpec spec) {
    return liveWriterNote(spec, repairs(spec).open());
  }

  /** The newest declaration of the live writer of {@code open}, a repair already read; empty when it has none. */
  public Optional<LiveWriterNote> liveWriterNote(TableSpec spec, Optional<Repair> open) {
    return open.filter(r -> !r.phase().ended()).flatMap(r -> repairs(spec).liveWriterNotes().newest(r));
  }

  /**
   * Gives up the repair, with a reason; v2 stays, and the next backfill starts a new repair. A
   * corrected view the repair deployed is dropped: nothing writes v2 for a repair that was given up.
   */
  public Repair abandon(TableSpec spec, String confirmation, String reason) {
    if (!spec.targetTable().name().equals(confirmation)) {
      throw new InvalidInputException("confirm", "To abandon the repair, confirm with the target's name, "
          + spec.targetTable() + (confirmation == null || confirmation.isBlank() ? "" : " (you typed '" + confirmation
              + "')") + ".");
    }
    ground.store().ensureSchema();
    Repair abandoned = repairs(spec).abandon(reason);
    new CorrectedView(ground.on(spec)).dropDeployed(abandoned, "the repair was abandoned");
    ground.store().audit(TableNames.target(spec), "abandon", "abandoned repair " + abandoned.id() + " (B = "
        + abandoned.boundary().map(Object::toString).orElse("none") + "): " + reason.strip());
    return abandoned;
  }

  /** The newest entries of the audit trail about {@code target} ({@code database.table}), or of every target when null. */
  public List<AuditEntry> audit(String target, int limit) {
    return ground.store().auditTrail(target, limit);
  }

  private Repairs repairs(TableSpec spec) {
    return new Repairs(ground.on(spec));
  }
}
