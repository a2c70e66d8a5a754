package dev.cutover.engine.tables;

import dev.cutover.engine.api.HeldByAnotherProcessException;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.ledger.RepairContext;
import dev.cutover.engine.ledger.StateStore;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.util.List;

/**
 * The tables runs and samples leave behind when their process dies before it drops them: staging
 * and scratch tables, found by the prefixes {@link TableNames} gives them. Run records and the ledger
 * stay; they are the history.
 */
public final class Leftovers {

  private final Sql sql;
  private final StateStore state;
  private final TableSpec spec;

  public Leftovers(RepairContext on) {
    this.sql = on.sql();
    this.state = on.state();
    this.spec = on.spec();
  }

  /** Drops every leftover table of the spec's target; refused while a run writes it. */
  public List<String> drop() {
    String target = TableNames.target(spec);
    var active = state.activeRun(target, Instant.now());
    if (active.isPresent()) {
      throw HeldByAnotherProcessException.of("cleanup", active.get(), "Run " + active.get().id() + " is still running "
          + "on " + target + " and uses its staging tables;", "clean up after it ends.");
    }
    TableNames naming = TableNames.of(spec);
    List<String> names = sql.query("list leftover tables", "SELECT name FROM system.tables WHERE database = ? AND "
        + "(startsWith(name, ?) OR startsWith(name, ?))", rs -> rs.getString(1), spec.database().name(),
        naming.anyStagingPrefix(), naming.anySamplePrefix());
    for (String name : names) {
      sql.execute("drop " + name, "DROP TABLE IF EXISTS " + spec.qualified(Identifier.of(name)));
    }
    state.ensureSchema();
    state.audit(target, "cleanup", names.isEmpty() ? "nothing to drop" : "dropped " + names);
    return names;
  }
}
