package dev.cutover.engine;

import dev.cutover.engine.api.AuditEntry;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.TableSpec;
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

  /** The state records of the target's repairs, newest first. */
  public List<Repair> history(TableSpec spec, int limit) {
    return repairs(spec).history(limit);
  }

  /** Where the repair stands, with the observed live writer, the verdict and the next step. */
  public RepairStatus status(TableSpec spec) {
    return new Status(ground.sql(), ground.store(), ground.reports(), spec).read();
  }

  /** Gives up the repair, with a reason; v2 stays, and the next backfill starts a new repair. */
  public Repair abandon(TableSpec spec, String confirmation, String reason) {
    if (!spec.targetTable().name().equals(confirmation)) {
      throw new InvalidInputException("confirm", "To abandon the repair, confirm with the target's name, "
          + spec.targetTable() + (confirmation == null || confirmation.isBlank() ? "" : " (you typed '" + confirmation
              + "')") + ".");
    }
    ground.store().ensureSchema();
    Repair abandoned = repairs(spec).abandon(reason);
    ground.store().audit(TableNames.target(spec), "abandon", "abandoned repair " + abandoned.id() + " (B = "
        + abandoned.boundary().map(Object::toString).orElse("none") + "): " + reason.strip());
    return abandoned;
  }

  /** The newest entries of the audit trail about {@code target} ({@code database.table}), or of every target when null. */
  public List<AuditEntry> audit(String target, int limit) {
    return ground.store().auditTrail(target, limit);
  }

  private Repairs repairs(TableSpec spec) {
    return new Repairs(ground.sql(), ground.store(), spec);
  }
}
