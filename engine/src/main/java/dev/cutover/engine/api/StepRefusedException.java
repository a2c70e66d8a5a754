package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * A step of the procedure that the engine refuses in the state it found: a gate that is closed, a
 * repair another process is changing, a target another run is writing. The input was fine; the
 * world is not ready. The message says what blocks the step and what to do; {@link #unmet()} lists
 * each blocking condition, and {@link #holder()} names the process that holds the repair or the
 * target, when one does.
 */
public final class StepRefusedException extends CutoverException {

  private final String step;
  private final List<String> unmet;
  private final Optional<Repair.Actor> holder;

  public StepRefusedException(String step, String sentence, List<String> unmet, Optional<Repair.Actor> holder) {
    super(sentence, null);
    this.step = step;
    this.unmet = List.copyOf(unmet);
    this.holder = holder;
  }

  public StepRefusedException(String step, String sentence) {
    this(step, sentence, List.of(), Optional.empty());
  }

  /** The step refused: backfill, cutover, rollback, drop-v1, abandon. */
  public String step() {
    return step;
  }

  /** The conditions that block it, each as a sentence. */
  public List<String> unmet() {
    return unmet;
  }

  public Optional<Repair.Actor> holder() {
    return holder;
  }

  @Override
  public boolean retryable() {
    return false;
  }
}
