package dev.cutover.engine.api;

import java.util.List;

/** The result of every preflight check: each passes, warns or fails with a sentence and a fix. */
public record PreflightReport(List<Check> checks) {

  public PreflightReport {
    checks = List.copyOf(checks);
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
