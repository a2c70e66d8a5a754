package dev.cutover.engine.preflight;

import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import dev.cutover.engine.tables.TargetTables;
import java.util.regex.Pattern;

/**
 * The roles of the tables: consumers read a view over v1 that a cutover can exchange, and the
 * target is neither that view nor what consumers read already.
 */
final class RolesCheck {

  private final Sql sql;
  private final TableSpec spec;
  private final TargetTables tables;

  RolesCheck(Sql sql, TableSpec spec, TargetTables tables) {
    this.sql = sql;
    this.spec = spec;
    this.tables = tables;
  }

  Check check() {
    String view = tables.engine(spec.consumerView());
    if (view.isEmpty()) {
      return new Check("roles", Status.FAIL, "The consumer view " + spec.database() + "." + spec.consumerView()
          + " does not exist.", "Create it over " + spec.liveTable() + " (CREATE VIEW " + spec.consumerView()
          + " AS SELECT * FROM " + spec.consumerLive() + "), so that consumers can be switched in one step.");
    }
    if (!view.equals("View")) {
      return new Check("roles", Status.FAIL, spec.consumerView() + " is a " + view + ", not a view.",
          "Consumers must read a view that the cutover can exchange; point tables.consumer_view at one.");
    }
    String query = sql.query("read the consumer view", "SELECT as_select FROM system.tables WHERE database = ? AND name = ?",
        rs -> rs.getString(1), spec.database().name(), spec.consumerView().name()).getFirst();
    if (mentions(query, spec.consumerTarget().name())) {
      return new Check("roles", Status.FAIL, "Consumers already read " + spec.consumerTarget() + " through "
          + spec.consumerView() + "; rewriting it now would change what they see.",
          "Roll the cutover back first, or choose a new target in tables.target.");
    }
    return new Check("roles", Status.PASS, "Consumers read " + spec.consumerView() + " over " + spec.consumerLive()
        + "; the target " + spec.targetTable() + " is neither the consumer view nor the live version.", "");
  }

  private static boolean mentions(String query, String table) {
    return Pattern.compile("(?<![A-Za-z0-9_])`?" + Pattern.quote(table) + "`?(?![A-Za-z0-9_])").matcher(query).find();
  }
}
