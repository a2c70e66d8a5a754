-- The corrected view of the fees (pnl_v2_fees_mv): on every block inserted into fees from the boundary on, each
-- hour's fees, appended to pnl_v2 as partial rows that it folds. The fix: fees are subtracted from the cash PnL.
SELECT
  toStartOfHour(event_time) AS hour,
  book,
  instrument,
  currency,
  toInt64(0) AS quantity,
  toDecimal128(0, 4) AS notional,
  sum(fee) AS fees,
  -sum(fee) AS cash_pnl,
  toUInt64(0) AS trade_count
FROM {fees}
WHERE event_time >= {window_start} AND event_time < {window_end}
GROUP BY hour, book, instrument, currency
