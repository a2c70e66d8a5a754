-- Hourly mark-to-market PnL per book and instrument, in USD, as the live job has computed it for six
-- months (v1). Same as pnl_v2.sql but for one line:
--
-- BUG (fixed in v2): fees are ADDED to PnL instead of subtracted, so every row that paid fees reports
-- pnl_usd higher by exactly twice its fees_usd. Rows without fees (internal crossing books) are right.
SELECT
  t.hour AS hour,
  t.book AS book,
  t.instrument AS instrument,
  t.currency AS currency,
  t.net_quantity AS quantity,
  toDecimal128(t.traded * f.usd_rate, 6) AS notional_usd,
  toDecimal128(t.fees * f.usd_rate, 6) AS fees_usd,
  toDecimal128((m.mark_price * t.net_quantity - t.cash + t.fees) * f.usd_rate, 6) AS pnl_usd,
  t.trade_count AS trade_count
FROM (
  SELECT
    toStartOfHour(event_time) AS hour,
    hour + toIntervalHour(1) AS hour_end,
    book,
    instrument,
    currency,
    sum(if(side = 'buy', 1, -1) * toInt64(quantity)) AS net_quantity,
    sum(if(side = 'buy', 1, -1) * toInt64(quantity) * price) AS cash,
    sum(toInt64(quantity) * price) AS traded,
    sum(fee) AS fees,
    count() AS trade_count
  FROM {trades}
  WHERE event_time >= {window_start} AND event_time < {window_end}
  GROUP BY hour, book, instrument, currency
) AS t
LEFT ANY JOIN (
  SELECT mark_time, instrument, mark_price FROM {marks}
  WHERE mark_time > {window_start} AND mark_time <= {window_end}
) AS m ON m.instrument = t.instrument AND m.mark_time = t.hour_end
LEFT ANY JOIN (
  SELECT rate_time, currency, usd_rate FROM {fx_rates}
  WHERE rate_time > {window_start} AND rate_time <= {window_end}
) AS f ON f.currency = t.currency AND f.rate_time = t.hour_end
