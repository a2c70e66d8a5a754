package dev.cutover.engine.preflight;

import dev.cutover.engine.api.Figures;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.HourRange;
import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.repair.OlderHours;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far back history can be replayed: set by the shortest TTL of any source, not by intent. The
 * first hour of the range must outlive the backfill.
 */
final class ReprocessingWindowCheck {

  private static final Pattern TTL_DAYS = Pattern.compile("TTL\\s+(\\w+)\\s*\\+\\s*toInterval(Day|Hour|Month|Week)\\((\\d+)\\)");

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final TableSpec spec;

  ReprocessingWindowCheck(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.spec = on.spec();
  }

  Check check(Plan plan) {
    // A bounded repair reads the sources only for its affected hours; the carried ones come from v1.
    HourRange read = plan.recomputedRange();
    String what = plan.affected().isPresent() ? "the affected hours " + read : "the range " + read;
    for (TableSpec.Source source : spec.sources()) {
      String engineFull = sql.query("read the definition of " + source.table(), "SELECT engine_full FROM system.tables "
          + "WHERE database = ? AND name = ?", rs -> rs.getString(1), spec.database().name(), source.table().name())
          .stream().findFirst().orElse("");
      Matcher m = TTL_DAYS.matcher(engineFull);
      if (m.find()) {
        long amount = Long.parseLong(m.group(3));
        Duration ttl = switch (m.group(2)) {
          case "Hour" -> Duration.ofHours(amount);
          case "Week" -> Duration.ofDays(7 * amount);
          case "Month" -> Duration.ofDays(31 * amount);
          default -> Duration.ofDays(amount);
        };
        Instant expires = read.from().start().plus(ttl);
        Instant finish = Instant.now().plus(plan.estimates().duration()).plus(Duration.ofHours(1));
        if (expires.isBefore(finish)) {
          return new Check("reprocessing window", Status.FAIL, "Source " + source.table() + " keeps rows for "
              + ttl.toDays() + " days (TTL on " + m.group(1) + "): the hour " + read.from() + " of " + what
              + " expires at " + expires + ", before the backfill can finish.",
              fix(plan, HourPartition.containing(Instant.now().minus(ttl).plus(Duration.ofHours(2)))));
        }
      }
    }
    Optional<HourPartition> older = historyBefore(plan);
    if (older.isPresent()) {
      HourPartition oldest = older.get();
      return new Check("reprocessing window", Status.WARN, "Every source holds " + what + ", but " + spec.liveTable()
          + " holds hours from " + oldest + ", "
          + Figures.count(Duration.between(oldest.start(), plan.range().from().start()).toHours())
          + " hours before the range: " + spec.targetTable() + " will not hold them, so consumers no longer see them "
          + "once they read " + spec.targetTable() + " (the cutover gate stays closed while they remain).",
          olderHoursFix(plan, oldest));
    }
    return new Check("reprocessing window", Status.PASS, "Every source holds " + what
        + " and no TTL removes it before the backfill ends" + (plan.affected().isPresent()
            ? "; the carried hours are copied from " + spec.liveTable() + " and read no source." : "."), "");
  }

  /** How to get within the sources' TTL: recompute only hours later than {@code earliest}. */
  private static String fix(Plan plan, HourPartition earliest) {
    if (plan.affected().isPresent()) {
      return "Start the affected hours later than " + earliest + " (hours before them are carried from v1 as they "
          + "are, which reads no source), or extend the TTL first.";
    }
    return "Start the range later than " + earliest + "; or, if the bug touched only recent hours, bound the repair "
        + "to them (an affected window: the other hours are carried from v1 and read no source); or extend the TTL first.";
  }

  /** How to keep v1's hours before the range: carry them, or let them go on purpose. */
  private String olderHoursFix(Plan plan, HourPartition oldest) {
    return plan.affected().isPresent()
        ? "Start the range at " + oldest + ", so that they are carried from v1 unchanged."
        : "Start the range at " + oldest + "; where the sources no longer hold those hours, bound the repair to "
            + "the hours the bug touched (an affected window): the others are carried from v1 unchanged.";
  }

  /**
   * The oldest hour of v1 (on a cluster, this shard's v1) when it lies before every hour the repair
   * covers (this plan's range and the repair's earlier backfills): consumers would lose it at the cutover.
   */
  private Optional<HourPartition> historyBefore(Plan plan) {
    HourPartition covered = new Repairs(on).open().flatMap(Repair::firstHour)
        .filter(f -> f.isBefore(plan.range().from())).orElse(plan.range().from());
    return new OlderHours(sql, spec).before(covered);
  }
}
