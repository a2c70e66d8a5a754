package dev.cutover.app.demo;

import dev.cutover.engine.Statements;
import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.InvalidInputException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the demo world once per database: six months (by default) of trades, marks and FX rates
 * ending at the current hour, {@code pnl_v1} computed from them by the v1 transform, and one
 * incident that the bug does not explain. Seeding a world that exists does nothing; {@link #reset}
 * drops it and builds it again.
 *
 * <pre>{@code
 * SeedResult result = new Seeder(database, DemoWorld.in("trading")).seed(SeedOptions.defaults(),
 *     (phase, done, total) -> System.err.printf("%s: %d/%d%n", phase, done, total));
 * }</pre>
 */
public final class Seeder {

  /** The writer named in the write log for the history the seed loads. */
  public static final String WRITER = "seed";
  /** The writer named in the write log for the retried append that doubled the incident hour. */
  public static final String RETRY_WRITER = "retried-append";

  private static final int TRADE_BATCH_HOURS = 7 * 24;
  /** A view appends one part per hour of each insert, and the server takes at most 100 partitions per insert. */
  private static final int VIEW_FED_BATCH_HOURS = 3 * 24;

  private final Sql sql;
  private final DemoWorld world;
  private final StateStore store;
  private final Optional<Instant> incidentHour;

  public Seeder(Statements statements, DemoWorld world) {
    this(statements, world, Optional.empty());
  }

  /**
   * A seeder whose incident falls in {@code incidentHour} when given: the hour the world's first shard
   * chose, so that a sharded world has one incident hour, as {@code demo incident} prints it.
   */
  public Seeder(Statements statements, DemoWorld world, Optional<Instant> incidentHour) {
    this.sql = new Sql(statements);
    this.world = world;
    this.store = new StateStore(sql, world);
    this.incidentHour = incidentHour;
  }

  /** Builds the world, unless it is already seeded: then returns its state and writes nothing. */
  public SeedResult seed(SeedOptions options, SeedProgress progress) {
    long started = System.nanoTime();
    Optional<DemoState> existing = store.read();
    if (existing.isPresent()) {
      return result(false, existing.get(), started);
    }
    if (store.stateTableExists()) {
      drop(); // a seed that did not finish: start over
    } else {
      requireEmptyOrAbsent();
    }
    return build(options, progress, started);
  }

  /** Drops the world and builds it again. Refused while a live job holds it. */
  public SeedResult reset(SeedOptions options, SeedProgress progress) {
    long started = System.nanoTime();
    drop();
    return build(options, progress, started);
  }

  /**
   * Drops every table of the world (views first), keeping its database, which may be the one the
   * connection itself works in. Refused if the database holds tables but no demo state (it is not a
   * demo world), or while a live job holds the world.
   */
  public void drop() {
    if (!store.databaseExists()) {
      return;
    }
    if (!store.stateTableExists()) {
      requireEmptyOrAbsent();
    }
    store.read().filter(s -> LiveJob.isHeld(s, Instant.now())).ifPresent(s -> {
      throw new InvalidInputException("demo database", "A live job (" + s.writer() + ") is writing the demo world in "
          + world + "; stop it (Ctrl-C in its terminal) and try again.");
    });
    List<String> tables = sql.query("list the tables of " + world, "SELECT name FROM system.tables WHERE database = ? "
            + "ORDER BY engine = 'MaterializedView' DESC, engine = 'View' DESC, name = 'demo_state', name",
        rs -> rs.string(1), world.database().name());
    for (String table : tables) {
      sql.execute("drop " + world + "." + table, "DROP TABLE IF EXISTS " + world.database().quoted() + "."
          + Identifier.of(table).quoted() + " SYNC");
    }
  }

  private void requireEmptyOrAbsent() {
    List<String> tables = sql.query("list the tables of " + world, "SELECT name FROM system.tables WHERE database = ? "
        + "ORDER BY name LIMIT 5", rs -> rs.string(1), world.database().name());
    if (!tables.isEmpty()) {
      throw new InvalidInputException("demo database", "The database " + world + " already holds tables that are not "
          + "a demo world (" + String.join(", ", tables) + "); choose another database for the demo.");
    }
  }

  private SeedResult build(SeedOptions options, SeedProgress progress, long started) {
    Instant start = options.start();
    Instant end = options.end();
    Instant clock = end.plus(DemoState.ALLOWED_LATENESS);
    sql.execute("create the demo database " + world, "CREATE DATABASE IF NOT EXISTS " + world.database().quoted()
        + " ENGINE = Atomic");
    for (String schema : List.of("schema.sql", options.viewFed() ? "schema-mv.sql" : "schema-job.sql")) {
      for (String statement : SqlTemplate.resource(schema).statements()) {
        sql.execute("create the demo tables", statement.replace("{db}", world.database().quoted()));
      }
    }
    Map<String, String> state = new LinkedHashMap<>();
    state.put(DemoState.SEED, Long.toString(options.seed()));
    state.put(DemoState.SCALE, Double.toString(options.scale()));
    state.put(DemoState.HISTORY_DAYS, Integer.toString(options.historyDays()));
    state.put(DemoState.HISTORY_START, DemoState.value(start));
    state.put(DemoState.LIVE_START, DemoState.value(end));
    state.put(DemoState.BUG_FROM, DemoState.value(options.bugFrom()));
    state.put(DemoState.LIVE, options.viewFed() ? DemoState.LIVE_VIEW : "job");
    state.put(DemoState.SEEDED, "started");
    store.write(state);

    Generator generator = new Generator(sql, world, options.seed(), options.scale(), options.viewFed());
    generator.instruments();
    // Trades: every event hour up to the current one, as far as they have arrived by the clock.
    int tradeHours = options.historyHours() + 1;
    for (int done = 0; done < tradeHours; ) {
      int batch = Math.min(options.viewFed() ? VIEW_FED_BATCH_HOURS : TRADE_BATCH_HOURS, tradeHours - done);
      generator.trades(start.plus(Hours.ONE.multipliedBy(done)), batch, start, clock, null);
      done += batch;
      progress.report("trades", done, tradeHours);
    }
    generator.marksAndRates(start, options.historyHours() + 1, null);
    progress.report("marks and FX rates", 1, 1);

    if (options.viewFed()) {
      // v1 was appended to by its view as the trades came in: nothing else to compute, and no incident.
      return finish(clock, Optional.empty(), started);
    }
    // v1 as the live job wrote it, a batch of days per statement (at most 96 partitions each); before a
    // bounded bug shipped, the live job computed what the corrected transform computes.
    PnlVersion v1 = PnlVersion.V1;
    int hours = options.historyHours();
    int correct = (int) Hours.between(start, options.bugFrom());
    for (int done = 0; done < hours; ) {
      int batch = Math.min(HourWriter.MAX_BATCH_HOURS, (done < correct ? correct : hours) - done);
      Instant from = start.plus(Hours.ONE.multipliedBy(done));
      PnlVersion logic = done < correct ? PnlVersion.V2 : v1;
      Map<String, Object> values = new LinkedHashMap<>(world.sources());
      values.put("window_start", from);
      values.put("window_end", from.plus(Hours.ONE.multipliedBy(batch)));
      sql.execute("compute the v1 history from " + Hours.iso(from),
          logic.transform().render(values).prefixed("INSERT INTO " + world.pnlV1().sql() + " "));
      done += batch;
      progress.report("pnl_v1", done, hours);
    }
    sql.execute("note the seeded hours", "INSERT INTO " + world.writes().sql() + " (hour, version, writer, mode, rows) "
        + "SELECT h.hour, ?, ?, 'insert', c.rows FROM (SELECT toDateTime(?, 'UTC') + toIntervalHour(number) AS hour "
        + "FROM numbers(?)) AS h LEFT JOIN (SELECT hour, count() AS rows FROM " + world.pnlV1().sql()
        + " GROUP BY hour) AS c ON c.hour = h.hour", v1.label(), WRITER, start.getEpochSecond(), hours);

    // A bounded bug keeps the incident before it: the bounded repair carries that hour as v1 has it.
    Optional<Instant> incident = new Incident(sql, world).write(options, start, end, options.bugDays() == 0
        ? Optional.empty() : Optional.of(options.bugFrom()), incidentHour);
    progress.report("incident", 1, 1);
    return finish(clock, incident, started);
  }

  private SeedResult finish(Instant clock, Optional<Instant> incident, long started) {
    Map<String, String> done = new LinkedHashMap<>();
    incident.ifPresent(hour -> done.put(DemoState.INCIDENT_HOUR, DemoState.value(hour)));
    done.put(DemoState.CLOCK, DemoState.value(clock));
    done.put(DemoState.WRITER, "");
    done.put(DemoState.SEEDED, DemoState.SEEDED_COMPLETE);
    store.write(done);
    return result(true, store.read().orElseThrow(), started);
  }

  private SeedResult result(boolean created, DemoState state, long started) {
    long trades = sql.queryLong("count trades", "SELECT count() FROM " + world.trades().sql());
    long[] v1 = sql.query("count pnl_v1", "SELECT count(), uniqExact(hour) FROM " + world.pnlV1().sql(),
        rs -> new long[] {rs.number(1), rs.number(2)}).getFirst();
    return new SeedResult(created, state, trades, v1[0], v1[1], Duration.ofNanos(System.nanoTime() - started));
  }
}
