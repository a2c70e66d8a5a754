package dev.cutover.engine.ledger;

import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;

/**
 * What a step of one target's repair stands on, on one server: the server's statements, Cutover's own records
 * there (runs, ledgers and repair records; stored reconciliations), and the spec of the target. One value instead
 * of the same four threaded through every step; on a cluster every node has its own.
 */
public record RepairContext(Sql sql, StateStore state, ReportStore reports, TableSpec spec) {

  /** The context of {@code spec} on the server {@code sql} reaches, whose records {@code state} keeps. */
  public static RepairContext of(Sql sql, StateStore state, TableSpec spec) {
    return new RepairContext(sql, state, new ReportStore(sql, state.database()), spec);
  }

  /**
   * The same context for one step that only reads, a preflight: each of its reads is sent to the server once
   * ({@link Sql#readingOnce}).
   */
  public RepairContext readingOnce() {
    Sql once = sql.readingOnce();
    return new RepairContext(once, state, new ReportStore(once, state.database()), spec);
  }

  /** The same server's context for another spec (a spec read again, or another shape of the same target). */
  public RepairContext with(TableSpec other) {
    return new RepairContext(sql, state, reports, other);
  }
}
