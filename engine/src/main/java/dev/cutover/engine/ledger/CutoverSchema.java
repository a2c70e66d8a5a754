package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.sql.Sql;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cutover's own tables in the working database, brought up to date once per version. The version is the
 * digest of the schema scripts themselves, so a script that changes is a new version without anyone counting.
 * Once a version's scripts have run, a row in {@code schema_version} says so, and every later command reads
 * that row and the table names (two reads) instead of running DDL: on a full disk an {@code ALTER … IF NOT
 * EXISTS} that changes nothing can still leave a table's definition empty (see {@link
 * dev.cutover.engine.sql.DiskSpace}). Within a process the answer is kept per server and database.
 */
public final class CutoverSchema {

  private static final List<String> SCRIPT_NAMES = List.of("state-tables.sql", "report-tables.sql", "repair-log.sql",
      "schema-version.sql");
  private static final List<SchemaScript> SCRIPTS = SCRIPT_NAMES.stream().map(SchemaScript::resource).toList();

  /** This build's version of Cutover's own tables: the first 16 hex digits of the scripts' SHA-256. */
  public static final String VERSION = digest();

  /** Every table the scripts create. */
  static final Set<String> TABLES = tables();

  /** Per server connection, the databases known to be at {@link #VERSION}. */
  private static final Map<Sql, Set<String>> CURRENT = Collections.synchronizedMap(new WeakHashMap<>());

  private CutoverSchema() {}

  /**
   * Makes sure the working database holds Cutover's tables at this version: when they are, two reads and no
   * DDL; when not (a new database, tables an earlier version made, a table a recovery set aside), the scripts
   * run (each statement may run again on what an earlier version made) and the version is recorded.
   */
  public static void ensure(Sql sql, Identifier database) {
    Set<String> known = CURRENT.computeIfAbsent(sql, k -> ConcurrentHashMap.newKeySet());
    if (known.contains(database.name())) {
      return;
    }
    if (!current(sql, database)) {
      for (SchemaScript script : SCRIPTS) {
        script.run(sql, database);
      }
      sql.execute("record the version of Cutover's tables", "INSERT INTO " + database.quoted() + ".schema_version "
          + "(version, at, by, tool) VALUES (?, fromUnixTimestamp64Milli(?, 'UTC'), ?, ?)", VERSION,
          Instant.now().toEpochMilli(), Operator.user(), Operator.toolVersion());
    }
    known.add(database.name());
  }

  /**
   * For a read of tables that exist: brings them to this version when they are older, and answers true. On a disk
   * that is full the tables are read as they are, whatever their version: a read must work when nothing can be
   * written, and at this version nothing needs to be.
   */
  static boolean readable(Sql sql, Identifier database) {
    try {
      ensure(sql, database);
    } catch (dev.cutover.engine.api.QueryFailedException e) {
      if (e.errorCode() != dev.cutover.engine.api.ErrorCodes.NOT_ENOUGH_SPACE) {
        throw e;
      }
    }
    return true;
  }

  /** Whether every table is there and the newest recorded version is this one; reads only. */
  public static boolean current(Sql sql, Identifier database) {
    Set<String> present = new LinkedHashSet<>(sql.query("list Cutover's tables", "SELECT name FROM system.tables "
        + "WHERE database = ?", rs -> rs.getString(1), database.name()));
    if (!present.containsAll(TABLES)) {
      return false;
    }
    List<String> recorded = sql.query("read the version of Cutover's tables", "SELECT argMax(version, at) FROM "
        + database.quoted() + ".schema_version", rs -> rs.getString(1));
    return !recorded.isEmpty() && VERSION.equals(recorded.getFirst());
  }

  /** Whether {@code table} is one of Cutover's own tables. */
  public static boolean owns(String table) {
    return TABLES.contains(table);
  }

  /** Forgets what this process knew of {@code database} on {@code sql}: the next call reads again. */
  public static void forget(Sql sql, Identifier database) {
    Set<String> known = CURRENT.get(sql);
    if (known != null) {
      known.remove(database.name());
    }
  }

  private static String digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (SchemaScript s : SCRIPTS) {
        for (SchemaScript.Step step : s.steps()) {
          sha.update(step.text().getBytes(StandardCharsets.UTF_8));
          sha.update((byte) '\n');
        }
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Set<String> tables() {
    Set<String> out = new LinkedHashSet<>();
    var create = java.util.regex.Pattern.compile("(?i)^CREATE TABLE IF NOT EXISTS \\{db}\\.([A-Za-z_][A-Za-z0-9_]*)");
    for (SchemaScript s : SCRIPTS) {
      for (SchemaScript.Step step : s.steps()) {
        var m = create.matcher(step.text());
        if (m.find()) {
          out.add(m.group(1));
        }
      }
    }
    return Collections.unmodifiableSet(out);
  }

  /** The scripts, in the order they run. */
  static List<SchemaScript> scripts() {
    return SCRIPTS;
  }
}
