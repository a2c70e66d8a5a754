package dev.cutover.app.demo;

import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.connect.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs the demo's statements over the connection pool with bound values, and turns a failure into
 * a {@link QueryFailedException} that says what the demo was doing.
 */
final class Sql {

  /** Reads one row of a result. */
  @FunctionalInterface
  interface Row<T> {
    T read(ResultSet rs) throws SQLException;
  }

  private static final int UNKNOWN_TABLE = 60;
  private static final int UNKNOWN_DATABASE = 81;
  private static final int TIMEOUT_EXCEEDED = 159;
  private static final int TOO_MANY_SIMULTANEOUS_QUERIES = 202;
  private static final int MEMORY_LIMIT_EXCEEDED = 241;

  private final Database database;

  Sql(Database database) {
    this.database = database;
  }

  Database database() {
    return database;
  }

  /** Runs a statement; {@code what} completes the sentence "Could not …". */
  void execute(String what, BoundSql statement) {
    execute(what, statement.sql(), statement.params().toArray());
  }

  void execute(String what, String sql, Object... params) {
    try (Connection c = database.dataSource().getConnection(); PreparedStatement s = prepare(c, sql, params)) {
      s.execute();
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  <T> List<T> query(String what, String sql, Row<T> row, Object... params) {
    try (Connection c = database.dataSource().getConnection(); PreparedStatement s = prepare(c, sql, params);
        ResultSet rs = s.executeQuery()) {
      List<T> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(row.read(rs));
      }
      return rows;
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  <T> Optional<T> queryOne(String what, String sql, Row<T> row, Object... params) {
    return query(what, sql, row, params).stream().findFirst();
  }

  long queryLong(String what, String sql, Object... params) {
    return queryOne(what, sql, rs -> rs.getLong(1), params).orElse(0L);
  }

  private static PreparedStatement prepare(Connection c, String sql, Object[] params) throws SQLException {
    PreparedStatement s = c.prepareStatement(sql);
    for (int i = 0; i < params.length; i++) {
      s.setObject(i + 1, params[i]);
    }
    return s;
  }

  static QueryFailedException failure(String what, SQLException e) {
    int code = e.getErrorCode();
    String hint = switch (code) {
      case UNKNOWN_TABLE, UNKNOWN_DATABASE -> "the demo world is missing or incomplete; run 'cutover demo seed' "
          + "(or 'cutover demo reset' to rebuild it)";
      case MEMORY_LIMIT_EXCEEDED -> "the server ran out of memory; use a smaller --scale or give ClickHouse more memory";
      case TIMEOUT_EXCEEDED, TOO_MANY_SIMULTANEOUS_QUERIES -> "the server is busy; try again in a moment";
      default -> "check the server log for this statement and try again";
    };
    boolean retryable = code == TIMEOUT_EXCEEDED || code == TOO_MANY_SIMULTANEOUS_QUERIES || code == 0;
    return new QueryFailedException("Could not " + what + ": " + firstLine(e.getMessage()) + (code != 0
        ? " (ClickHouse error " + code + ")" : "") + "; " + hint + ".", code, null, retryable, e);
  }

  static String firstLine(String message) {
    if (message == null) {
      return "no message";
    }
    String line = message.strip().split("\\R", 2)[0];
    return line.length() > 400 ? line.substring(0, 400) + "…" : line;
  }
}
