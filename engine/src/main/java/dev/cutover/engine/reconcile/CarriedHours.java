package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Diff.HourDiff;
import dev.cutover.engine.api.Diff.Total;
import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.HourFilter;
import dev.cutover.engine.tables.Readable;
import dev.cutover.engine.tables.SameFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hours a bounded repair carried from v1, compared hour by hour: those v1 and v2 hold in the same
 * files from the parts' metadata (and, for the charts, v1's totals, read after the verdict), the others row by
 * row as any hour.
 */
final class CarriedHours {

  private final Sql sql;
  private final TableSpec spec;
  private final Readable readable;

  CarriedHours(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
    this.readable = new Readable(sql, spec);
  }

  /**
   * The carried hours compared: those v1 and v2 hold in the same files from the parts' metadata alone, without their
   * totals ({@link #totals}); the others (a merge or a write since the carry) row by row, as any hour.
   *
   * @param hours every carried hour either version holds, compared
   * @param same the hours of them held in the same files, whose measure totals are still to be read
   */
  record Compared(List<HourDiff> hours, Map<HourPartition, SameFiles.Hour> same) {}

  Compared compare(Differ differ, Set<HourPartition> carried) {
    if (carried.isEmpty()) {
      return new Compared(List.of(), Map.of());
    }
    SameFiles.Proof proof = new SameFiles(sql, spec).of(spec.liveTable(), spec.targetTable(), carried);
    List<HourDiff> out = new ArrayList<>();
    // Both sides are v1's rows in the same files: the checksum of both is the files' fingerprint, and keys are not
    // counted (0): they are the same keys in the same files.
    proof.same().forEach((h, files) -> out.add(new HourDiff(h, files.rows(), files.rows(), 0, 0, files.fingerprint(),
        files.fingerprint(), List.of())));
    out.addAll(differ.hours(spec.liveTable(), spec.targetTable(), proof.unproven()));
    return new Compared(out, proof.same());
  }

  /**
   * {@link #compare} on a thread of its own, beside the caller's reads of the recomputed hours; with months of
   * carried hours the parts' metadata alone is read, and the verdict need not wait behind it.
   */
  java.util.concurrent.CompletableFuture<Compared> beside(Differ differ, Set<HourPartition> carried) {
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> compare(differ, carried),
        task -> Thread.ofVirtual().name("reconcile-carried").start(task));
  }

  /** What {@link #beside} found, once it has; its failure is the caller's, as if it had run the reads itself. */
  static Compared join(java.util.concurrent.CompletableFuture<Compared> carried) {
    try {
      return carried.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while comparing the carried hours", e);
    }
  }

  /**
   * The hours held in the same files in both versions ({@link SameFiles}), with their measure totals, without reading
   * v2 or hashing a row: both sides are v1's rows and totals, read once, for the charts; the checksum of both is the
   * files' fingerprint, and keys are not counted (0): they are the same keys in the same files. Months of hours
   * against the days a bounded repair recomputes, this is most of what its reconciliation reads, and none of it
   * decides the verdict: the reconciliation stores its verdict first and these after ({@link ReportRest}).
   */
  List<HourDiff> totals(Map<HourPartition, SameFiles.Hour> same) {
    if (same.isEmpty()) {
      return List.of();
    }
    Identifier v1 = spec.liveTable();
    // One range over all of them: a list of thousands of hours costs more per row than the few hours between.
    HourPartition first = same.keySet().stream().min(HourPartition::compareTo).orElseThrow();
    HourPartition last = same.keySet().stream().max(HourPartition::compareTo).orElseThrow();
    String time = spec.timeColumn().quoted();
    String where = time + " >= toDateTime(?, 'UTC') AND " + time + " < toDateTime(?, 'UTC')";
    List<Object> values = List.of(first.epochSecond(), last.plusHours(1).epochSecond());
    List<String> totals = new ArrayList<>();
    for (int i = 0; i < spec.measures().size(); i++) {
      totals.add("toFloat64(sum(" + spec.measures().get(i).quoted() + ")) AS _cutover_total_" + i);
    }
    String query = "SELECT toUnixTimestamp(toStartOfHour(" + spec.timeColumn().quoted() + ")) AS _cutover_h"
        + (totals.isEmpty() ? "" : ", " + String.join(", ", totals)) + " FROM " + readable.from(v1) + " WHERE " + where
        + " GROUP BY _cutover_h ORDER BY _cutover_h SETTINGS " + HourFilter.WHOLE_PARTITIONS;
    return sql.query("total the hours " + v1 + " and its carried copy share", query, rs -> {
      HourPartition h = HourPartition.ofEpochSecond(rs.getLong(1));
      SameFiles.Hour files = same.get(h);
      List<Total> t = new ArrayList<>();
      for (int i = 0; i < spec.measures().size(); i++) {
        double total = rs.getDouble(2 + i);
        t.add(new Total(spec.measures().get(i), total, total));
      }
      long rows = files == null ? 0 : files.rows();
      long fingerprint = files == null ? 0 : files.fingerprint();
      return new HourDiff(h, rows, rows, 0, 0, fingerprint, fingerprint, t);
    }, values.toArray()).stream().filter(d -> same.containsKey(d.hour())).toList();
  }

}
