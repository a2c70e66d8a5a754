package dev.cutover.engine;

import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.ReportStore;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;

/** What every step of the engine stands on: one server's pool, its statement runner and Cutover's own state. */
record Ground(Database database, Sql sql, StateStore store, ReportStore reports) {

  static Ground of(Database database) {
    Sql sql = database.sql();
    String working = database.server().database();
    return new Ground(database, sql, new StateStore(sql, working), new ReportStore(sql, working));
  }

  /** What a step of {@code spec}'s repair stands on, on this server. */
  RepairContext on(TableSpec spec) {
    return new RepairContext(sql, store, reports, spec);
  }
}
