package dev.cutover.engine.api;

/**
 * A table that still uses v1 after the cutover and breaks when v1 is dropped: a view that reads it,
 * or a materialized view that reads what is inserted into it or writes into it.
 *
 * @param name {@code db.table}, as the operator acknowledges it
 * @param kind what it is: "view", "materialized view", …
 */
public record V1Reader(String name, String kind) {
  @Override
  public String toString() {
    return name + " (" + kind + ")";
  }
}
