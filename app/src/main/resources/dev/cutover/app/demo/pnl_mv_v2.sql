-- Hourly cash PnL per book and instrument, in the instrument's currency: the corrected transform (v2).
--
-- For the trades of each hour H in [window_start, window_end):
--   quantity      net quantity bought (buys positive, sells negative)
--   notional      traded amount, quantity x price
--   fees          fees paid
--   cash_pnl      cash received for sales minus cash paid for purchases, minus fees
-- The corrected view runs this same query on every block inserted into trades, from its boundary on; pnl_v2, a
-- SummingMergeTree, folds the partial rows.
SELECT hour, book, instrument, currency, net_quantity AS quantity, traded AS notional, fee_total AS fees,
  cash - fee_total AS cash_pnl, trade_count
FROM (
  SELECT
    toStartOfHour(event_time) AS hour,
    book,
    instrument,
    currency,
    sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS net_quantity,
    sum(toInt64(quantity) * price) AS traded,
    sum(fee) AS fee_total,
    sum(if(side = 'sell', 1, -1) * toInt64(quantity) * price) AS cash,
    count() AS trade_count
  FROM {trades}
  WHERE event_time >= {window_start} AND event_time < {window_end}
  GROUP BY hour, book, instrument, currency
)
