package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The conditions a cutover or a rollback must meet, each with what was found when the gate was
 * judged; the buttons and the commands share it. The gate is judged from the data as it is when it
 * is asked, never from a stored report's age alone, and once more inside the step itself.
 *
 * @param step {@code cutover} or {@code rollback}
 * @param judged the hours whose data the gate checked, when it got that far
 */
public record Gate(String step, List<Condition> conditions, Version current, Optional<HourRange> judged) {

  public static final String CUTOVER = "cutover";
  public static final String ROLLBACK = "rollback";

  public Gate {
    conditions = List.copyOf(conditions);
  }

  /** Which version the consumer view reads. */
  public enum Version {
    V1,
    V2,
    UNKNOWN
  }

  /** One condition: met or not, with what was found. */
  public record Condition(String name, boolean met, String detail) {}

  /** The only condition of a gate once v1 is dropped: it is unmet, and nothing can be switched any more. */
  public static final String V1_KEPT = "v1 kept";

  /** The cutover gate's condition that v1 holds no hour older than the repair, which consumers would lose. */
  public static final String OLDER_HOURS = "nothing older in v1";

  /** Whether v1 was dropped after the cutover: the procedure is over. */
  public boolean v1Dropped() {
    return conditions.stream().anyMatch(c -> c.name().equals(V1_KEPT) && !c.met());
  }

  public boolean open() {
    return !conditions.isEmpty() && conditions.stream().allMatch(Condition::met);
  }

  public List<Condition> unmet() {
    return conditions.stream().filter(c -> !c.met()).toList();
  }

  /** The sentence that refuses the step: each unmet condition with what was found. */
  public String refusal() {
    return "The " + step + " is refused: " + unmet().stream().map(c -> c.name() + " (" + c.detail() + ")")
        .collect(Collectors.joining("; ")) + ". Nothing was changed.";
  }
}
