package dev.cutover.engine.preflight;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.spec.Determinism;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import dev.cutover.engine.tables.Transform;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Whether the transform is a function of its inputs: the busiest hour of the range is computed
 * twice in a SELECT and the two checksums compared, and calls known to vary are named.
 */
final class DeterminismCheck {

  private final Sql sql;
  private final TableSpec spec;

  DeterminismCheck(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  Check check(Plan plan) {
    List<String> allNames = new ArrayList<>(Determinism.REFUSED);
    allNames.addAll(Determinism.ORDER_DEPENDENT);
    List<String> found = Determinism.calls(spec.transform(), allNames).stream().map(c -> c.function() + "()")
        .distinct().toList();
    String allowed = spec.allowedNondeterministic().stream().map(a -> a.function() + "() (" + a.reason() + ")")
        .collect(Collectors.joining(", "));
    HourPartition sample = busiestHour(plan);
    Transform t = Transform.bind(spec, sample, sample.plusHours(1));
    String checksum = "SELECT count(), reinterpretAsInt64(sum(cityHash64(*))) FROM (" + t.sql() + ")";
    String first = sql.queryOne("checksum a sample hour", checksum, rs -> rs.getLong(1) + ":" + rs.getLong(2), t.values().toArray());
    String second = sql.queryOne("checksum a sample hour again", checksum, rs -> rs.getLong(1) + ":" + rs.getLong(2),
        t.values().toArray());
    if (!first.equals(second)) {
      return new Check("determinism", Status.FAIL, "The transform gave two different results for the hour " + sample
          + " (rows:checksum " + first + " then " + second + ")" + (found.isEmpty() ? "" : "; it calls " + found)
          + (allowed.isEmpty() ? "" : "; the spec allows " + allowed + ", but the rows show otherwise") + ".",
          "Make the transform a pure function of its inputs (no now(), rand(), any() or unordered groupArray()).");
    }
    if (!found.isEmpty()) {
      return new Check("determinism", Status.WARN, "The hour " + sample + " gave the same result twice, but the "
          + "transform calls " + found + ", whose results can change between runs"
          + (allowed.isEmpty() ? "" : "; the spec allows " + allowed) + ".",
          "Replace them with deterministic forms (the hour window instead of now(), min/max instead of any).");
    }
    return new Check("determinism", Status.PASS, "The hour " + sample + " gave the same rows and checksum twice ("
        + first + "), and the transform calls no non-deterministic function.", "");
  }

  /**
   * The closed hour the backfill recomputes (the range, or a bounded repair's affected hours: a carried
   * hour never runs the transform) with the most rows in v1: an empty hour would prove nothing, and an hour
   * whose events may still arrive (within the safety margin of the newest event) would differ between two
   * reads for that reason alone. A table a view appends to holds the most raw rows in its open hour, so
   * the open hours are left out before the busiest is chosen.
   */
  private HourPartition busiestHour(Plan plan) {
    HourRange recomputed = plan.recomputedRange();
    HourPartition end = recomputed.to();
    var open = new LiveReader(sql, spec).read().unsettledFrom(spec.safetyMargin());
    if (open.isPresent() && open.get().isBefore(end) && recomputed.from().isBefore(open.get())) {
      end = open.get();
    }
    // Filtered and grouped by the hour itself, v1's partition expression: the server counts each hour's rows
    // from its parts' metadata instead of reading the time column of months of rows.
    String hour = "toStartOfHour(" + spec.timeColumn().quoted() + ")";
    long seconds = sql.queryLong("find a busy hour", "SELECT toUnixTimestamp(argMax(h, n)) FROM (SELECT " + hour
        + " AS h, count() AS n FROM " + spec.qualified(spec.liveTable()) + " WHERE " + hour + " >= toDateTime(?, 'UTC') AND "
        + hour + " < toDateTime(?, 'UTC') GROUP BY h)", recomputed.from().epochSecond(), end.epochSecond());
    return seconds > 0 ? HourPartition.ofEpochSecond(seconds) : recomputed.from().plusHours(recomputed.hours() / 2);
  }
}
