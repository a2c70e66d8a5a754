package dev.cutover.engine.cutover;

import dev.cutover.engine.api.Gate;
import dev.cutover.engine.api.GateClosedException;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.PhaseRefusedException;
import dev.cutover.engine.api.Repair;
import dev.cutover.engine.api.RepairPhase;
import dev.cutover.engine.api.Retention;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.api.V1Reader;
import dev.cutover.engine.ledger.Operator;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.repair.ConsumerView;
import dev.cutover.engine.repair.Repairs;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TableNames;
import dev.cutover.engine.tables.ViewWriters;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The end of a repair: how long v1 must be kept after the cutover (the longest consumer cache, the
 * reconciliation window and a margin), and dropping it once that is over (or earlier, with a written
 * reason).
 */
public final class Retirement {

  /** What this stands on: the server, its records and the spec. */
  private final RepairContext on;
  private final Sql sql;
  private final StateStore state;
  private final ReportStore reports;
  private final TableSpec spec;
  private final ConsumerView view;

  public Retirement(RepairContext on) {
    this.on = on;
    this.sql = on.sql();
    this.state = on.state();
    this.reports = on.reports();
    this.spec = on.spec();
    this.view = new ConsumerView(on.sql(), on.spec());
  }

  /** How long v1 must be kept after the cutover, from the spec's consumers and windows. */
  public Retention retention() {
    var consumer = spec.consumers().stream().max(Comparator.comparing(TableSpec.Consumer::cacheLifetime));
    Duration cache = consumer.map(TableSpec.Consumer::cacheLifetime).orElse(Duration.ZERO);
    Optional<Instant> cutoverAt = Optional.empty();
    boolean liveExists = view.liveExists();
    if (view.reads() == dev.cutover.engine.api.Gate.Version.V2) {
      cutoverAt = reports.swaps(TableNames.target(spec)).stream().filter(s -> s.action().equals("cutover"))
          .map(ReportStore.SwapRecord::at).max(Comparator.naturalOrder());
    }
    Duration total = cache.plus(spec.minimumOverlap()).plus(spec.retentionMargin());
    Optional<Instant> droppedAt = liveExists ? Optional.empty()
        : reports.swaps(TableNames.target(spec)).stream().filter(s -> s.action().equals("drop-v1"))
            .map(ReportStore.SwapRecord::at).max(Comparator.naturalOrder());
    return new Retention(cutoverAt, cache, consumer.map(TableSpec.Consumer::name).orElse("none"), spec.minimumOverlap(),
        spec.retentionMargin(), cutoverAt.map(t -> t.plus(total)), droppedAt);
  }

  /**
   * The statements that drop v1, exactly as {@link #dropV1} runs them, in order: the materialized views
   * that write v1 (its live writer, when that is a view: once v1 is gone, an insert into their source
   * would fail), the rollback handle, and v1.
   */
  public List<String> dropStatements() {
    List<String> statements = new ArrayList<>();
    for (ViewWriters.View writer : new ViewWriters(sql, spec).of(spec.liveTable())) {
      statements.add("DROP VIEW IF EXISTS " + Identifier.of(writer.database()).quoted() + "."
          + Identifier.of(writer.view()).quoted() + " SYNC");
    }
    statements.add("DROP VIEW IF EXISTS " + spec.qualified(view.handle()));
    statements.add("DROP TABLE IF EXISTS " + spec.qualified(spec.liveTable()));
    return statements;
  }

  /**
   * The tables that still use v1 and break when it is dropped: a drop refuses until each is
   * acknowledged by its {@code db.table}.
   */
  public List<V1Reader> v1Readers() {
    return new V1Readers(sql, spec, view.handle()).find();
  }

  /**
   * What {@link #dropV1} checks before it drops anything: v1 is still there, consumers read v2, the retention
   * horizon has passed (or the drop is forced with a reason), and every table that still uses v1 is acknowledged.
   * Refused as {@link #dropV1} would be; returns the tables that still use v1. Reads only.
   */
  public List<V1Reader> checkDrop(boolean force, String reason, List<String> acknowledged) {
    Retention r = retention();
    if (r.droppedAt().isPresent()) {
      throw new PhaseRefusedException("drop-v1", Optional.of(RepairPhase.V1_DROPPED), "v1 kept", spec.liveTable()
          + " was dropped already, at " + r.droppedAt().get() + ".", "");
    }
    if (r.cutoverAt().isEmpty()) {
      throw new PhaseRefusedException("drop-v1", Optional.empty(), "consumers on v2", "Consumers still read "
          + spec.liveTable() + "; v1 can be dropped only after the cutover.", "");
    }
    if (r.keepUntil().get().isAfter(Instant.now()) && !force) {
      String kept = "v1 must be kept until " + r.keepUntil().get() + " (the longest consumer cache, "
          + r.longestCacheConsumer() + " " + r.longestCache().toHours() + " h, plus the reconciliation window "
          + r.reconciliationWindow().toHours() + " h and a margin of " + r.margin().toHours() + " h)";
      throw new GateClosedException("drop-v1", List.of(new Gate.Condition("retention horizon", false, kept)), kept
          + "; dropping it earlier removes the rollback.", "Wait, or force the drop with a written reason.",
          List.of("force", "reason"));
    }
    if (force && (reason == null || reason.isBlank())) {
      throw new InvalidInputException("reason", "Dropping v1 before its retention horizon needs a written reason "
          + "(why it cannot wait), which goes to the audit trail.");
    }
    List<V1Reader> readers = new V1Readers(sql, spec, view.handle()).find();
    List<V1Reader> open = readers.stream().filter(u -> !acknowledged.contains(u.name())).toList();
    if (!open.isEmpty()) {
      boolean one = open.size() == 1;
      String uses = (one ? "This table still uses " : "These tables still use ") + spec.database() + "."
          + spec.liveTable() + (one ? " and breaks" : " and break") + " when it is dropped: " + open.stream()
          .map(V1Reader::toString).collect(java.util.stream.Collectors.joining(", ")) + ".";
      throw new GateClosedException("drop-v1", open.stream().map(u -> new Gate.Condition("v1 reader acknowledged",
          false, u.toString())).toList(), uses, "Repoint or drop " + (one ? "it" : "each") + " first, or acknowledge "
          + (one ? "it" : "each") + " by name (" + open.stream().map(V1Reader::name)
          .collect(java.util.stream.Collectors.joining(", ")) + ") to drop v1 anyway.", List.of("acknowledge"));
    }
    return readers;
  }

  /**
   * Drops v1 and the rollback handle, holding the repair meanwhile; refused before the retention
   * horizon unless forced with a reason, and while a table that still uses v1 is not acknowledged by
   * name in {@code acknowledged}. The repair ends: there is no way back.
   */
  public List<String> dropV1(boolean force, String reason, List<String> acknowledged) {
    Retention r = retention();
    List<V1Reader> readers = checkDrop(force, reason, acknowledged);
    Repairs repairs = new Repairs(on);
    Repair held = repairs.claim(Repair.Operation.DROP_V1, p -> p == RepairPhase.CUT_OVER, "consumers switched to v2");
    state.ensureSchema();
    reports.ensureSchema();
    List<String> dropped = new ArrayList<>();
    String why = (force ? "forced before " + r.keepUntil().get() + ": " + reason : "after the retention horizon "
        + r.keepUntil().get()) + (readers.isEmpty() ? "" : "; acknowledged that " + readers.stream()
        .map(V1Reader::toString).collect(java.util.stream.Collectors.joining(", ")) + " still used it");
    try {
      List<String> writers = new ViewWriters(sql, spec).of(spec.liveTable()).stream().map(ViewWriters.View::name)
          .toList();
      List<String> statements = dropStatements();
      for (int i = 0; i < statements.size(); i++) {
        String what = i < writers.size() ? writers.get(i) : i == statements.size() - 1
            ? spec.database() + "." + spec.liveTable() : spec.database() + "." + view.handle();
        sql.execute("drop " + what, statements.get(i));
        dropped.add(what);
      }
    } catch (RuntimeException e) {
      repairs.finish(held, view.liveExists() ? RepairPhase.CUT_OVER : RepairPhase.V1_DROPPED, "the drop of v1 failed: "
          + e.getMessage());
      throw e;
    }
    reports.recordSwap(new ReportStore.SwapRecord(TableNames.target(spec), "drop-v1", Instant.now(), Operator.user(),
        "DROP TABLE " + spec.qualified(spec.liveTable()), why));
    state.audit(TableNames.target(spec), "drop-v1", "dropped " + dropped + " " + why);
    repairs.finish(held, RepairPhase.V1_DROPPED, "dropped " + dropped + " " + why);
    return dropped;
  }
}
