package dev.cutover.engine;

import dev.cutover.engine.api.InvalidInputException;
import java.util.Optional;

/**
 * An operator's written reason for a step the audit trail records: one line of at most {@link #MAX} characters,
 * not blank. It is read by people later, beside who gave it and when.
 */
final class Reasons {

  static final int MAX = 500;

  private Reasons() {}

  /** The reason stripped; refused, naming {@code field}, when blank ({@code whyNeeded} says why one is needed), too long, or several lines. */
  /** A rollback's reason, when one is given: checked as any reason, refused when blank. */
  static Optional<String> rollback(Optional<String> reason) {
    return reason.map(r -> check("reason", r, "A reason for the rollback was asked for but is blank; write why "
        + "consumers go back to v1, or leave the reason out."));
  }

  static String check(String field, String reason, String whyNeeded) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidInputException(field, whyNeeded);
    }
    String r = reason.strip();
    if (r.length() > MAX) {
      throw new InvalidInputException(field, "The reason is " + r.length() + " characters long; keep it to one line of at "
          + "most " + MAX + " and put longer notes in your runbook.");
    }
    if (r.contains("\n") || r.contains("\r")) {
      throw new InvalidInputException(field, "The reason spans several lines; give it as one line (the audit trail "
          + "keeps one line per step).");
    }
    return r;
  }
}
