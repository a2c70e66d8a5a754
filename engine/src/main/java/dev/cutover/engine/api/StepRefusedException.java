package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * A step of the procedure that the engine refuses in the state it found: a gate that is closed, a
 * repair another process is changing, a target another run is writing. The input was fine; the
 * world is not ready. The message says what blocks the step and what to do; {@link #unmet()} lists
 * each blocking condition, and {@link #holder()} names the process that holds the repair or the
 * target, when one does.
 *
 * <p>The kinds a caller may act on differently are subtypes, each with its fields:
 * {@link GateClosedException}, {@link HeldByAnotherProcessException} (try again later),
 * {@link BoundaryPinnedException} and {@link PhaseRefusedException}. A refusal of no such kind is
 * this class itself.
 *
 * <pre>{@code
 * try {
 *   engine.cutover(spec, "pnl");
 * } catch (HeldByAnotherProcessException held) {
 *   log.info("{} holds the repair since {}; later", held.actor(), held.since());
 * }
 * }</pre>
 */
public sealed class StepRefusedException extends CutoverException
    permits GateClosedException, HeldByAnotherProcessException, BoundaryPinnedException, PhaseRefusedException {

  private final String step;
  private final List<String> unmet;
  private final Optional<Repair.Actor> holder;
  private final String whatToDo;
  private final List<String> fields;

  public StepRefusedException(String step, String sentence, List<String> unmet, Optional<Repair.Actor> holder) {
    super(sentence, null);
    this.step = step;
    this.unmet = List.copyOf(unmet);
    this.holder = holder;
    this.whatToDo = "";
    this.fields = List.of();
  }

  public StepRefusedException(String step, String sentence) {
    this(step, sentence, List.of(), Optional.empty());
  }

  /**
   * A refusal whose message is {@code situation} followed by {@code whatToDo}.
   *
   * @param fields the inputs that can lift the refusal, by the engine's field names ({@code reason},
   *     {@code acknowledge}, …), so that a command line or a form can point at its own control
   */
  protected StepRefusedException(String step, String situation, String whatToDo, List<String> unmet,
      Optional<Repair.Actor> holder, List<String> fields) {
    super(whatToDo.isEmpty() ? situation : situation + " " + whatToDo, null);
    this.step = step;
    this.unmet = List.copyOf(unmet);
    this.holder = holder;
    this.whatToDo = whatToDo;
    this.fields = List.copyOf(fields);
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

  /** What to do about it, in the engine's words (the end of the message); empty when the message alone says it. */
  public String whatToDo() {
    return whatToDo;
  }

  /** The inputs that can lift the refusal, by field name; empty when only the world can. */
  public List<String> fields() {
    return fields;
  }

  @Override
  public boolean retryable() {
    return false;
  }
}
