package dev.cutover.engine.sql;

import dev.cutover.engine.api.ErrorCodes;
import dev.cutover.engine.api.QueryFailedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Runs statements the engine wrote, with values bound as parameters, and turns failures into
 * {@link QueryFailedException}s that carry the server's error code, the query id and whether a
 * retry can help. A statement that gets no byte from the server for {@link #silence()} fails (see
 * {@link Timeouts}).
 */
public final class Sql {

  /**
   * Given to the driver with a network timeout, which it would use to close the whole connection when
   * a read times out; its HTTP client already drops the socket that timed out, and the connection,
   * which holds no socket of its own, stays good for the pool.
   */
  private static final Executor KEEP_CONNECTION = task -> { };

  private final DataSource dataSource;
  private final Supplier<Optional<String>> whyLost;
  private final Duration silence;
  /** The answers of a step that only reads, when this is such a step's ({@link #readingOnce}); else null. */
  private final ReadMemo memo;
  private final DiskSpace disk = new DiskSpace(this);

  public Sql(DataSource dataSource) {
    this(dataSource, Optional::empty);
  }

  /**
   * Statements on {@code dataSource}; when the connection breaks, {@code whyLost} may say why in a
   * sentence (the embedded server restarted, and when), which then stands in for the driver's words.
   */
  public Sql(DataSource dataSource, Supplier<Optional<String>> whyLost) {
    this(dataSource, whyLost, Timeouts.SILENCE, null);
  }

  private Sql(DataSource dataSource, Supplier<Optional<String>> whyLost, Duration silence, ReadMemo memo) {
    this.dataSource = dataSource;
    this.whyLost = whyLost;
    this.silence = silence;
    this.memo = memo;
  }

  /** The same statements, each failing once the server has sent nothing for {@code bound}. */
  public Sql silentAtMost(Duration bound) {
    return new Sql(dataSource, whyLost, bound, memo);
  }

  /**
   * The same server for one step that reads far more than it writes, such as a preflight: each read is sent
   * once and answered from memory when the step asks it again, until the step writes ({@link ReadMemo}).
   * Each call starts with nothing known.
   */
  public Sql readingOnce() {
    return new Sql(dataSource, whyLost, silence, new ReadMemo());
  }

  /** How long a statement may go without a byte from the server. */
  public Duration silence() {
    return silence;
  }

  /**
   * A connection whose statements time out after {@link #silence}. Set on every borrow, before any
   * statement is made (a statement keeps the timeout it was made with): the pool sets a connection's
   * network timeout back to the driver's default, none at all, whenever it takes the connection back.
   */
  private Connection connection() throws SQLException {
    Connection c = dataSource.getConnection();
    try {
      c.setNetworkTimeout(KEEP_CONNECTION, (int) Math.min(Integer.MAX_VALUE, silence.toMillis()));
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** A row mapper. */
  @FunctionalInterface
  public interface Row<T> {
    T map(ResultSet rs) throws SQLException;
  }

  /**
   * Runs a statement that returns no rows. One that creates or alters a table is refused, before it is sent, while
   * the server's disk has less than {@link DiskSpace#reserve()} free ({@link DiskSpace}).
   */
  public void execute(String what, String sql, Object... values) {
    if (DiskSpace.defines(sql)) {
      disk.guard(what);
    }
    if (memo != null) {
      memo.forget();
    }
    try (Connection c = connection(); PreparedStatement s = c.prepareStatement(sql)) {
      bind(s, values);
      s.execute();
    } catch (SQLException e) {
      throw explained(what, e);
    }
  }

  /** Free space on the server's disks, read at most once a second. */
  public DiskSpace disk() {
    return disk;
  }

  public <T> List<T> query(String what, String sql, Row<T> row, Object... values) {
    return memo == null
        ? ask(what, sql, row, values)
        : memo.answer(what, sql, row, values, () -> ask(what, sql, row, values));
  }

  private <T> List<T> ask(String what, String sql, Row<T> row, Object... values) {
    try (Connection c = connection(); PreparedStatement s = c.prepareStatement(sql)) {
      bind(s, values);
      try (ResultSet rs = s.executeQuery()) {
        List<T> out = new ArrayList<>();
        while (rs.next()) {
          out.add(row.map(rs));
        }
        return out;
      }
    } catch (SQLException e) {
      throw explained(what, e);
    }
  }

  public <T> T queryOne(String what, String sql, Row<T> row, Object... values) {
    List<T> rows = query(what, sql, row, values);
    if (rows.isEmpty()) {
      throw new QueryFailedException("Could not " + what + ": the server returned no row.", 0, null, false, null);
    }
    return rows.getFirst();
  }

  public long queryLong(String what, String sql, Object... values) {
    return queryOne(what, sql, rs -> rs.getLong(1), values);
  }

  private static void bind(PreparedStatement s, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      s.setObject(i + 1, values[i]);
    }
  }

  /**
   * As {@link #failure}; a server that said nothing for the silence bound is told so, and a broken
   * connection in the words of {@code whyLost} when it has some.
   */
  private QueryFailedException explained(String what, SQLException e) {
    QueryFailedException failed = failure(what, e);
    if (Timeouts.silent(e)) {
      return new QueryFailedException("Could not " + what + ": the server sent nothing for " + Timeouts.words(silence)
          + ", not even progress (it may be stopped, hung or out of reach). This can pass; Cutover retries it.",
          failed.errorCode(), failed.queryId().orElse(null), true, true, e);
    }
    if (!failed.retryable() || !isConnectionProblem(e) && e.getErrorCode() != ErrorCodes.UNKNOWN_EXCEPTION) {
      return failed;
    }
    return whyLost.get().map(why -> new QueryFailedException("Could not " + what + ": " + why
        + " This can pass; Cutover retries it.", failed.errorCode(), failed.queryId().orElse(null), true,
        failed.unreachable(), e))
        .orElse(failed);
  }

  /**
   * A failure's sentence without the advice this class ends it with, for a caller that says itself what comes
   * next: a step that does not retry must not say that Cutover retries it.
   */
  public static String situation(String message) {
    return message.replaceAll(" (This can pass; Cutover retries it|Fix the cause and run it again)\\.$", "");
  }

  /** Turns a driver failure into a sentence: "Could not {what}: {server message} (code N, query id Q)." */
  public static QueryFailedException failure(String what, SQLException e) {
    int code = e.getErrorCode();
    String message = e.getMessage() == null ? "no message" : e.getMessage().strip().split("\\R", 2)[0];
    String queryId = null;
    var m = java.util.regex.Pattern.compile("queryId[:=] ?([0-9a-fA-F-]{8,})").matcher(message);
    if (m.find()) {
      queryId = m.group(1);
    }
    message = message.replaceAll("\\s*\\(queryId[^)]*\\)", "").replaceAll("\\s*\\(version [0-9.]+\\)", "").strip();
    boolean unreachable = ErrorCodes.TRANSPORT.contains(code) && isConnectionProblem(e);
    boolean transientFailure = ErrorCodes.isTransient(code) || unreachable;
    String advice = transientFailure
        ? " This can pass; Cutover retries it."
        : " Fix the cause and run it again.";
    return new QueryFailedException("Could not " + what + ": " + message + advice, code, queryId, transientFailure,
        unreachable, e);
  }

  /**
   * A transport failure rather than a server's answer: refused, reset or closed connections, timeouts, no connection
   * from the pool in time, and a response cut off mid-stream (the server died while the driver read a column), which
   * the driver reports only as an {@link java.io.IOException} somewhere in the cause chain.
   */
  private static boolean isConnectionProblem(Throwable t) {
    for (; t != null; t = t.getCause()) {
      if (t instanceof java.io.IOException
          // The pool had no connection that answered its check in time: the server is the likely cause.
          || t instanceof java.sql.SQLTransientConnectionException
          || t.getClass().getSimpleName().equals("ConnectionInitiationException")
          || t.getMessage() != null && t.getMessage().startsWith(NO_RESULT_SET)) {
        return true;
      }
    }
    return false;
  }

  /**
   * What the driver says when a query's answer came without its result, as when the server died between
   * accepting the query and sending the first block (seen for a SELECT right after an INSERT, the server
   * killed between them): no statement Cutover sends by executeQuery is one that produces none.
   */
  private static final String NO_RESULT_SET = "executeQuery() requires a ResultSet";
}
