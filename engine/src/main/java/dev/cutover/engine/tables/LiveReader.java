package dev.cutover.engine.tables;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.LiveStatus;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Reads the live edge and the live writer's lag from the data alone, for any spec. */
public final class LiveReader {

  private final Sql sql;
  private final TableSpec spec;

  public LiveReader(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  public LiveStatus read() {
    TargetTables tables = new TargetTables(sql, spec);
    // v1 is gone once the repair dropped it: then there is no live edge of v1 to speak of.
    Optional<HourPartition> live = tables.exists(spec.liveTable()) ? newestHour(spec.liveTable().quoted())
        : Optional.empty();
    Optional<HourPartition> target = tables.exists(spec.targetTable())
        ? newestHour(spec.targetTable().quoted()) : Optional.empty();
    Optional<Instant> newest = Optional.empty();
    for (TableSpec.Source source : spec.sources()) {
      long seconds = sql.queryLong("read the newest event of " + source.table(), "SELECT toUnixTimestamp(max("
          + source.timeColumn().quoted() + ")) FROM " + spec.qualified(source.table()));
      if (seconds > 0 && newest.map(n -> n.getEpochSecond() < seconds).orElse(true)) {
        newest = Optional.of(Instant.ofEpochSecond(seconds));
      }
    }
    Duration lag = Duration.ZERO;
    if (live.isPresent() && newest.isPresent() && newest.get().isAfter(live.get().end())) {
      lag = Duration.between(live.get().end(), newest.get());
    }
    return new LiveStatus(live, target, newest, lag);
  }

  private Optional<HourPartition> newestHour(String table) {
    // The hour of the newest time, not the newest of the hours: max() of a bare column is answered from the parts'
    // min-max indexes without reading rows (a scan of the whole table otherwise, every read of the live status).
    long seconds = sql.queryLong("read the newest hour of " + table, "SELECT toUnixTimestamp(toStartOfHour(max("
        + spec.timeColumn().quoted() + "))) FROM " + spec.database().quoted() + "." + table);
    return seconds > 0 ? Optional.of(HourPartition.ofEpochSecond(seconds)) : Optional.empty();
  }

  /**
   * The oldest hour a bounded repair may carry from v1: on one server v1's oldest hour; on a cluster the
   * oldest any shard's v1 holds, read whole through its {@code Distributed} table (shards that do not answer
   * skipped, as {@link #reprocessingStart} does), so that every shard plans one range and a shard whose v1
   * starts later carries those hours empty, as its v1 holds them.
   */
  public Optional<HourPartition> oldestCarriableHour() {
    return spec.cluster().map(c -> oldestHourOf(c.live(), " SETTINGS skip_unavailable_shards = 1"))
        .orElseGet(this::oldestLiveHour);
  }

  /** The oldest hour the live table (v1) holds, from its parts' min-max indexes; empty while it holds none. */
  public Optional<HourPartition> oldestLiveHour() {
    return oldestHourOf(spec.liveTable(), "");
  }

  private Optional<HourPartition> oldestHourOf(dev.cutover.engine.api.Identifier table, String settings) {
    long seconds = sql.queryLong("read the oldest hour of " + table, "SELECT toUnixTimestamp(toStartOfHour(min("
        + spec.timeColumn().quoted() + "))) FROM " + spec.qualified(table) + settings);
    return seconds > 0 ? Optional.of(HourPartition.ofEpochSecond(seconds)) : Optional.empty();
  }

  /** The oldest hour every source still holds: how far back a recompute can reach. */
  public Optional<HourPartition> reprocessingStart() {
    Optional<HourPartition> start = Optional.empty();
    for (TableSpec.Source source : spec.sources()) {
      Optional<HourPartition> oldest = oldestHour(source);
      if (oldest.isEmpty()) {
        continue;
      }
      HourPartition candidate = oldest.get();
      if (start.map(s -> s.isBefore(candidate)).orElse(true)) {
        start = Optional.of(candidate);
      }
    }
    return start;
  }

  /**
   * The oldest hour a source holds. A source sharded over a cluster is read whole, through its
   * {@code Distributed} table: one shard's oldest event says only when its own keys began, and a
   * shard whose first hours hold no event of its keys still has those hours to recompute (empty),
   * like every other shard. Shards that do not answer are skipped rather than failing the read: a
   * distributed query cut off by a silent shard can stop the shards that served it, and the silent
   * shard's own plan fails by itself.
   */
  public Optional<HourPartition> oldestHour(TableSpec.Source source) {
    Optional<dev.cutover.engine.api.Identifier> whole = spec.cluster().map(c -> c.sources().get(source.name()));
    String from = whole.map(spec::qualified).orElse(spec.qualified(source.table()));
    long seconds = sql.queryLong("read the oldest event of " + whole.orElse(source.table()), "SELECT toUnixTimestamp(min("
        + source.timeColumn().quoted() + ")) FROM " + from + (whole.isPresent() ? " SETTINGS skip_unavailable_shards = 1"
        : ""));
    return seconds > 0 ? Optional.of(HourPartition.containing(Instant.ofEpochSecond(seconds))) : Optional.empty();
  }
}
