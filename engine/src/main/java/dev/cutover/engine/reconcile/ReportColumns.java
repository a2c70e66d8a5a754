package dev.cutover.engine.reconcile;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.sql.Sql;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reconciliation alone does not say and a report needs: the names of the key columns, for the
 * headers of its tables, and each measure's ClickHouse type, so that a {@code Decimal(18, 4)} prints
 * as a decimal of that scale. Without them ({@link #unknown()}) a report still reads well: keys are
 * headed "key 1", "key 2", and values print as the shortest decimals their numbers stand for.
 *
 * <pre>{@code
 * ReportColumns columns = ReportColumns.read(session.database(), spec);
 * ReportExport.write(reconciliation, columns, Path.of("report.html"));
 * }</pre>
 *
 * @param keys the spec's key columns, in order; empty when unknown
 * @param types each measure's ClickHouse type, as {@code system.columns} names it
 */
public record ReportColumns(List<Identifier> keys, Map<Identifier, String> types) {

  public ReportColumns {
    keys = List.copyOf(keys);
    types = Map.copyOf(types);
  }

  /** Columns of a report made from a reconciliation alone. */
  public static ReportColumns unknown() {
    return new ReportColumns(List.of(), Map.of());
  }

  /**
   * The spec's key columns and the types of its measures, read from v1 (or from v2 once v1 is
   * dropped). Reads the server: call it off the UI thread.
   */
  public static ReportColumns read(Database database, TableSpec spec) {
    Map<String, Map<Identifier, String>> byTable = new HashMap<>();
    new Sql(database.dataSource()).query("read the column types of " + spec.liveTable() + " and " + spec.targetTable(),
        "SELECT table, name, type FROM system.columns WHERE database = ? AND table IN (?, ?)",
        rs -> byTable.computeIfAbsent(rs.getString(1), t -> new HashMap<>()).put(Identifier.of(rs.getString(2)),
            rs.getString(3)), spec.database().name(), spec.liveTable().name(), spec.targetTable().name());
    Map<Identifier, String> live = byTable.getOrDefault(spec.liveTable().name(), Map.of());
    Map<Identifier, String> target = byTable.getOrDefault(spec.targetTable().name(), Map.of());
    Map<Identifier, String> types = new LinkedHashMap<>();
    for (Identifier m : spec.measures()) {
      String type = live.getOrDefault(m, target.get(m));
      if (type != null) {
        types.put(m, type);
      }
    }
    return new ReportColumns(spec.keys(), types);
  }

  /** The ClickHouse type of a measure, or empty when it is not known. */
  public String type(Identifier measure) {
    return types.getOrDefault(measure, "");
  }

  /** The header of the {@code index}-th key column (from 0). */
  public String keyName(int index) {
    return index < keys.size() ? keys.get(index).name() : "key " + (index + 1);
  }
}
