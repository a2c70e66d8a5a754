package dev.cutover.engine.api;

/** Cutover could not open, or may not use, a connection to a ClickHouse server. */
public final class ConnectionFailedException extends CutoverException {

  /** Why the connection failed, in the operator's terms. */
  public enum Reason {
    UNREACHABLE,
    AUTHENTICATION,
    UNKNOWN_DATABASE,
    DATABASE_NOT_ATOMIC,
    SERVER_TOO_OLD,
    TLS,
    OTHER
  }

  private final Reason reason;

  public ConnectionFailedException(Reason reason, String sentence, Throwable cause) {
    super(sentence, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  @Override
  public boolean retryable() {
    return reason == Reason.UNREACHABLE;
  }
}
