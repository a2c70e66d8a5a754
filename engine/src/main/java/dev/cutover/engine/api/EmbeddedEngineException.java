package dev.cutover.engine.api;

/** The embedded ClickHouse could not be fetched, started, joined or stopped. */
public final class EmbeddedEngineException extends CutoverException {

  public EmbeddedEngineException(String sentence, Throwable cause) {
    super(sentence, cause);
  }

  public EmbeddedEngineException(String sentence) {
    this(sentence, null);
  }

  @Override
  public boolean retryable() {
    return false;
  }
}
