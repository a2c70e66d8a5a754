package dev.cutover.app.demo;

/** The demo's corrected transform recomputed from every trade, as a test compares a version of PnL with it. */
final class CorrectedTransform {

  private CorrectedTransform() {}

  /** Keys whose folded v2 row differs from the corrected transform of all of {@code world}'s trades, or that one side lacks. */
  static long mismatches(Sql sql, DemoWorld world) {
    return sql.queryLong("compare v2 with the transform of every trade", "SELECT count() FROM (SELECT hour, book, "
        + "instrument, currency, sum(quantity) AS q, sum(notional) AS n, sum(fees) AS f, sum(cash_pnl) AS c, "
        + "sum(trade_count) AS t FROM " + world.pnlV2().sql() + " GROUP BY hour, book, instrument, currency) AS v "
        + "FULL OUTER JOIN (SELECT toStartOfHour(event_time) AS hour, book, instrument, currency, "
        + "sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS q, sum(toInt64(quantity) * price) AS n, sum(fee) AS f, "
        + "sum(if(side = 'sell', 1, -1) * toInt64(quantity) * price) - sum(fee) AS c, count() AS t FROM "
        + world.trades().sql() + " GROUP BY hour, book, instrument, currency) AS s USING (hour, book, instrument, "
        + "currency) WHERE v.q != s.q OR v.n != s.n OR v.f != s.f OR v.c != s.c OR v.t != s.t");
  }
}
