package dev.cutover.app.demo;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the raw inputs of the demo world inside ClickHouse with {@code INSERT … SELECT}: every value
 * is a hash of the seed and a row number, so the same window always yields the same rows, whether
 * the seed writes six months at once or the live job writes ten minutes.
 *
 * <p>A row belongs to a window by its <em>arrival</em>: trades arrive at their event time or (3%) up
 * to ten minutes later; a mark or an FX fixing arrives at its timestamp.
 */
final class Generator {

  private static final SqlTemplate INSTRUMENTS = SqlTemplate.resource("generate_instruments.sql");
  private static final SqlTemplate TRADES = SqlTemplate.resource("generate_trades.sql");
  private static final SqlTemplate MARKS = SqlTemplate.resource("generate_marks.sql");
  private static final SqlTemplate FX_RATES = SqlTemplate.resource("generate_fx_rates.sql");

  private final Sql sql;
  private final DemoWorld world;
  private final long seed;
  private final double scale;
  private final boolean feesApart;

  /**
   * @param feesApart whether the fees of the trades arrive as their own feed ({@link DemoWorld#fees()}), in an
   *     insert after the trades': the world whose v1 one materialized view per source feeds
   */
  Generator(Sql sql, DemoWorld world, long seed, double scale, boolean feesApart) {
    this.sql = sql;
    this.world = world;
    this.seed = seed;
    this.scale = scale;
    this.feesApart = feesApart;
  }

  /** The reference data: 300 instruments whose price waves depend on the seed. */
  void instruments() {
    insert("write the instruments", world.instruments(), INSTRUMENTS, Map.of(), null, Optional.empty());
  }

  /**
   * Trades of the event hours {@code [firstHour, firstHour + hours)} that arrive in
   * {@code [arrivalFrom, arrivalTo)}.
   */
  void trades(Instant firstHour, int hours, Instant arrivalFrom, Instant arrivalTo, String dedupToken) {
    Map<String, Object> window = Map.of("first_hour", firstHour, "hours", hours, "arrival_from", arrivalFrom,
        "arrival_to", arrivalTo);
    Optional<String> only = world.shard().map(DemoWorld.ShardOf::condition);
    insert("write trades", world.trades(), TRADES, window, dedupToken, only);
    if (feesApart) {
      // The same trades' fees, each fee-paying trade's, in an insert of their own: a view on fees sees this block.
      insert("write fees", world.fees(), TRADES, window, dedupToken == null ? null : dedupToken + "-fees",
          only.map(o -> o + " AND fee > 0").or(() -> Optional.of("fee > 0")), FEE_COLUMNS);
    }
  }

  /** What the fees feed keeps of a trade. */
  private static final String FEE_COLUMNS = "trade_id, event_time, book, instrument, currency, fee";

  /** Marks and FX fixings at the whole hours {@code [firstTime, firstTime + hours)}. */
  void marksAndRates(Instant firstTime, int hours, String dedupToken) {
    if (hours <= 0) {
      return;
    }
    Map<String, Object> window = Map.of("first_time", firstTime, "hours", hours);
    insert("write marks", world.marks(), MARKS, window, dedupToken, Optional.empty());
    insert("write FX rates", world.fxRates(), FX_RATES, window, dedupToken, Optional.empty());
  }

  /**
   * Everything that arrives in {@code [from, to)}: the trades of the hours it touches (including
   * late ones of the hour before) and the marks and fixings stamped inside it. Retrying the same
   * window with the same token writes nothing twice.
   */
  void arrivals(Instant from, Instant to, String dedupToken) {
    Instant firstHour = Hours.floor(from.minus(DemoState.ALLOWED_LATENESS));
    Instant lastHour = Hours.floor(to.minusSeconds(1));
    trades(firstHour, Hours.between(firstHour, lastHour) + 1, from, to, dedupToken);
    Instant firstTime = Hours.isWhole(from) ? from : Hours.floor(from).plus(Hours.ONE);
    int stamps = firstTime.isBefore(to) ? Hours.between(firstTime, Hours.floor(to.minusSeconds(1))) + 1 : 0;
    marksAndRates(firstTime, stamps, dedupToken);
  }

  /** Inserts the template's rows into {@code table}; with {@code only}, the rows that satisfy it (one shard's). */
  private void insert(String what, TableName table, SqlTemplate template, Map<String, Object> window,
      String dedupToken, Optional<String> only) {
    insert(what, table, template, window, dedupToken, only, "*");
  }

  /** As above, keeping {@code columns} of the template's rows. */
  private void insert(String what, TableName table, SqlTemplate template, Map<String, Object> window,
      String dedupToken, Optional<String> only, String columns) {
    Map<String, Object> values = new HashMap<>(world.sources());
    values.putAll(window);
    values.put("seed", seed);
    values.put("scale", scale);
    // The token makes a retried window a no-op (the tables keep a deduplication window); it is built
    // from numbers only, so it needs no quoting beyond the literal's.
    if (dedupToken != null && !dedupToken.matches("[a-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("deduplication token " + dedupToken);
    }
    String settings = dedupToken == null ? " " : " SETTINGS insert_deduplication_token = '" + dedupToken + "' ";
    var rows = template.render(values);
    if (only.isPresent() || !columns.equals("*")) {
      rows = rows.prefixed("SELECT " + columns + " FROM (").suffixed(")" + only.map(o -> " WHERE " + o).orElse(""));
    }
    sql.execute(what, rows.prefixed("INSERT INTO " + table.sql() + settings));
  }
}
