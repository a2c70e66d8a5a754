package dev.cutover.engine.api;

/**
 * The operator's word that a dependent of the target or of v1 (a materialized view, an alert) may see
 * the replayed history, and why that is safe. The preflight lets the backfill start once every
 * dependent it finds is acknowledged; the backfill writes each acknowledgement, with who and when, to
 * the audit trail before it writes any hour.
 *
 * <pre>{@code
 * new AcknowledgedDependent("trading.pnl_alerts_mv", "alerts for replayed hours are suppressed downstream");
 * }</pre>
 *
 * @param name the dependent as {@code db.table}, as the preflight names it
 * @param reason why replaying history through it is safe: one line of at most {@value #MAX_REASON}
 *     characters, kept stripped
 * @throws InvalidInputException when the name is blank, or the reason is blank, longer than
 *     {@value #MAX_REASON} characters or on more than one line
 */
public record AcknowledgedDependent(String name, String reason) {

  /** The longest reason kept: a sentence or two for the audit trail, not a runbook. */
  public static final int MAX_REASON = 500;

  public AcknowledgedDependent {
    name = name == null ? "" : name.strip();
    if (name.isEmpty()) {
      throw new InvalidInputException("acknowledge", "An acknowledgement names the dependent it accepts, as "
          + "database.table, the way the preflight lists it.");
    }
    reason = reason == null ? "" : reason.strip();
    if (reason.isEmpty()) {
      throw new InvalidInputException("reason", "Acknowledging " + name + " needs a written reason: why replaying "
          + "history through it is safe, such as 'its alerts for replayed hours are suppressed downstream'. It goes "
          + "to the audit trail with your name and the time when the backfill starts.");
    }
    if (reason.length() > MAX_REASON) {
      throw new InvalidInputException("reason", "The reason for acknowledging " + name + " has " + reason.length()
          + " characters; keep it to " + MAX_REASON + ": why replaying history through it is safe, in a sentence or "
          + "two.");
    }
    if (reason.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidInputException("reason", "The reason for acknowledging " + name + " has a line break or "
          + "another control character; give it on one line.");
    }
  }
}
