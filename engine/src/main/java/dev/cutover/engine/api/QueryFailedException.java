package dev.cutover.engine.api;

import java.util.Optional;

/**
 * A statement failed on the server. Carries the ClickHouse error code and the query id so that an
 * operator can find the statement in {@code system.query_log}.
 */
public final class QueryFailedException extends CutoverException {

  private final int errorCode;
  private final String queryId;
  private final boolean retryable;
  private final boolean unreachable;

  public QueryFailedException(
      String sentence, int errorCode, String queryId, boolean retryable, Throwable cause) {
    this(sentence, errorCode, queryId, retryable, false, cause);
  }

  /**
   * @param unreachable the statement never got an answer: the connection was refused, reset or cut
   *     off, so the server itself is down or out of reach rather than refusing this statement
   */
  public QueryFailedException(String sentence, int errorCode, String queryId, boolean retryable, boolean unreachable,
      Throwable cause) {
    super(sentence, cause);
    this.errorCode = errorCode;
    this.queryId = queryId;
    this.retryable = retryable || unreachable;
    this.unreachable = unreachable;
  }

  /** The server's error code (for example 36 for BAD_ARGUMENTS), or 0 when none was returned. */
  public int errorCode() {
    return errorCode;
  }

  public Optional<String> queryId() {
    return Optional.ofNullable(queryId);
  }

  @Override
  public boolean retryable() {
    return retryable;
  }

  /** The server gave no answer at all: every statement fails alike until it is back. */
  public boolean unreachable() {
    return unreachable;
  }
}
