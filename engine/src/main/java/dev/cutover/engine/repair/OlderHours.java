package dev.cutover.engine.repair;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.LiveReader;
import java.time.Duration;
import java.util.Optional;

/**
 * Hours v1 holds before a repair's first hour. They lie outside every window the repair backfilled
 * and reconciled, so v2 does not hold them, and consumers would stop seeing them at the exchange under
 * a green verdict: the cutover gate and the repair's next step both name them.
 */
public final class OlderHours {

  private final Sql sql;
  private final TableSpec spec;

  public OlderHours(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  /** The oldest hour of v1 when it lies before {@code repair}'s first hour (read from v1's parts). */
  public Optional<HourPartition> before(Repair repair) {
    return repair.firstHour().flatMap(this::before);
  }

  /** The oldest hour of v1 when it lies before {@code first}: a repair that starts there leaves it out. */
  public Optional<HourPartition> before(HourPartition first) {
    return new LiveReader(sql, spec).oldestLiveHour().filter(h -> h.isBefore(first));
  }

  /** What is lost: v1's hours from {@code oldest} to the repair's {@code first} hour. */
  public String lost(HourPartition oldest, HourPartition first) {
    return spec.liveTable() + " holds hours from " + oldest + ", " + Duration.between(oldest.start(), first.start())
        .toHours() + " hours before the repair's first hour " + first + ", and " + spec.targetTable() + " does not: "
        + "consumers would no longer see them after the cutover.";
  }

  /** The two ways out: carry them into the repair, or let them go on purpose. */
  public String remedy(HourPartition oldest) {
    return "Carry them into the repair (backfill --from " + oldest + "; with an affected window they are copied from v1 "
        + "unchanged) and reconcile again, or, if they are meant to go, drop them from " + spec.liveTable() + " first.";
  }
}
