package dev.cutover.app.demo;

/**
 * The view-fed demo's corrected transform recomputed from every trade and every fee, as a test compares a version of
 * PnL with it: positions and cash from the trades, fees (subtracted from the cash) from the fees feed.
 */
final class CorrectedTransform {

  private CorrectedTransform() {}

  /**
   * Keys whose folded v2 row differs from the corrected transform of all of {@code world}'s trades and fees, or that
   * one side lacks.
   */
  static long mismatches(Sql sql, DemoWorld world) {
    return sql.queryLong("compare v2 with the transform of every trade and fee", "SELECT count() FROM (SELECT hour, "
        + "book, instrument, currency, sum(quantity) AS q, sum(notional) AS n, sum(fees) AS f, sum(cash_pnl) AS c, "
        + "sum(trade_count) AS t FROM " + world.pnlV2().sql() + " GROUP BY hour, book, instrument, currency) AS v "
        + "FULL OUTER JOIN (SELECT hour, book, instrument, currency, sum(q) AS q, sum(n) AS n, sum(f) AS f, "
        + "sum(c) AS c, sum(t) AS t FROM (SELECT toStartOfHour(event_time) AS hour, book, instrument, currency, "
        + "sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS q, sum(toInt64(quantity) * price) AS n, "
        + "toDecimal128(0, 4) AS f, sum(if(side = 'sell', 1, -1) * toInt64(quantity) * price) AS c, count() AS t FROM "
        + world.trades().sql() + " GROUP BY hour, book, instrument, currency UNION ALL SELECT toStartOfHour(event_time) "
        + "AS hour, book, instrument, currency, toInt64(0) AS q, toDecimal128(0, 4) AS n, sum(fee) AS f, -sum(fee) AS c, "
        + "toUInt64(0) AS t FROM " + world.fees().sql() + " GROUP BY hour, book, instrument, currency) GROUP BY hour, "
        + "book, instrument, currency) AS s USING (hour, book, instrument, currency) WHERE v.q != s.q OR v.n != s.n "
        + "OR v.f != s.f OR v.c != s.c OR v.t != s.t");
  }
}
