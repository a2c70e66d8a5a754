package dev.cutover.engine;

import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.api.ResultRow;
import dev.cutover.engine.api.Statement;
import dev.cutover.engine.sql.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The engine's statement runner, for tools that write their own tables beside a repair (the demo's
 * world and its live job): the same pool, bound values, error words and transient-failure
 * judgement as every step of the engine. {@code what} completes the sentence "Could not …".
 */
public final class Statements {

  private final Sql sql;

  Statements(Sql sql) {
    this.sql = sql;
  }

  /** The runner on a pool of the engine's own; outside the engine, use {@link Session#statements()}. */
  public static Statements over(Database database) {
    return new Statements(database.sql());
  }

  public void execute(String what, Statement statement) {
    sql.execute(what, statement.text(), statement.values().toArray());
  }

  public <T> List<T> query(String what, Statement statement, ResultRow.Reader<T> reader) {
    return sql.query(what, statement.text(), rs -> reader.read(new Row(rs)), statement.values().toArray());
  }

  /** The first row, or empty when the result has none. */
  public <T> Optional<T> queryFirst(String what, Statement statement, ResultRow.Reader<T> reader) {
    return query(what, statement, reader).stream().findFirst();
  }

  /** The first column of the first row as a number; 0 when the result has no row. */
  public long queryLong(String what, Statement statement) {
    return queryFirst(what, statement, row -> row.number(1)).orElse(0L);
  }

  /** A row of a result set open while its reader runs. */
  private record Row(ResultSet rs) implements ResultRow {

    @Override
    public String string(int column) {
      try {
        return rs.getString(column);
      } catch (SQLException e) {
        throw unreadable(column, e);
      }
    }

    @Override
    public long number(int column) {
      try {
        return rs.getLong(column);
      } catch (SQLException e) {
        throw unreadable(column, e);
      }
    }

    private static QueryFailedException unreadable(int column, SQLException e) {
      return Sql.failure("read column " + column + " of a result", e);
    }
  }
}
