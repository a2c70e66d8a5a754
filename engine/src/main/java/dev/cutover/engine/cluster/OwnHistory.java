package dev.cutover.engine.cluster;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.util.Optional;

/**
 * On one shard: whether its own sharded sources still hold the hours its v1 holds among those the repair
 * recomputes (the range, or a bounded repair's affected window: its carried hours read no source). The
 * cluster's range starts at the oldest hour any shard's sources hold, so a shard whose keys had no event in
 * the first hours recomputes them empty, as they are in its v1. A shard whose sources lost hours that its
 * v1 still holds (a TTL written as an expression, a dropped partition, deleted rows) would recompute them
 * empty too, and lose them: refused, naming the shard, the source and the hours, before any shard is written.
 */
final class OwnHistory {

  static final String NAME = "own history";

  private OwnHistory() {}

  static Check check(Shards.Shard shard, TableSpec spec, HourRange range) {
    Sql sql = shard.database().sql();
    Optional<HourPartition> start = Optional.empty();
    String limiting = "";
    for (TableSpec.Source source : spec.sources()) {
      if (spec.cluster().map(c -> c.sources().containsKey(source.name())).orElse(false)) {
        long seconds = sql.queryLong("read the oldest event of " + source.table() + " on this shard", "SELECT "
            + "toUnixTimestamp(min(" + source.timeColumn().quoted() + ")) FROM " + spec.qualified(source.table()));
        HourPartition oldest = seconds > 0 ? HourPartition.containing(Instant.ofEpochSecond(seconds)) : range.to();
        if (start.isEmpty() || start.get().isBefore(oldest)) {
          start = Optional.of(oldest);
          limiting = source.table().name();
        }
      }
    }
    if (start.isEmpty() || !range.from().isBefore(start.get())) {
      return new Check(NAME, Status.PASS, "This shard's sources hold every hour it recomputes, from " + range.from()
          + ".", "");
    }
    HourPartition until = start.get().isBefore(range.to()) ? start.get() : range.to();
    long rows = sql.queryLong("count v1's rows before this shard's own sources", "SELECT count() FROM "
        + spec.qualified(spec.liveTable()) + " WHERE " + spec.timeColumn().quoted() + " >= toDateTime(?, 'UTC') AND "
        + spec.timeColumn().quoted() + " < toDateTime(?, 'UTC')", range.from().epochSecond(), until.epochSecond());
    if (rows == 0) {
      return new Check(NAME, Status.PASS, "This shard's " + limiting + " starts at " + start.get() + ", and its "
          + spec.liveTable() + " has no row before it either: the hours from " + range.from() + " are empty here and "
          + "are recomputed empty.", "");
    }
    return new Check(NAME, Status.FAIL, "This shard's " + spec.liveTable() + " holds " + Figures.count(rows)
        + " row(s) in ["
        + range.from() + ", " + until + "), but its " + limiting + " starts at " + start.get() + ": those hours "
        + "would be recomputed from nothing and lost.", "Recompute from " + until + " or later (--from, or a later "
        + "--affected window for a bounded repair), or restore this shard's " + limiting + " for those hours, then "
        + "run the preflight again.");
  }
}
