package dev.cutover.engine.cluster;

import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.cluster.Shards.Shard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The sources every shard holds whole ({@code cluster.copied}, reference data such as prices or rates):
 * each shard computes its hours from its own copy, so the copies must be the same rows on every shard
 * over the repair's range, or two shards would correct the same kind of row with different prices.
 * Compared by rows and an order-free checksum of every column, per shard.
 */
final class CopiedSources {

  private final Shards shards;
  private final TableSpec spec;

  CopiedSources(Shards shards, TableSpec spec) {
    this.shards = shards;
    this.spec = spec;
  }

  /** One check per copied source; none when the spec copies none. */
  List<Check> check(HourRange range) {
    List<Check> out = new ArrayList<>();
    for (String name : spec.cluster().orElseThrow().copied()) {
      TableSpec.Source source = spec.sources().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
      Map<Shard, String> seen = shards.each("compare the copies of " + source.table(), s -> s.database().sql().queryOne(
          "checksum " + source.table(), "SELECT count(), reinterpretAsInt64(sum(cityHash64(*))) FROM "
              + spec.qualified(source.table()) + " WHERE " + source.timeColumn().quoted() + " >= toDateTime(?, 'UTC') "
              + "AND " + source.timeColumn().quoted() + " < toDateTime(?, 'UTC')",
          rs -> rs.getLong(1) + " rows, checksum " + Long.toHexString(rs.getLong(2)), range.from().epochSecond(),
          range.to().epochSecond()));
      String check = "copies of " + source.table();
      if (seen.values().stream().distinct().count() == 1) {
        out.add(new Check(check, Status.PASS, "Every shard holds the same " + seen.values().iterator().next() + " of "
            + source.table() + " over " + range + ".", ""));
      } else {
        out.add(new Check(check, Status.FAIL, source.table() + " differs between shards over " + range + ": "
            + seen.entrySet().stream().map(e -> e.getKey().name() + " holds " + e.getValue())
            .collect(Collectors.joining("; ")) + ". Each shard computes its hours from its own copy.",
            "Make every shard's copy of " + source.table() + " the same (insert the missing rows on the shards that "
                + "lack them), then run the preflight again."));
      }
    }
    return out;
  }
}
