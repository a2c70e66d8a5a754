package dev.cutover.engine.api;

import java.time.Instant;

/** One action in the audit trail: when, who, on which run or table, what. */
public record AuditEntry(Instant at, String actor, String host, String subject, String action, String detail) {}
