package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * A plan or backfill refused because it asks for a boundary other than the one its repair pinned
 * when the first backfill started: the corrected live writer owns every hour from the pinned B on.
 *
 * <pre>{@code
 * catch (BoundaryPinnedException p) {
 *   plan = engine.plan(spec, from, to, Optional.of(p.pinned()));
 * }
 * }</pre>
 */
public final class BoundaryPinnedException extends StepRefusedException {

  private final String repairId;
  private final HourPartition pinned;
  private final HourPartition asked;

  public BoundaryPinnedException(String step, String repairId, HourPartition pinned, HourPartition asked,
      String situation, String whatToDo) {
    super(step, situation, whatToDo, List.of("boundary: pinned at " + pinned + ", asked " + asked), Optional.empty(),
        List.of("boundary"));
    this.repairId = repairId;
    this.pinned = pinned;
    this.asked = asked;
  }

  public String repairId() {
    return repairId;
  }

  /** B as the repair pinned it. */
  public HourPartition pinned() {
    return pinned;
  }

  /** The boundary the plan asked for. */
  public HourPartition asked() {
    return asked;
  }
}
