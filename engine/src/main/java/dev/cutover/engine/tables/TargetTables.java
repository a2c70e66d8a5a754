package dev.cutover.engine.tables;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.sql.Sql;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The versioned target of a spec and the tables around it: what exists, its columns, its staging tables. */
public final class TargetTables {

  private final Sql sql;
  private final TableSpec spec;

  public TargetTables(Sql sql, TableSpec spec) {
    this.sql = sql;
    this.spec = spec;
  }

  public boolean exists(Identifier table) {
    return sql.queryLong("look up " + spec.database() + "." + table,
        "SELECT count() FROM system.tables WHERE database = ? AND name = ?", spec.database().name(), table.name()) > 0;
  }

  /** The engine name of a table ({@code MergeTree}, {@code View}, …), or empty when it does not exist. */
  public String engine(Identifier table) {
    return sql.query("look up " + table, "SELECT engine FROM system.tables WHERE database = ? AND name = ?",
        rs -> rs.getString(1), spec.database().name(), table.name()).stream().findFirst().orElse("");
  }

  public String partitionKey(Identifier table) {
    return sql.query("read the partition key of " + table,
        "SELECT partition_key FROM system.tables WHERE database = ? AND name = ?",
        rs -> rs.getString(1), spec.database().name(), table.name()).stream().findFirst().orElse("");
  }

  /**
   * Why {@code table}, a SummingMergeTree or AggregatingMergeTree, would fold its rows otherwise than
   * Cutover reads them: such an engine merges the rows of one sorting key, and Cutover compares a
   * version per hour and key. With the sorting key the time column and the keys, the two agree; with
   * fewer columns the engine would fold two keys into one row, with more it keeps rows Cutover sums.
   * Empty for any other engine, or when they agree.
   */
  public java.util.Optional<String> foldsOtherwise(Identifier table) {
    String engine = engine(table);
    if (!engine.equals("SummingMergeTree") && !engine.equals("AggregatingMergeTree")) {
      return java.util.Optional.empty();
    }
    String key = sql.query("read the sorting key of " + table, "SELECT sorting_key FROM system.tables WHERE "
        + "database = ? AND name = ?", rs -> rs.getString(1), spec.database().name(), table.name()).stream()
        .findFirst().orElse("");
    java.util.Set<String> sorting = new java.util.TreeSet<>();
    for (String part : key.split(",")) {
      if (!part.isBlank()) {
        sorting.add(part.strip().replace("`", ""));
      }
    }
    java.util.Set<String> expected = new java.util.TreeSet<>();
    expected.add(spec.timeColumn().name());
    spec.keys().forEach(k -> expected.add(k.name()));
    if (sorting.equals(expected)) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(spec.database() + "." + table + " is a " + engine + " ordered by (" + key + "): it "
        + "merges the rows of one sorting key, while Cutover compares one row per hour and key (" + String.join(", ",
            expected) + "), so the two would not agree on what a row is.");
  }

  /** The columns an INSERT writes (not MATERIALIZED, ALIAS or EPHEMERAL), in table order. */
  public List<Identifier> insertableColumns(Identifier table) {
    return sql.query("read the columns of " + table, "SELECT name FROM system.columns WHERE database = ? AND table = ? "
            + "AND default_kind NOT IN ('MATERIALIZED', 'ALIAS', 'EPHEMERAL') ORDER BY position",
        rs -> Identifier.of(rs.getString(1)), spec.database().name(), table.name());
  }

  /** Creates the target with the live table's structure, partitioning and ordering when it is absent; true if created. */
  public boolean createTargetIfAbsent() {
    if (exists(spec.targetTable())) {
      return false;
    }
    if (!exists(spec.liveTable())) {
      throw new InvalidInputException("spec.tables.live", "The live table " + spec.database() + "."
          + spec.liveTable() + " does not exist, so the target cannot be created with its structure; check "
          + "tables.live and database in the spec.");
    }
    sql.execute("create the target " + spec.targetTable(), "CREATE TABLE IF NOT EXISTS "
        + spec.qualified(spec.targetTable()) + " AS " + spec.qualified(spec.liveTable()));
    return true;
  }

  /**
   * Why v2 cannot take v1's parts as they are ({@code REPLACE PARTITION … FROM v1}), or empty when it can:
   * both tables need the same columns and types in the same order, the same engine, partition key,
   * sorting key and primary key. A v2 created by Cutover is created {@code AS} v1 and always can.
   */
  public java.util.Optional<String> cannotCarry() {
    String live = spec.database() + "." + spec.liveTable();
    String target = spec.database() + "." + spec.targetTable();
    if (!exists(spec.targetTable())) {
      return java.util.Optional.empty();
    }
    String shape = "SELECT engine, partition_key, sorting_key, primary_key FROM system.tables WHERE database = ? "
        + "AND name = ?";
    List<String> a = sql.queryOne("read how " + spec.liveTable() + " is stored", shape,
        rs -> List.of(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)), spec.database().name(),
        spec.liveTable().name());
    List<String> b = sql.queryOne("read how " + spec.targetTable() + " is stored", shape,
        rs -> List.of(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)), spec.database().name(),
        spec.targetTable().name());
    List<String> what = List.of("engine", "partition key", "sorting key", "primary key");
    for (int i = 0; i < what.size(); i++) {
      if (!a.get(i).equals(b.get(i))) {
        return java.util.Optional.of("The " + what.get(i) + " of " + target + " is '" + b.get(i) + "' but that of "
            + live + " is '" + a.get(i) + "', so the hours outside the affected window cannot be carried from "
            + live + " by REPLACE PARTITION; recreate " + target + " AS " + live + ", or recompute every hour "
            + "(leave out the affected window).");
      }
    }
    String cols = "SELECT groupArray(name || ' ' || type) FROM (SELECT name, type FROM system.columns WHERE "
        + "database = ? AND table = ? ORDER BY position)";
    String ca = sql.queryOne("read the columns of " + spec.liveTable(), cols, rs -> rs.getString(1),
        spec.database().name(), spec.liveTable().name());
    String cb = sql.queryOne("read the columns of " + spec.targetTable(), cols, rs -> rs.getString(1),
        spec.database().name(), spec.targetTable().name());
    if (!ca.equals(cb)) {
      return java.util.Optional.of("The columns of " + target + " (" + cb + ") are not those of " + live + " (" + ca
          + "), so the hours outside the affected window cannot be carried from " + live + " by REPLACE PARTITION; "
          + "recreate " + target + " AS " + live + ", or recompute every hour (leave out the affected window).");
    }
    return java.util.Optional.empty();
  }

  /** A staging table private to one worker of one run, with the target's structure. */
  public Identifier staging(String runId, int slot) {
    Identifier name = TableNames.of(spec).staging(runId, slot);
    sql.execute("create staging table " + name, "CREATE TABLE IF NOT EXISTS " + spec.qualified(name) + " AS "
        + spec.qualified(spec.targetTable()));
    return name;
  }

  /** Drops every staging table a run created. */
  public List<String> dropStaging(String runId) {
    List<String> names = sql.query("list staging tables", "SELECT name FROM system.tables WHERE database = ? "
        + "AND startsWith(name, ?)", rs -> rs.getString(1), spec.database().name(),
        TableNames.of(spec).stagingPrefix(runId));
    for (String name : names) {
      sql.execute("drop staging table " + name, "DROP TABLE IF EXISTS " + spec.qualified(Identifier.of(name)));
    }
    return names;
  }

  /** Whether a materialized view or another dependent reads {@code table}: an INSERT into it would fire them. */
  public boolean watched(Identifier table) {
    return sql.queryLong("look for dependents of " + table, "SELECT count() FROM system.tables WHERE database = ? AND "
        + "name = ? AND length(dependencies_table) > 0", spec.database().name(), table.name()) > 0;
  }

  /** The partition ids that hold rows now (active parts') in any of {@code tables}, in one read. */
  public Set<String> heldPartitions(Identifier... tables) {
    List<Object> values = new ArrayList<>(List.of(spec.database().name()));
    Arrays.stream(tables).map(Identifier::name).forEach(values::add);
    String names = Arrays.stream(tables).map(Identifier::toString).collect(Collectors.joining(" and "));
    String marks = String.join(", ", Collections.nCopies(tables.length, "?"));
    return new HashSet<>(sql.query("read the partitions of " + names, "SELECT DISTINCT partition_id FROM system.parts "
        + "WHERE database = ? AND table IN (" + marks + ") AND active", rs -> rs.getString(1), values.toArray()));
  }

  /** {@code `a`, `b`, `c`} */
  public static String columnList(List<Identifier> columns) {
    return columns.stream().map(Identifier::quoted).collect(Collectors.joining(", "));
  }
}
