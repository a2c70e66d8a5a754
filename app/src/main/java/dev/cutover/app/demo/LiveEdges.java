package dev.cutover.app.demo;

import dev.cutover.engine.Statements;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The live edges of the world read from the data alone, not from any job's state: the newest trade
 * that has arrived, and the end of the newest hour with rows in {@code pnl_v1} and {@code pnl_v2}.
 * The lag of a version is how far its edge trails the newest trade. (An hour without trades has no
 * rows, so right after a quiet hour the edge reads an hour older than the job's watermark.)
 *
 * <pre>{@code
 * LiveEdges edges = LiveEdges.read(database, DemoWorld.in("trading"));
 * edges.v1Lag();   // e.g. PT1H9M58S: the open hour plus the allowed lateness
 * }</pre>
 *
 * @param newestEvent the newest {@code event_time} in {@code trades}
 * @param v1End the end of the newest hour with rows in {@code pnl_v1}
 * @param v2End the end of the newest hour with rows in {@code pnl_v2}
 */
public record LiveEdges(Optional<Instant> newestEvent, Optional<Instant> v1End, Optional<Instant> v2End) {

  public static LiveEdges read(Statements statements, DemoWorld world) {
    Sql sql = new Sql(statements);
    return new LiveEdges(newest(sql, world.trades(), "event_time", Duration.ZERO),
        newest(sql, world.pnlV1(), "hour", Hours.ONE), newest(sql, world.pnlV2(), "hour", Hours.ONE));
  }

  public Optional<Duration> v1Lag() {
    return lag(v1End);
  }

  public Optional<Duration> v2Lag() {
    return lag(v2End);
  }

  private Optional<Duration> lag(Optional<Instant> end) {
    return newestEvent.flatMap(event -> end.map(e -> Duration.between(e, event)));
  }

  private static Optional<Instant> newest(Sql sql, TableName table, String column, Duration plus) {
    long[] row = sql.query("read the live edge of " + table, "SELECT toUnixTimestamp(max(" + column + ")), count() FROM "
        + table.sql(), rs -> new long[] {rs.number(1), rs.number(2)}).getFirst();
    return row[1] == 0 ? Optional.empty() : Optional.of(Instant.ofEpochSecond(row[0]).plus(plus));
  }
}
