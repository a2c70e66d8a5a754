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

  /**
   * One condition: met or not, with what was found. An unmet condition is {@code pending} when the procedure has
   * not got there yet and its next step (or time) meets it (no verdict yet, v2 still catching up, a backfill
   * running), rather than violated by something found in the data or the setup that the operator must fix.
   */
  public record Condition(String name, boolean met, String detail, boolean pending) {
    public Condition {
      pending = pending && !met;
    }

    public Condition(String name, boolean met, String detail) {
      this(name, met, detail, false);
    }

    /** An unmet condition the procedure has not reached yet. */
    public static Condition notYet(String name, String detail) {
      return new Condition(name, false, detail, true);
    }

    /** Met, not yet met, or violated: what a checklist shows. */
    public Standing standing() {
      return met ? Standing.MET : pending ? Standing.NOT_YET : Standing.VIOLATED;
    }
  }

  /** Where a condition stands. */
  public enum Standing {
    MET,
    /** Unmet because the procedure has not reached it yet: neutral, not an alarm. */
    NOT_YET,
    /** Unmet because of something found that the operator must fix. */
    VIOLATED
  }

  /** The unmet conditions that are violated, not merely not reached yet. */
  public List<Condition> violated() {
    return conditions.stream().filter(c -> c.standing() == Standing.VIOLATED).toList();
  }

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
