package dev.cutover.engine.api;

import java.time.Instant;

/**
 * A dependent acknowledged for a backfill, as the audit trail keeps it: the line a run wrote when it
 * started (or resumed), before its first hour, saying that the operator accepted that this dependent
 * sees the replayed history, and why.
 *
 * @param dependent the dependent as {@code db.table}
 * @param reads the table it reads: the target or v1
 * @param reason why replaying history through it is safe, in the operator's words
 * @param actor the OS user who started the run, as the audit trail records every action
 */
public record SideEffectAcknowledgement(String dependent, String reads, String reason, String runId, String repairId,
    Instant at, String actor, String host) {}
