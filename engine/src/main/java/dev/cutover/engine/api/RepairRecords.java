package dev.cutover.engine.api;

import java.util.List;

/**
 * What one server keeps of a repair's past, read at once for a screen: the target's backfill runs (newest first),
 * its stored reconciliations (newest first), the dependents its runs were allowed to replay history through, and
 * the newest entries of the audit trail. On a sharded table every shard keeps its own.
 */
public record RepairRecords(List<RunRecord> runs, List<ReportSummary> reconciliations,
    List<SideEffectAcknowledgement> sideEffects, List<AuditEntry> audit) {

  public RepairRecords {
    runs = List.copyOf(runs);
    reconciliations = List.copyOf(reconciliations);
    sideEffects = List.copyOf(sideEffects);
    audit = List.copyOf(audit);
  }
}
