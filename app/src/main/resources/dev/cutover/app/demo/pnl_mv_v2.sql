-- Hourly cash PnL per book and instrument, in the instrument's currency: the corrected transform (v2), over both
-- sources of the view-fed world, for the hours in [window_start, window_end):
--   quantity      net quantity bought (buys positive, sells negative), from the trades
--   notional      traded amount, quantity x price, from the trades
--   fees          fees paid, from the fees feed
--   cash_pnl      cash received for sales minus cash paid for purchases, minus fees
-- It is the two corrected views' queries (pnl_mv_v2_trades.sql and pnl_mv_v2_fees.sql) together, folded per hour
-- and key as pnl_v2, a SummingMergeTree, folds the partial rows the views append from the boundary on: the backfill
-- below the boundary and the views above it compute the same thing.
SELECT hour, book, instrument, currency, sum(q) AS quantity, sum(n) AS notional, sum(f) AS fees, sum(c) AS cash_pnl,
  sum(t) AS trade_count
FROM (
  SELECT
    toStartOfHour(event_time) AS hour,
    book,
    instrument,
    currency,
    sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS q,
    sum(toInt64(quantity) * price) AS n,
    toDecimal128(0, 4) AS f,
    sum(if(side = 'sell', 1, -1) * toInt64(quantity) * price) AS c,
    count() AS t
  FROM {trades}
  WHERE event_time >= {window_start} AND event_time < {window_end}
  GROUP BY hour, book, instrument, currency
  UNION ALL
  SELECT
    toStartOfHour(event_time) AS hour,
    book,
    instrument,
    currency,
    toInt64(0) AS q,
    toDecimal128(0, 4) AS n,
    sum(fee) AS f,
    -sum(fee) AS c,
    toUInt64(0) AS t
  FROM {fees}
  WHERE event_time >= {window_start} AND event_time < {window_end}
  GROUP BY hour, book, instrument, currency
)
GROUP BY hour, book, instrument, currency
