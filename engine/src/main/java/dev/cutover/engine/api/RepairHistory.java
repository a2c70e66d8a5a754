package dev.cutover.engine.api;

import java.util.List;
import java.util.Map;

/**
 * What a repair keeps of its past over its nodes, read at once: its backfill runs, stored reconciliations, the
 * dependents its runs were allowed to replay history through, and the newest entries of its audit trail, each
 * naming the node that keeps it, newest first. On a cluster every node keeps its own and the lists are merged; a
 * node that did not answer is left out and named with why in {@code silent}, so that the others still show.
 */
public record RepairHistory(List<OnNode<RunRecord>> runs, List<OnNode<ReportSummary>> reconciliations,
    List<OnNode<SideEffectAcknowledgement>> sideEffects, List<OnNode<AuditEntry>> audit, Map<ShardRef, String> silent) {

  public RepairHistory {
    runs = List.copyOf(runs);
    reconciliations = List.copyOf(reconciliations);
    sideEffects = List.copyOf(sideEffects);
    audit = List.copyOf(audit);
    silent = Map.copyOf(silent);
  }

  /** One server's records, as the history of a repair whose node set is that server alone. */
  public static RepairHistory here(RepairRecords r) {
    return new RepairHistory(here(r.runs()), here(r.reconciliations()), here(r.sideEffects()), here(r.audit()),
        Map.of());
  }

  private static <T> List<OnNode<T>> here(List<T> values) {
    return values.stream().map(OnNode::here).toList();
  }
}
