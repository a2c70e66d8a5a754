package dev.cutover.engine.backfill;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.HourFilter;
import dev.cutover.engine.tables.Readable;
import dev.cutover.engine.tables.SameFiles;
import dev.cutover.engine.tables.TargetTables;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Carries hours a bounded bug did not touch from v1 into v2 unchanged: one {@code ALTER TABLE v2
 * REPLACE PARTITION … FROM v1} per statement of the run's {@link CarryLane}, which hard-links v1's parts
 * instead of recomputing them, so months cost seconds. Each carried hour is then recorded as v2 holds it: the fingerprint of the
 * files it shares with v1, read from the parts' metadata. The reconciliation and the cutover gate
 * hold v1 and v2 to being the same: a late write to v1 after the carry shows as a carried hour whose
 * v1 no longer matches.
 *
 * <p>An hour v1 does not hold empties v2's partition on purpose, as a computed hour with no rows does; an hour
 * neither holds is left out of the statement, being empty in both already.
 */
final class Carrier {

  private final Sql sql;
  private final TableSpec spec;
  private final List<Identifier> columns;
  private final HourPartition boundary;

  Carrier(Sql sql, TableSpec spec, List<Identifier> columns, HourPartition boundary) {
    this.sql = sql;
    this.spec = spec;
    this.columns = columns;
    this.boundary = boundary;
  }

  /** Carries {@code hours}, in order, and returns each hour's rows and checksum as v2 now holds them. */
  List<BatchWriter.HourOutput> carry(List<HourPartition> hours) {
    for (HourPartition h : hours) {
      if (!h.isBefore(boundary)) { // the live writer owns this hour: refuse, whatever the caller planned
        throw new IllegalStateException("refusing to carry hour " + h + ": it is at or after the boundary " + boundary);
      }
    }
    List<HourPartition> named = heldByEither(hours);
    if (!named.isEmpty()) {
      sql.execute("carry " + hours.size() + " hours from " + hours.getFirst() + " to " + hours.getLast().plusHours(1)
          + " from " + spec.liveTable(), carryStatement(spec, named));
    }
    // Only the backfill writes v2 below the boundary, so what v2 holds now is what v1 held at the carry.
    return held(hours);
  }

  /**
   * The hours of {@code hours} that v1 or v2 holds a part of, from the parts' metadata: an hour neither holds is
   * already as a carry would leave it (empty in both), and naming it costs the statement what a linked hour does
   * (the demo's six months hold some 8% of such hours). An hour v1 gains a part of after this read is not carried:
   * the proof after the statement, the reconciliation and the gate find it as they find a late write after a carry.
   */
  private List<HourPartition> heldByEither(List<HourPartition> hours) {
    java.util.Set<String> held = new TargetTables(sql, spec).heldPartitions(spec.liveTable(), spec.targetTable());
    return hours.stream().filter(h -> held.contains(h.partitionId())).toList();
  }

  /**
   * Rows and checksum of each of {@code hours} as v2 holds them. An hour v2 holds in v1's very files
   * (as a carry leaves it) is recorded from the parts' metadata, its checksum the files' fingerprint
   * ({@link SameFiles}): no row is read, so months cost what their metadata does. Any other hour (v1
   * written or merged in the instant since the carry, a lightweight delete) is read, in one statement.
   */
  private List<BatchWriter.HourOutput> held(List<HourPartition> hours) {
    Map<HourPartition, BatchWriter.HourOutput> outputs = new HashMap<>();
    SameFiles.Proof proof = new SameFiles(sql, spec).of(spec.liveTable(), spec.targetTable(), hours);
    proof.same().forEach((h, same) -> outputs.put(h, new BatchWriter.HourOutput(h, same.rows(), same.fingerprint())));
    List<HourPartition> read = proof.unproven();
    if (!read.isEmpty()) {
      List<Object> values = new java.util.ArrayList<>();
      String window = " WHERE " + HourFilter.of(spec.timeColumn(), read, values);
      sql.query("checksum the carried hours", BatchWriter.checksumQuery(new Readable(sql, spec).from(spec.targetTable()), window,
              columns, spec.timeColumn()),
          rs -> new BatchWriter.HourOutput(HourPartition.ofEpochSecond(rs.getLong(1)), rs.getLong(2), rs.getLong(3)),
          values.toArray()).forEach(o -> outputs.put(o.hour(), o));
    }
    return hours.stream().map(h -> outputs.getOrDefault(h, new BatchWriter.HourOutput(h, 0, 0))).toList();
  }

  /** Characters of a carry statement's text per hour, at most (an hour's clause and its separator). */
  static int textPerHour(TableSpec spec) {
    return ("REPLACE PARTITION ID '" + "9".repeat(16) + "' FROM " + spec.qualified(spec.liveTable()) + ", ").length();
  }

  static String carryStatement(TableSpec spec, List<HourPartition> hours) {
    String live = spec.qualified(spec.liveTable());
    return "ALTER TABLE " + spec.qualified(spec.targetTable()) + " "
        + hours.stream().map(h -> "REPLACE PARTITION ID '" + h.partitionId() + "' FROM " + live)
            .collect(Collectors.joining(", "))
        + " SETTINGS allow_replace_partition_from_empty_source = 1, log_comment = '" + BatchWriter.markerOf(spec)
        + "carry'";
  }
}
