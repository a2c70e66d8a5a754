package dev.cutover.engine.preflight;

import dev.cutover.engine.api.Plan;
import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.DiskSpace;
import dev.cutover.engine.sql.Sql;

/** Whether the target's disks hold what the backfill needs at its peak, with the sizes it read. */
final class DiskCheck {

  private final Sql sql;
  private final TableSpec spec;

  DiskCheck(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  Check check(Plan plan) {
    String parts = "FROM system.parts WHERE active AND database = ? AND table = ? AND toUInt64OrZero(partition_id) >= ? "
        + "AND toUInt64OrZero(partition_id) < ?";
    Object[] where = {spec.database().name(), spec.liveTable().name(), plan.range().from().epochSecond(),
        plan.range().to().epochSecond()};
    long liveBytes = sql.queryLong("measure " + spec.liveTable(), "SELECT sum(bytes_on_disk) " + parts, where);
    long largestHour = sql.queryLong("measure the largest hour of " + spec.liveTable(), "SELECT max(b) FROM (SELECT "
        + "sum(bytes_on_disk) AS b " + parts + " GROUP BY partition_id)", where);
    long free = sql.disk().freeFor(spec.database(), spec.liveTable());
    return check(needed(liveBytes, largestHour, plan.hours().size(), plan.settings().batchHours(),
        plan.settings().concurrency()), liveBytes, free, DiskSpace.reserve());
  }

  /**
   * What a backfill needs on disk at its peak: v2 about as large as v1 over the range; each batch in
   * flight twice (its rows in staging, and the same parts hard-linked into v2 while a merge of them
   * writes its result); and room for a merge of the largest hour, which writes a new part before it
   * removes the old ones.
   */
  static long needed(long liveBytes, long largestHour, int hours, int batchHours, int concurrency) {
    long batch = liveBytes / Math.max(1, hours) * batchHours;
    return liveBytes + 2 * batch * concurrency + largestHour;
  }

  /**
   * The check of {@code free} bytes against what the backfill needs at its peak plus the {@code reserve} Cutover
   * keeps free on the server's disk ({@link DiskSpace}): a run that would eat into the reserve is refused before it
   * writes, and one that gets there anyway pauses until space returns.
   */
  static Check check(long needed, long liveBytes, long free, long reserve) {
    String sizes = "about " + mib(needed) + " needed (v1 holds " + mib(liveBytes) + " for the range) plus the reserve of "
        + mib(reserve) + " Cutover keeps free, " + mib(free) + " free";
    needed += reserve;
    if (free < needed) {
      return new Check("disk", Status.FAIL, "Not enough disk: " + sizes + ".", "Free space on the target's disks, "
          + "or backfill a shorter range at a time.");
    }
    if (free < needed + needed / 2) {
      return new Check("disk", Status.WARN, "Disk is tight: " + sizes + ".", "Watch free space during the run.");
    }
    return new Check("disk", Status.PASS, "Disk: " + sizes + ".", "");
  }

  private static String mib(long bytes) {
    return bytes < 10L << 20 ? (bytes >> 10) + " KiB" : (bytes >> 20) + " MiB";
  }
}
