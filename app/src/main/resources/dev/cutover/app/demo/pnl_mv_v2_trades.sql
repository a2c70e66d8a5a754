-- The corrected view of the trades (pnl_v2_mv): on every block inserted into trades from the boundary on, each
-- hour's positions, traded amount and cash, appended to pnl_v2 as partial rows that it folds. The trades carry no
-- fix: this is v1's view of the trades, from the boundary.
SELECT hour, book, instrument, currency, net_quantity AS quantity, traded AS notional, toDecimal128(0, 4) AS fees,
  cash AS cash_pnl, trade_count
FROM (
  SELECT
    toStartOfHour(event_time) AS hour,
    book,
    instrument,
    currency,
    sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS net_quantity,
    sum(toInt64(quantity) * price) AS traded,
    sum(if(side = 'sell', 1, -1) * toInt64(quantity) * price) AS cash,
    count() AS trade_count
  FROM {trades}
  WHERE event_time >= {window_start} AND event_time < {window_end}
  GROUP BY hour, book, instrument, currency
)
