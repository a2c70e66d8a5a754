package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * A step refused because a condition of its gate is not met: the cutover or rollback gate judged
 * from the data, the rollback handle right before the exchange, the retention horizon or the
 * readers of v1 before v1 is dropped. Nothing was changed.
 *
 * <pre>{@code
 * catch (GateClosedException closed) {
 *   closed.unmetConditions().forEach(c -> out.println(closed.gate() + ": " + c.name() + " — " + c.detail()));
 * }
 * }</pre>
 */
public final class GateClosedException extends StepRefusedException {

  private final List<Gate.Condition> unmetConditions;

  /**
   * @param gate the gate's name: {@code cutover}, {@code rollback}, {@code drop-v1}
   * @param unmetConditions the conditions not met, each with what was found; at least one
   */
  public GateClosedException(String gate, List<Gate.Condition> unmetConditions, String situation, String whatToDo,
      List<String> fields) {
    super(gate, situation, whatToDo, unmetConditions.stream().map(c -> c.name() + ": " + c.detail()).toList(),
        Optional.empty(), fields);
    if (unmetConditions.isEmpty() || unmetConditions.stream().anyMatch(Gate.Condition::met)) {
      throw new IllegalArgumentException("a closed gate names at least one unmet condition, and only unmet ones");
    }
    this.unmetConditions = List.copyOf(unmetConditions);
  }

  /** The refusal of a gate judged closed: its sentence, and what to do. */
  public static GateClosedException of(Gate gate) {
    return new GateClosedException(gate.step(), gate.unmet(), gate.refusal(), "Meet each condition named, then ask for "
        + "the " + gate.step() + " again; the gate is judged from the data each time.", List.of());
  }

  /** The gate refused: {@code cutover}, {@code rollback}, {@code drop-v1}. */
  public String gate() {
    return step();
  }

  public List<Gate.Condition> unmetConditions() {
    return unmetConditions;
  }
}
