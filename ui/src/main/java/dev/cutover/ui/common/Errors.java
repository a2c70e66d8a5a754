package dev.cutover.ui.common;

import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Redaction;

/** Turns a failure into the sentence a screen shows: the engine's own sentence, or a plain one for the unforeseen. */
public final class Errors {

  private Errors() {}

  /** @param doing what the console was doing, as a verb phrase: "plan the backfill" */
  public static String sentence(Throwable failure, String doing) {
    Throwable f = failure;
    while (!(f instanceof CutoverException) && f.getCause() != null && f.getCause() != f) {
      f = f.getCause();
    }
    if (f instanceof CutoverException known) {
      return known.getMessage();
    }
    if (failure instanceof InterruptedException) {
      return "Cutover was interrupted while trying to " + doing + "; try again.";
    }
    // An unforeseen message may quote a URL with its credentials: it is shown masked.
    String detail = failure.getMessage() == null ? failure.getClass().getSimpleName()
        : Redaction.text(failure.getMessage());
    return "Cutover could not " + doing + " because of an unexpected error (" + detail + "). Try again; if it "
        + "persists, run the same step with ./cutover in a terminal for details.";
  }
}
