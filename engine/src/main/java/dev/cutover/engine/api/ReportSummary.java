package dev.cutover.engine.api;

import java.time.Instant;

/**
 * The header of a stored reconciliation: enough for the cutover gate, the history screen and the
 * Reconcile screen's "stored" line, without reading its hours and keys back.
 */
public record ReportSummary(String id, String target, Reconciliation.Scope scope, String repairId, String specSha256,
    Instant created, HourRange window, HourPartition boundary, Reconciliation.Verdict verdict, long hours,
    long differingHours, long expectedKeys, long unexpectedKeys, long acknowledged, long coverageIssues) {}
