package dev.cutover.app.demo;

import dev.cutover.engine.Statements;
import dev.cutover.engine.api.ErrorCodes;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.ResultRow;
import dev.cutover.engine.api.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The demo's statements on the engine's runner, with the demo's own advice added to a failure: a
 * missing world is seeded, a server out of memory gets a smaller scale.
 */
final class Sql {

  private final Statements statements;

  Sql(Statements statements) {
    this.statements = statements;
  }

  /** Runs a statement; {@code what} completes the sentence "Could not …". */
  void execute(String what, Statement statement) {
    try {
      statements.execute(what, statement);
    } catch (QueryFailedException e) {
      throw advised(e);
    }
  }

  void execute(String what, String sql, Object... params) {
    execute(what, Statement.of(sql, params));
  }

  <T> List<T> query(String what, String sql, ResultRow.Reader<T> row, Object... params) {
    try {
      return statements.query(what, Statement.of(sql, params), row);
    } catch (QueryFailedException e) {
      throw advised(e);
    }
  }

  <T> Optional<T> queryOne(String what, String sql, ResultRow.Reader<T> row, Object... params) {
    return query(what, sql, row, params).stream().findFirst();
  }

  long queryLong(String what, String sql, Object... params) {
    return queryOne(what, sql, rs -> rs.number(1), params).orElse(0L);
  }

  /** The engine's sentence, and what to do about it in the demo's words. */
  static QueryFailedException advised(QueryFailedException e) {
    int code = e.errorCode();
    String hint = switch (code) {
      case ErrorCodes.UNKNOWN_TABLE, ErrorCodes.UNKNOWN_DATABASE -> "the demo world is missing or incomplete; run "
          + "'cutover demo seed' (or 'cutover demo reset' to rebuild it)";
      case ErrorCodes.MEMORY_LIMIT_EXCEEDED -> "the server ran out of memory; use a smaller --scale or give ClickHouse "
          + "more memory";
      case ErrorCodes.TIMEOUT_EXCEEDED, ErrorCodes.TOO_MANY_SIMULTANEOUS_QUERIES -> "the server is busy; try again in a "
          + "moment";
      default -> "check the server log for this statement and try again";
    };
    String sentence = e.getMessage().endsWith(".") ? e.getMessage().substring(0, e.getMessage().length() - 1)
        : e.getMessage();
    return new QueryFailedException(sentence + "; " + hint + ".", code, e.queryId().orElse(null), e.retryable(),
        e.unreachable(), e);
  }
}
