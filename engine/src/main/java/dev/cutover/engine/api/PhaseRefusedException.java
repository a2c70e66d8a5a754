package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * A step refused because the repair is in a phase that does not allow it: a backfill or an abandon
 * while consumers read v2, a rollback with no cutover to roll back, a drop of v1 before the cutover
 * or after v1 is gone, any step when no repair is under way.
 *
 * <pre>{@code
 * catch (PhaseRefusedException p) {
 *   out.println(p.step() + " needs " + p.needs() + "; the repair is " + p.phase().map(RepairPhase::words).orElse("not under way"));
 * }
 * }</pre>
 */
public final class PhaseRefusedException extends StepRefusedException {

  private final Optional<RepairPhase> phase;
  private final String needs;

  /**
   * @param phase the phase the repair is in, when a repair is under way and was read
   * @param needs what the step needs, in words: "consumers on v1", "a repair under way", …
   */
  public PhaseRefusedException(String step, Optional<RepairPhase> phase, String needs, String situation,
      String whatToDo) {
    super(step, situation, whatToDo, List.of(step + " needs " + needs), Optional.empty(), List.of());
    this.phase = phase;
    this.needs = needs;
  }

  public Optional<RepairPhase> phase() {
    return phase;
  }

  public String needs() {
    return needs;
  }
}
