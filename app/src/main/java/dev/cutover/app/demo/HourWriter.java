package dev.cutover.app.demo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Writes hours of one version the way the live job does: compute a batch of hours into the version's
 * private staging table, swap each hour into the target with {@code REPLACE PARTITION}, and note each
 * hour in {@code demo_writes}. A reader sees an hour either as it was or as it is now; writing the
 * same hour again gives the same result.
 */
final class HourWriter {

  /** At most this many hours per statement: ClickHouse refuses inserts into more than 100 partitions. */
  static final int MAX_BATCH_HOURS = 96;

  private final Sql sql;
  private final DemoWorld world;

  HourWriter(Sql sql, DemoWorld world) {
    this.sql = sql;
    this.world = world;
  }

  /** Writes the hours {@code [from, to)} of {@code version}, in order, in batches of at most 96 hours. */
  List<HourWrite> replace(PnlVersion version, Instant from, Instant to, String writer) {
    return replace(version, from, to, writer, () -> true);
  }

  /** As {@link #replace(PnlVersion, Instant, Instant, String)}, stopping between batches once {@code keepGoing} says no. */
  List<HourWrite> replace(PnlVersion version, Instant from, Instant to, String writer, BooleanSupplier keepGoing) {
    List<HourWrite> written = new ArrayList<>();
    for (Instant batch = from; batch.isBefore(to) && keepGoing.getAsBoolean(); ) {
      Instant end = min(batch.plus(Hours.ONE.multipliedBy(MAX_BATCH_HOURS)), to);
      written.addAll(replaceBatch(version, batch, end, writer));
      batch = end;
    }
    return written;
  }

  private List<HourWrite> replaceBatch(PnlVersion version, Instant from, Instant to, String writer) {
    TableName staging = world.liveStaging(version);
    TableName target = world.target(version);
    sql.execute("empty the staging table " + staging, "TRUNCATE TABLE " + staging.sql());
    Map<String, Object> values = new HashMap<>(world.sources());
    values.put("window_start", from);
    values.put("window_end", to);
    sql.execute("compute " + version.label() + " for " + Hours.iso(from) + " to " + Hours.iso(to),
        version.transform().render(values).prefixed("INSERT INTO " + staging.sql() + " "));
    Map<Long, Long> rows = new HashMap<>();
    sql.query("count the staged rows", "SELECT toUnixTimestamp(hour), count() FROM " + staging.sql()
        + " GROUP BY hour", rs -> rows.put(rs.number(1), rs.number(2)));

    List<HourWrite> written = new ArrayList<>();
    for (Instant hour = from; hour.isBefore(to); hour = hour.plus(Hours.ONE)) {
      written.add(new HourWrite(hour, version, writer, HourWrite.Mode.REPLACE,
          rows.getOrDefault(hour.getEpochSecond(), 0L)));
    }
    // The partition id of toStartOfHour(hour) is its Unix time; each REPLACE is atomic for its hour,
    // and an hour with no rows must still empty the target's partition.
    String replaces = written.stream()
        .map(w -> "REPLACE PARTITION ID '" + w.hour().getEpochSecond() + "' FROM " + staging.sql())
        .collect(Collectors.joining(", "));
    sql.execute("swap " + version.label() + " hours " + Hours.iso(from) + " to " + Hours.iso(to) + " into " + target,
        "ALTER TABLE " + target.sql() + " " + replaces + " SETTINGS allow_replace_partition_from_empty_source = 1");
    log(written);
    return written;
  }

  /** Notes writes in {@code demo_writes}. */
  void log(List<HourWrite> writes) {
    if (writes.isEmpty()) {
      return;
    }
    List<Object> params = new ArrayList<>();
    for (HourWrite w : writes) {
      params.add(w.hour().getEpochSecond());
      params.add(w.version().label());
      params.add(w.writer());
      params.add(w.mode().sqlName());
      params.add(w.rows());
    }
    String rows = writes.stream().map(w -> "(toDateTime(?, 'UTC'), ?, ?, ?, ?)").collect(Collectors.joining(", "));
    sql.execute("note the written hours", "INSERT INTO " + world.writes().sql()
        + " (hour, version, writer, mode, rows) VALUES " + rows, params.toArray());
  }

  /** The hour after the newest hour of {@code version} in the write log, if any was written. */
  Optional<Instant> nextUnwritten(PnlVersion version) {
    long[] newest = sql.query("read the write log", "SELECT toUnixTimestamp(max(hour)), count() FROM "
        + world.writes().sql() + " WHERE version = ?", rs -> new long[] {rs.number(1), rs.number(2)},
        version.label()).getFirst();
    return newest[1] == 0 ? Optional.empty() : Optional.of(Instant.ofEpochSecond(newest[0]).plus(Hours.ONE));
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
