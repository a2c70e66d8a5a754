package dev.cutover.engine.api;

import java.util.List;
import java.util.Optional;

/**
 * The result of every preflight check: each passes, warns or fails with a sentence and a fix; and
 * the dependents (materialized views and other readers) of the target and of v1 the side-effects
 * check found, which the operator acknowledges by name with a reason.
 */
public record PreflightReport(List<Check> checks, List<Dependent> dependents) {

  public PreflightReport {
    checks = List.copyOf(checks);
    dependents = List.copyOf(dependents);
  }

  public PreflightReport(List<Check> checks) {
    this(checks, List.of());
  }

  /**
   * A table that reads the target or v1: its name as {@code db.table}, the table it reads, and, once the
   * operator acknowledged it, why replaying history through it is safe.
   */
  public record Dependent(String name, String reads, Optional<String> reason) {

    /** Whether the operator acknowledged it, with a reason. */
    public boolean acknowledged() {
      return reason.isPresent();
    }

    /** The operator's acknowledgement of it; empty when it is not acknowledged. */
    public Optional<AcknowledgedDependent> acknowledgement() {
      return reason.map(r -> new AcknowledgedDependent(name, r));
    }

    /** The dependents the operator acknowledged, as the acknowledgements to give the next preflight. */
    public static List<AcknowledgedDependent> acknowledgements(List<Dependent> dependents) {
      return dependents.stream().flatMap(d -> d.acknowledgement().stream()).toList();
    }
  }

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
