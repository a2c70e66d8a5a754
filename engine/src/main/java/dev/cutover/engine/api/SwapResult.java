package dev.cutover.engine.api;

import java.time.Duration;
import java.time.Instant;

/**
 * What a cutover or rollback did: the statement, which version consumers read before and after,
 * and the check that the view now returns that version's rows, hour by hour, over the window the
 * gate judged.
 *
 * @param verifiedWindow the hours compared after the swap
 * @param check what the check after the swap found; {@link #verification()} says it in a sentence
 */
public record SwapResult(String action, String statement, Gate.Version before, Gate.Version after, Instant at,
    Duration took, HourRange verifiedWindow, Check check, String verification) {

  /** What the check after a swap found. */
  public enum Check {
    /** The view returned exactly the rows of the version it now reads, in every hour compared. */
    VERIFIED,
    /** The view returned other rows, or reads another version than the swap made: investigate before anything else. */
    DIFFERS,
    /**
     * The swap was made, and the check could not compare the rows: the server stopped answering after the
     * exchange, or the rows could not be read. The sentence says which version consumers read, and how that is
     * known (the view's definition, or the server's acknowledgement of the exchange), or where to find out.
     */
    INCOMPLETE
  }

  /** Whether the view returned exactly the expected version's rows in every hour of the window. */
  public boolean verified() {
    return check == Check.VERIFIED;
  }

  /** The same swap, its check said in {@code sentence}. */
  public SwapResult withVerification(String sentence) {
    return new SwapResult(action, statement, before, after, at, took, verifiedWindow, check, sentence);
  }
}
