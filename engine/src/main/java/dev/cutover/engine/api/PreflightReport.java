package dev.cutover.engine.api;

import java.util.List;

/**
 * The result of every preflight check: each passes, warns or fails with a sentence and a fix; and
 * the dependents (materialized views and other readers) of the target and of v1 the side-effects
 * check found, which the operator acknowledges by name.
 */
public record PreflightReport(List<Check> checks, List<Dependent> dependents) {

  public PreflightReport {
    checks = List.copyOf(checks);
    dependents = List.copyOf(dependents);
  }

  public PreflightReport(List<Check> checks) {
    this(checks, List.of());
  }

  /** A table that reads the target or v1: its name as {@code db.table}, the table it reads, and whether it is acknowledged. */
  public record Dependent(String name, String reads, boolean acknowledged) {}

  public enum Status {
    PASS,
    WARN,
    FAIL
  }

  /** One check: its name, status, what was found, and what to do (empty when nothing is to be done). */
  public record Check(String name, Status status, String finding, String fix) {}

  /** Whether a backfill may start: no check failed. */
  public boolean passed() {
    return checks.stream().noneMatch(c -> c.status() == Status.FAIL);
  }

  public List<Check> failures() {
    return checks.stream().filter(c -> c.status() == Status.FAIL).toList();
  }
}
