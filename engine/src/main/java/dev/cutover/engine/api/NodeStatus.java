package dev.cutover.engine.api;

import java.util.Optional;

/**
 * One node's part of a repair at a glance: its repair record, its latest run, the version its consumers read, and
 * the newest declaration of its corrected live writer (the operator's word, not proof). Where the nodes disagree
 * (on B, on what consumers read) these lines say which.
 */
public record NodeStatus(Optional<Repair> repair, Optional<RunRecord> latestRun, Gate.Version reads,
    Optional<LiveWriterNote> declaredWriter) {}
