package dev.cutover.engine.preflight;

import dev.cutover.engine.api.PreflightReport.Check;
import dev.cutover.engine.api.PreflightReport.Status;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Whether the current user may run every statement a backfill needs, read from {@code system.grants}. */
final class Privileges {

  record Grant(String access, String database, String table) {}

  private final Sql sql;
  private final TableSpec spec;
  private final String stateDatabase;

  Privileges(Sql sql, TableSpec spec, String stateDatabase) {
    this.sql = sql;
    this.spec = spec;
    this.stateDatabase = stateDatabase;
  }

  Check check() {
    return check(sql.query("read the grants of the current user", "SELECT access_type, database, table FROM "
        + "system.grants WHERE (user_name = currentUser() OR has(currentRoles(), role_name)) AND is_partial_revoke = 0",
        rs -> new Grant(rs.getString(1), rs.getString(2), rs.getString(3))));
  }

  Check check(List<Grant> grants) {
    String db = spec.database().name();
    Map<String, String[]> needed = new LinkedHashMap<>();
    for (TableSpec.Source s : spec.sources()) {
      needed.put("SELECT ON " + db + "." + s.table(), new String[] {"SELECT", db, s.table().name()});
    }
    needed.put("SELECT ON " + db + "." + spec.liveTable(), new String[] {"SELECT", db, spec.liveTable().name()});
    needed.put("CREATE TABLE ON " + db + ".*", new String[] {"CREATE TABLE", db, null});
    needed.put("INSERT ON " + db + ".*", new String[] {"INSERT", db, null});
    needed.put("TRUNCATE ON " + db + ".*", new String[] {"TRUNCATE", db, null});
    needed.put("DROP TABLE ON " + db + ".*", new String[] {"DROP TABLE", db, null});
    needed.put("ALTER DELETE ON " + db + "." + spec.targetTable(), new String[] {"ALTER DELETE", db, spec.targetTable().name()});
    needed.put("CREATE TABLE ON " + stateDatabase + ".*", new String[] {"CREATE TABLE", stateDatabase, null});
    needed.put("INSERT ON " + stateDatabase + ".*", new String[] {"INSERT", stateDatabase, null});
    needed.put("DROP TABLE ON " + stateDatabase + ".*", new String[] {"DROP TABLE", stateDatabase, null});
    List<String> missing = new ArrayList<>();
    needed.forEach((label, need) -> {
      if (grants.stream().noneMatch(g -> covers(g, need[0], need[1], need[2]))) {
        missing.add(label);
      }
    });
    if (!missing.isEmpty()) {
      return new Check("privileges", Status.FAIL, "User lacks " + String.join(", ", missing) + ".",
          "Ask an administrator to GRANT them (for example GRANT " + missing.getFirst() + " TO the user), then run "
              + "preflight again.");
    }
    return new Check("privileges", Status.PASS, "The user may read the sources, create, fill, replace into and drop "
        + "the target's tables, and write Cutover's state in " + stateDatabase + ".", "");
  }

  /** The parents of a privilege in ClickHouse's hierarchy that also grant it. */
  private static final Map<String, Set<String>> PARENTS = Map.of(
      "SELECT", Set.of("ALL", "READ"),
      "INSERT", Set.of("ALL", "WRITE"),
      "CREATE TABLE", Set.of("ALL", "CREATE"),
      "DROP TABLE", Set.of("ALL", "DROP"),
      "TRUNCATE", Set.of("ALL"),
      "ALTER DELETE", Set.of("ALL", "ALTER", "ALTER TABLE"));

  private static boolean covers(Grant g, String access, String database, String table) {
    boolean type = g.access().equals(access) || PARENTS.getOrDefault(access, Set.of()).contains(g.access());
    boolean db = g.database() == null || g.database().equals(database);
    boolean tbl = g.table() == null || (table != null && g.table().equals(table));
    return type && db && tbl;
  }
}
