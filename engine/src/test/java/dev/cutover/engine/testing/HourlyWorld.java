package dev.cutover.engine.testing;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.TableSpec;
import dev.cutover.engine.connect.Database;
import dev.cutover.engine.spec.SpecLoader;
import dev.cutover.engine.sql.Sql;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small hourly world that is not PnL, to prove the engine is generic: raw {@code clicks}, a live
 * table {@code visits_v1} with a units bug (milliseconds divided by 100 instead of 1000), the consumer
 * view {@code visits}, and a spec whose corrected transform divides by 1000. Some hours have no
 * clicks at all.
 */
public final class HourlyWorld {

  public static final int PER_HOUR = 40;
  /** The last hours of a range of clicks are never left empty: tests work near the live edge. */
  static final int FULL_LAST_HOURS = 6;

  public final Database db;
  public final Sql sql;
  public final String database;
  public final HourPartition first;
  /** The newest hour v1 holds; {@link #advance} moves it. */
  public HourPartition liveEdge;
  private String clicksFilter = "1";

  private HourlyWorld(Database db, HourPartition first, HourPartition liveEdge) {
    this.db = db;
    this.sql = new Sql(db.dataSource());
    this.database = db.server().database();
    this.first = first;
    this.liveEdge = liveEdge;
  }

  /** {@code days} of history ending with the hour before the current one (the live edge). */
  public static HourlyWorld create(Database db, int days) {
    return create(db, days, "1");
  }

  /**
   * The world's part whose clicks satisfy {@code clicksFilter}, a condition on {@code site}: one shard's
   * part of a world sharded by site.
   */
  public static HourlyWorld create(Database db, int days, String clicksFilter) {
    HourPartition edge = HourPartition.containing(Instant.now()).plusHours(-1);
    HourPartition first = edge.plusHours(-(days * 24L) + 1);
    HourlyWorld w = new HourlyWorld(db, first, edge);
    w.clicksFilter = clicksFilter;
    w.sql.execute("create clicks", "CREATE TABLE clicks (ts DateTime('UTC'), site LowCardinality(String), "
        + "user_id UInt32, duration_ms UInt32) ENGINE = MergeTree PARTITION BY toDate(ts) ORDER BY (ts, site)");
    w.sql.execute("create visits_v1", "CREATE TABLE visits_v1 (hour DateTime('UTC'), site String, clicks UInt64, "
        + "users UInt64, duration_s Float64) ENGINE = MergeTree PARTITION BY toStartOfHour(hour) ORDER BY (hour, site)");
    w.sql.execute("create visits", "CREATE VIEW visits AS SELECT * FROM visits_v1");
    w.addClicks(first, edge.plusHours(1));
    w.sql.execute("write v1", "INSERT INTO visits_v1 " + transform("100").replace("{window_start:DateTime}",
        "toDateTime(?, 'UTC')").replace("{window_end:DateTime}", "toDateTime(?, 'UTC')")
        + " SETTINGS max_partitions_per_insert_block = 10000", first.epochSecond(), edge.plusHours(1).epochSecond());
    return w;
  }

  /**
   * The {@code n}-th hour from the first (0 is the first) that holds rows: {@link #addClicks} leaves
   * every 37th hour empty, the first five hours after the world's first among them.
   */
  public HourPartition busyHour(int n) {
    HourPartition h = busyFrom(first);
    for (int seen = 0; seen < n; seen++) {
      h = busyFrom(h.plusHours(1));
    }
    return h;
  }

  /** The first hour at or after {@code h} that holds rows (see {@link #busyHour}). */
  public HourPartition busyFrom(HourPartition h) {
    HourPartition busy = h;
    while (empty(busy)) {
      busy = busy.plusHours(1);
    }
    return busy;
  }

  /** Whether hour {@code h} holds rows (see {@link #busyHour}). */
  public boolean busy(HourPartition h) {
    return !empty(h);
  }

  private boolean empty(HourPartition h) {
    return ((h.epochSecond() - first.epochSecond()) / 3600) % 37 == 5 && !h.equals(first)
        && h.isBefore(liveEdge.plusHours(1 - FULL_LAST_HOURS));
  }

  /**
   * Inserts the clicks of {@code [from, to)}; every 37th hour (counted from the world's first, five
   * hours in) has none, except the first and the last six, so that the world's edges, and the hours
   * near the live edge that tests double or drop, do not move with the wall clock. Counted from the
   * first hour, not from the epoch: an hour a fixed number of hours from the world's first or its live
   * edge is empty at every time of day or at none, so a test that picks one fails every run, not one
   * hour in 37.
   */
  public void addClicks(HourPartition from, HourPartition to) {
    long hours = (to.epochSecond() - from.epochSecond()) / 3600;
    sql.execute("generate clicks", "INSERT INTO clicks SELECT toDateTime(? + intDiv(number, ?) * 3600 "
        + "+ cityHash64(number, 7) % 3600, 'UTC') AS ts, ['north', 'south', 'east', 'west', 'web'][1 + cityHash64(number, 1) % 5] "
        + "AS site, cityHash64(number, 2) % 500, cityHash64(number, 3) % 60000 FROM numbers(?) "
        + "WHERE (intDiv(toInt64(toUInt32(ts)) - ?, 3600) % 37 != 5 OR intDiv(number, ?) = 0 OR intDiv(number, ?) >= ?) "
        + "AND (" + clicksFilter + ")",
        from.epochSecond(), PER_HOUR, hours * PER_HOUR, first.epochSecond(), PER_HOUR, PER_HOUR, hours - FULL_LAST_HOURS);
  }

  static String transform(String divisor) {
    return "SELECT toStartOfHour(ts) AS hour, toString(site) AS site, count() AS clicks, uniqExact(user_id) AS users, "
        + "sum(duration_ms) / " + divisor + " AS duration_s FROM clicks "
        + "WHERE ts >= {window_start:DateTime} AND ts < {window_end:DateTime} GROUP BY hour, site";
  }

  public String specYaml() {
    return """
        spec: 1
        name: visits
        database: %s
        tables:
          live: visits_v1
          target: visits_v2
          consumer_view: visits
        time_column: hour
        keys: [site]
        measures: [clicks, users, duration_s]
        sources:
          - table: clicks
            time_column: ts
        transform: |
          %s
        expected_differences:
          - name: duration_units
            where: v1.duration_s != 0
            delta:
              duration_s: -0.9 * v1.duration_s
            tolerance: 0.000001
            why: v1 divided milliseconds by 100 instead of 1000
        throttle:
          concurrency: 2
          batch_hours: 6
        boundary:
          safety_margin_hours: 3
        reconciliation:
          minimum_overlap_hours: 3
        retention:
          consumers:
            - name: dashboards
              cache_lifetime: 12h
          safety_margin: 6h
        """.formatted(database, transform("1000").replace("FROM clicks", "FROM {clicks}"));
  }

  public TableSpec spec() {
    return SpecLoader.parse(specYaml(), "visits.yaml");
  }

  /**
   * The live job goes on for {@code hours} more hours: their clicks arrive and v1 is written for each;
   * when {@code v2From} is given, the corrected live writer writes v2 for each too, from that hour on.
   */
  public void advance(int hours, java.util.Optional<HourPartition> v2From) {
    HourPartition from = liveEdge.plusHours(1);
    HourPartition to = from.plusHours(hours);
    addClicks(from, to);
    for (HourPartition h = from; h.isBefore(to); h = h.plusHours(1)) {
      sql.execute("write v1", "INSERT INTO visits_v1 " + transform("100").replace("{window_start:DateTime}",
          "toDateTime(?, 'UTC')").replace("{window_end:DateTime}", "toDateTime(?, 'UTC')"), h.epochSecond(),
          h.plusHours(1).epochSecond());
    }
    liveEdge = to.plusHours(-1);
    v2From.ifPresent(b -> writeLiveV2(b.isBefore(from) ? from : b, to));
  }

  /**
   * A bug bounded to {@code affected}: v1 is rewritten with the corrected logic everywhere else, so a
   * bounded repair of those hours makes v2 what a full recompute would.
   */
  public void boundTheBugTo(dev.cutover.engine.api.HourRange affected) {
    sql.execute("empty v1", "TRUNCATE TABLE visits_v1");
    writeV1(first, affected.from(), "1000");
    writeV1(affected.from(), affected.to(), "100");
    writeV1(affected.to(), liveEdge.plusHours(1), "1000");
  }

  private void writeV1(HourPartition from, HourPartition to, String divisor) {
    sql.execute("write v1", "INSERT INTO visits_v1 " + transform(divisor).replace("{window_start:DateTime}",
        "toDateTime(?, 'UTC')").replace("{window_end:DateTime}", "toDateTime(?, 'UTC')")
        + " SETTINGS max_partitions_per_insert_block = 10000", from.epochSecond(), to.epochSecond());
  }

  /**
   * One more click for {@code site} in v1's {@code hour}, written the way a writer rewrites an hour: the hour
   * as it should be, swapped in whole with {@code REPLACE PARTITION}. (An {@code ALTER TABLE … UPDATE} waits
   * for the server's background mutation, about ten seconds a statement here.)
   */
  public void bumpClicks(HourPartition hour, String site) {
    sql.execute("drop scratch", "DROP TABLE IF EXISTS visits_scratch");
    sql.execute("create scratch", "CREATE TABLE visits_scratch AS visits_v1");
    sql.execute("the hour, changed", "INSERT INTO visits_scratch SELECT * REPLACE (clicks + (site = ?) AS clicks) "
        + "FROM visits_v1 WHERE hour = toDateTime(?, 'UTC')", site, hour.epochSecond());
    sql.execute("swap it in", "ALTER TABLE visits_v1 REPLACE PARTITION ID '" + hour.partitionId()
        + "' FROM visits_scratch");
    sql.execute("drop scratch", "DROP TABLE visits_scratch");
  }

  /** What the corrected live writer does: writes v2's hours {@code [from, to)} with the corrected transform. */
  public void writeLiveV2(HourPartition from, HourPartition to) {
    sql.execute("create v2", "CREATE TABLE IF NOT EXISTS visits_v2 AS visits_v1");
    for (HourPartition h = from; h.isBefore(to); h = h.plusHours(1)) {
      sql.execute("write live v2", "INSERT INTO visits_v2 " + transform("1000").replace("{window_start:DateTime}",
          "toDateTime(?, 'UTC')").replace("{window_end:DateTime}", "toDateTime(?, 'UTC')"), h.epochSecond(),
          h.plusHours(1).epochSecond());
    }
  }

  /** Per-hour checksums (rows and checksum) of a table of this world, over {@code [from, to)}. */
  public Map<HourPartition, String> checksums(String table, HourPartition from, HourPartition to) {
    Map<HourPartition, String> out = new TreeMap<>();
    sql.query("checksum " + table, "SELECT toUnixTimestamp(hour) h, count(), reinterpretAsInt64(sum(cityHash64(hour, site, clicks, users, "
            + "duration_s))) FROM " + table + " WHERE hour >= toDateTime(?, 'UTC') AND hour < toDateTime(?, 'UTC') "
            + "GROUP BY h ORDER BY h",
        rs -> out.put(HourPartition.ofEpochSecond(rs.getLong(1)), rs.getLong(2) + ":" + rs.getLong(3)),
        from.epochSecond(), to.epochSecond());
    return out;
  }

  /** The corrected history computed from scratch in one statement, into a fresh table. */
  public Map<HourPartition, String> expected(HourPartition from, HourPartition to) {
    sql.execute("drop expected", "DROP TABLE IF EXISTS visits_expected");
    sql.execute("create expected", "CREATE TABLE visits_expected AS visits_v1");
    sql.execute("compute expected", "INSERT INTO visits_expected " + transform("1000")
            .replace("{window_start:DateTime}", "toDateTime(?, 'UTC')").replace("{window_end:DateTime}", "toDateTime(?, 'UTC')")
            + " SETTINGS max_partitions_per_insert_block = 10000", from.epochSecond(), to.epochSecond());
    return checksums("visits_expected", from, to);
  }
}
