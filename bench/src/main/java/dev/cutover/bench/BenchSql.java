package dev.cutover.bench;

import dev.cutover.engine.Statements;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.ResultRow;
import dev.cutover.engine.api.Statement;

/** The benchmarks' own statements (floors, copies, counters) on the engine's runner. */
final class BenchSql {

  private final Statements statements;

  BenchSql(Statements statements) {
    this.statements = statements;
  }

  void execute(String what, String text, Object... values) {
    statements.execute(what, Statement.of(text, values));
  }

  void execute(String what, Statement statement) {
    statements.execute(what, statement);
  }

  long queryLong(String what, String text, Object... values) {
    return statements.queryLong(what, Statement.of(text, values));
  }

  <T> java.util.List<T> query(String what, String text, ResultRow.Reader<T> reader, Object... values) {
    return statements.query(what, Statement.of(text, values), reader);
  }

  /**
   * The first hour at or after {@code from} in which {@code table} (with an hourly column {@code hour}) holds
   * rows: the demo's world is seeded up to now and writes no trades in its weekly maintenance window, so a
   * fixed offset from the first hour may land on an empty one, where a probe would measure nothing.
   */
  HourPartition firstHourWithRows(String qualifiedTable, HourPartition from) {
    return HourPartition.ofEpochSecond(queryLong("find an hour with rows", "SELECT toUnixTimestamp(min(hour)) FROM "
        + qualifiedTable + " WHERE hour >= toDateTime(?, 'UTC')", from.epochSecond()));
  }

  <T> T queryOne(String what, String text, ResultRow.Reader<T> reader, Object... values) {
    return statements.queryFirst(what, Statement.of(text, values), reader)
        .orElseThrow(() -> new IllegalStateException("Could not " + what + ": the server returned no row"));
  }
}
