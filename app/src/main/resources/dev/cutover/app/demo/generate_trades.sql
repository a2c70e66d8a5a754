-- Trades of the event hours [first_hour, first_hour + hours) that arrive in [arrival_from, arrival_to).
-- Every value is a hash of (seed, trade id), so any window of any run yields the same trades.
-- Volume follows the trading day (Tokyo, London, New York), is thin at weekends and stops in the
-- Sunday 02:00-06:00 UTC maintenance window. About 3% of trades arrive up to 10 minutes late.
WITH
  toUInt64({seed}) AS seed,
  toFloat64({scale}) AS scale,
  {first_hour} AS first_hour,
  toUInt32({hours}) AS hours,
  {arrival_from} AS arrival_from,
  {arrival_to} AS arrival_to,
  1800. AS trades_per_unit,
  [0.35, 0.45, 0.5, 0.45, 0.35, 0.3, 0.4, 0.9, 1.4, 1.5, 1.3, 1.1,
   1.2, 1.6, 2.0, 2.1, 1.8, 1.2, 0.9, 0.7, 0.6, 0.45, 0.3, 0.3] AS hour_of_day_profile,
  ['LDN', 'NYC', 'TKO', 'FRA', 'ZRH', 'HKG'] AS regions,
  ['EQ-FLOW', 'EQ-ARB', 'ETF-MM', 'INTERNAL'] AS desks,
  18446744073709551616. AS two64
SELECT
  g.trade_id AS trade_id,
  g.event_time AS event_time,
  g.book AS book,
  i.instrument AS instrument,
  g.side AS side,
  g.quantity AS quantity,
  toDecimal64(round(i.base_price * (1
      + 0.05 * sin(2 * pi() * toUnixTimestamp(g.event_time) / (86400 * i.period_days) + i.phase_slow)
      + 0.015 * sin(2 * pi() * toUnixTimestamp(g.event_time) / 61200 + i.phase_fast))
    * (1 + g.slippage * 0.003), 4), 4) AS price,
  -- 2.5 basis points of the traded amount; internal crossing books pay no fees
  if(g.internal, toDecimal64(0, 4), toDecimal64(round(toFloat64(price) * g.quantity * 0.00025, 4), 4)) AS fee,
  i.currency AS currency
FROM (
  SELECT
    toUInt64(intDiv(toUnixTimestamp(hour), 3600)) * 1000000 + n AS trade_id,
    hour + toIntervalSecond(cityHash64(seed, 3, trade_id) % 3600) AS event_time,
    event_time + toIntervalSecond(if(cityHash64(seed, 4, trade_id) / two64 < 0.03,
      1 + cityHash64(seed, 5, trade_id) % 600, 0)) AS arrival_time,
    -- 24 books x 50 instruments each = 1,200 keys, the first ones busier than the last
    toUInt32(1200 * pow(cityHash64(seed, 2, trade_id) / two64, 1.7)) AS k,
    k % 24 AS b,
    toUInt16((b * 37 + intDiv(k, 24) * 7) % 300) AS instrument_id,
    concat(regions[b % 6 + 1], '-', desks[intDiv(b, 6) + 1]) AS book,
    intDiv(b, 6) = 3 AS internal,
    CAST(if(cityHash64(seed, 7, trade_id) % 2 = 0, 'buy', 'sell'), 'Enum8(\'buy\' = 1, \'sell\' = 2)') AS side,
    toUInt32((1 + cityHash64(seed, 8, trade_id) % 40) * 25) AS quantity,
    cityHash64(seed, 6, trade_id) / two64 - 0.5 AS slippage
  FROM (
    SELECT hour, arrayJoin(range(trade_count)) AS n
    FROM (
      SELECT
        first_hour + toIntervalHour(number) AS hour,
        toDayOfWeek(hour) AS day_of_week,
        toHour(hour) AS hour_of_day,
        if(day_of_week = 7 AND hour_of_day BETWEEN 2 AND 5, 0.,
          hour_of_day_profile[hour_of_day + 1] * if(day_of_week >= 6, 0.05, 1.)) AS intensity,
        toUInt32(trades_per_unit * scale * intensity * (0.75 + 0.5 * cityHash64(seed, 1, hour) / two64)) AS trade_count
      FROM numbers(hours)
    )
  )
  WHERE arrival_time >= arrival_from AND arrival_time < arrival_to
) AS g
INNER JOIN {instruments} AS i ON i.instrument_id = g.instrument_id
