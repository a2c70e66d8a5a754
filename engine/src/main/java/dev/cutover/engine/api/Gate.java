package dev.cutover.engine.api;

import java.util.List;

/** The conditions a cutover must meet, each with its state; the cutover button and command share it. */
public record Gate(List<Condition> conditions, Version current) {

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

  /** Whether v1 was dropped after the cutover: the procedure is over. */
  public boolean v1Dropped() {
    return conditions.stream().anyMatch(c -> c.name().equals(V1_KEPT) && !c.met());
  }

  public boolean open() {
    return conditions.stream().allMatch(Condition::met);
  }

  public List<Condition> unmet() {
    return conditions.stream().filter(c -> !c.met()).toList();
  }
}
