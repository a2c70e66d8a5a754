package dev.cutover.engine.api;

/** Input that Cutover refuses before anything is written: a date, a name, a spec field, an option. */
public final class InvalidInputException extends CutoverException {

  private final String field;

  public InvalidInputException(String field, String sentence) {
    super(sentence, null);
    this.field = field;
  }

  /** The option, spec key or form field that holds the offending value. */
  public String field() {
    return field;
  }

  @Override
  public boolean retryable() {
    return false;
  }
}
