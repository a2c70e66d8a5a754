package dev.cutover.app.demo;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The incident the bug does not explain: once in the history, the live job's append of one hour was
 * retried after a timeout although the first attempt had succeeded, so that hour of {@code pnl_v1}
 * holds every row twice (and its alerts were raised twice). The hour is chosen from the seed among
 * the busier hours, at least a day before the live edge. A sharded world has one incident: the append
 * was retried through the table that spreads it over the shards, so every shard doubles the same hour.
 */
final class Incident {

  private final Sql sql;
  private final DemoWorld world;

  Incident(Sql sql, DemoWorld world) {
    this.sql = sql;
    this.world = world;
  }

  /**
   * Writes the incident into {@code hour} when given (the hour another shard of the world chose), else into
   * an hour it chooses before {@code before} when given (and at least a day before {@code end}).
   */
  Optional<Instant> write(SeedOptions options, Instant start, Instant end, Optional<Instant> before,
      Optional<Instant> hour) {
    if (hour.isPresent()) {
      return Optional.of(write(hour.get()));
    }
    Instant dayBefore = options.historyDays() >= 2 ? end.minus(Hours.ONE.multipliedBy(24)) : end;
    Instant until = before.filter(b -> b.isBefore(dayBefore)).orElse(dayBefore);
    List<Long> chosen = sql.query("choose the incident hour",
        "WITH counts AS (SELECT hour, count() AS c FROM " + world.pnlV1().sql()
            + " WHERE hour >= toDateTime(?, 'UTC') AND hour < toDateTime(?, 'UTC') GROUP BY hour) "
            + "SELECT toUnixTimestamp(hour) FROM counts WHERE c >= (SELECT quantileExact(0.5)(c) FROM counts) "
            + "ORDER BY cityHash64(toUInt64(?), 'incident', toUnixTimestamp(hour)) LIMIT 1",
        rs -> rs.number(1), start.getEpochSecond(), until.getEpochSecond(), options.seed());
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(write(Instant.ofEpochSecond(chosen.getFirst())));
  }

  private Instant write(Instant hour) {
    long rows = sql.queryLong("count the incident hour", "SELECT count() FROM " + world.pnlV1().sql()
        + " WHERE hour = toDateTime(?, 'UTC')", hour.getEpochSecond());
    sql.execute("write the incident hour", "INSERT INTO " + world.pnlV1().sql() + " SELECT * FROM "
        + world.pnlV1().sql() + " WHERE hour = toDateTime(?, 'UTC')", hour.getEpochSecond());
    new HourWriter(sql, world).log(List.of(
        new HourWrite(hour, PnlVersion.V1, Seeder.RETRY_WRITER, HourWrite.Mode.APPEND, rows)));
    return hour;
  }
}
