package dev.cutover.app.demo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The demo's state in ClickHouse: an append-only log of {@code key = value} in {@code demo_state},
 * where the newest value of each key wins. Each writer appends only the keys it owns (the live job
 * its clock, {@code deploy-v2} the boundary), so two processes never overwrite each other's news.
 */
final class StateStore {

  private final Sql sql;
  private final DemoWorld world;

  StateStore(Sql sql, DemoWorld world) {
    this.sql = sql;
    this.world = world;
  }

  /** Whether the world's database exists. */
  boolean databaseExists() {
    return sql.queryLong("check for the demo database", "SELECT count() FROM system.databases WHERE name = ?",
        world.database().name()) > 0;
  }

  /** Whether the world's database has the state table (it exists and a seed at least began). */
  boolean stateTableExists() {
    return sql.queryLong("check for the demo state", "SELECT count() FROM system.tables WHERE database = ? AND name = ?",
        world.database().name(), world.state().table().name()) > 0;
  }

  /** The newest value of every key, or an empty map when the world has no state table. */
  Map<String, String> values() {
    if (!stateTableExists()) {
      return Map.of();
    }
    List<String[]> rows = sql.query("read the demo state", "SELECT key, argMax(value, written_at) FROM "
        + world.state().sql() + " GROUP BY key", rs -> new String[] {rs.string(1), rs.string(2)});
    Map<String, String> values = new HashMap<>();
    rows.forEach(r -> values.put(r[0], r[1]));
    return values;
  }

  /** The state of a completely seeded world. */
  Optional<DemoState> read() {
    return DemoState.from(values());
  }

  void write(Map<String, String> values) {
    if (values.isEmpty()) {
      return;
    }
    List<Object> params = new ArrayList<>();
    values.forEach((k, v) -> {
      params.add(k);
      params.add(v);
    });
    String rows = values.keySet().stream().map(k -> "(?, ?)").collect(Collectors.joining(", "));
    sql.execute("save the demo state", "INSERT INTO " + world.state().sql() + " (key, value) VALUES " + rows,
        params.toArray());
  }

  void write(String key, String value) {
    write(Map.of(key, value));
  }

  static String now() {
    return DemoState.value(Instant.now());
  }
}
